// A list's total without a count over the network's rows where possible, and what a process
// remembers for it per read path: the state each network was last seen in, and the search totals
// kept per vehicle_version (./searchTotals.ts says why that is never stale).
import { cacheCounts } from "../../config/cacheCounts";
import { Prisma } from "../../generated/prisma/client";
import { keptPerReadPath, type ReadSql } from "../adapterReads";
import { maxKeptNetworks, readBetweenCommits, type CommitEpoch } from "../betweenCommits";
import { fixedStatement } from "../fixedStatement";
import { networkVersionColumn, type SearchFilter, type VehicleFilter } from "./pageSql";
import { SearchTotals } from "./searchTotals";

/** The network's kept vehicle count and the vehicle_version it belongs to. */
export interface NetworkState {
  vehicles: number;
  version: string;
}

/** The network's state a page's row carries, remembered as the one it was last seen in. */
export function seenState(read: ReadSql, networkId: number, row: { network_total: number | string; network_version: number | string }): NetworkState {
  const state = { vehicles: Number(row.network_total), version: String(row.network_version) };
  seenStatesOf(read).see(networkId, state);
  return state;
}

/** The state each network was last seen in, per read path: the guess a search starts from. */
class SeenStates {
  private readonly states = new Map<number, NetworkState>();
  see(networkId: number, state: NetworkState): void {
    // One entry per network; a database with more networks than this starts over.
    if (this.states.size >= maxKeptNetworks && !this.states.has(networkId)) this.states.clear();
    this.states.set(networkId, state);
  }
  get(networkId: number): NetworkState | undefined {
    return this.states.get(networkId);
  }
}

const seenStatesOf = keptPerReadPath(() => new SeenStates());

/**
 * A search's total kept at the version its network was last seen in, with that state: a guess
 * that holds while the network's vehicles are unchanged. A page read with its state
 * (selectVehiclePageWithState) confirms it, or the total is looked up the long way.
 */
export function guessedSearchTotal(read: ReadSql, filter: SearchFilter): { total: number; state: NetworkState } | null {
  const state = seenStatesOf(read).get(filter.networkId);
  if (!state) {
    // No kept total can be trusted without the network's state: the kept totals could not answer.
    cacheCounts.searchTotals.misses += 1;
    return null;
  }
  const total = searchTotalsOf(read).get(filter.networkId, filter.needle, state.version);
  return total === undefined ? null : { total, state };
}

/** Search totals kept per read path, i.e. per database a process has open. */
export const searchTotalsOf = keptPerReadPath(() => new SearchTotals());

export interface KnownTotal {
  /** The total, or null when the matches of a search must be counted. */
  total: number | null;
  /** The network's version (networkVersionColumn) when the total was looked up. */
  version: string;
  /** The network's number of vehicles. */
  networkVehicles: number;
}

const networkState = fixedStatement(
  (networkId: number) => Prisma.sql`SELECT vehicle_count AS total, ${Prisma.raw(networkVersionColumn)} AS version FROM networks WHERE id = ${networkId}`,
);

type NetworkRow = { total: number | string; version: number | string } | null;

/** The network's count and version, read again only after a commit where an epoch is given (../betweenCommits.ts). */
const networkRow = readBetweenCommits(async (read, networkId): Promise<NetworkRow> => (await read.byKey<NetworkRow>(networkState(networkId))) ?? null);

/**
 * The total without a count over the network's rows where possible: without a search, the
 * network's count kept by triggers; with one, a total kept at the network's current
 * vehicle_version (src/db/vehicles/searchTotals.ts).
 */

export async function knownVehicleTotal(read: ReadSql, filter: VehicleFilter, commitEpoch?: CommitEpoch): Promise<KnownTotal> {
  const network = await networkRow(read, filter.networkId, commitEpoch);
  if (!network) return { total: 0, version: "", networkVehicles: 0 };
  const version = String(network.version);
  const networkVehicles = Number(network.total);
  seenStatesOf(read).see(filter.networkId, { vehicles: networkVehicles, version });
  if (!filter.needle) return { total: networkVehicles, version, networkVehicles };
  return { total: searchTotalsOf(read).get(filter.networkId, filter.needle, version) ?? null, version, networkVehicles };
}
