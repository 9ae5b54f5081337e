// Whether a search on SQLite takes its candidates from a trigram index or reads the network's
// vehicles. A needle with three ASCII letters or digits in a row asks the network's own keys
// (vehicle_search_keys), which name the network's rows only; any other, vehicles_search, which
// names the rows of ALL networks (each is then looked up in the network's id index). The index
// costs in proportion to the rows it names, reading costs in
// proportion to the network's size (its rows lie scattered among all networks' rows, a read
// per row, fewer when a page fills early). So the index is taken for a needle it can look up
// whose rows in all networks are few against the network's size, and, once the network's
// matches are known, only while that costs less than reading the network in order until the
// page is full (a page of many matches fills early).
// Looking a needle up the first time fetches its candidates, which the page then takes as they
// are. The choice never changes a result: LIKE on the row decides either way.
import { Prisma } from "../../generated/prisma/client";
import { keptPerReadPath, type ReadSql } from "../adapterReads";
import type { VehicleFilter } from "../vehicles/pageSql";
import { keyedNeedle } from "../vehicles/searchKeys";
import { searchCandidates } from "./searchCandidates";

/**
 * Reading a network in order, per entry: in id order its id index holds the search text, which
 * LIKE tests there (~0.075 us an entry: the largest network's 200,000 in ~15 ms); in another
 * order each entry's row is read from the table (~2 us while the pages are in the cache).
 */
const entryInIdOrderUs = 0.075;
const entryInOtherOrderUs = 2;
/** Asking the index: looking the needle's keys up (~65 us), then reading each match (~2 us). */
const indexLookupUs = 65;
const indexMatchUs = 2;

/**
 * What a page of a needle with `matches` (known) costs, in us, read in order and through the
 * index: in order, one entry in networkVehicles / matches is a match, and the page needs
 * `pageEnd` of them. A common name in a network of 2,000 (154 matches): ~120 us in order, ~190
 * us through its keys; in 200,000 the two meet at ~340 matches.
 */
function readInOrderCosts(matches: number, networkVehicles: number, pageEnd: number, idOrder: boolean): { inOrder: number; index: number } {
  const entries = Math.min(networkVehicles, (pageEnd * networkVehicles) / Math.max(matches, 1));
  return {
    inOrder: entries * (idOrder ? entryInIdOrderUs : entryInOtherOrderUs),
    index: indexLookupUs + matches * indexMatchUs,
  };
}

/**
 * The index is taken while it names fewer rows than this share of the network's size: a new
 * plate number (~200 rows in 2,000,000) takes the index in a network of 2,000 (~1 ms instead of
 * ~6 ms) as in one of 200,000 (~3 ms instead of ~200 ms); a common name (~60,000) does not.
 */
const candidatesPerNetworkVehicle = 1 / 4;
const maxEstimates = 10_000;

/**
 * Up to this many candidates the plan fetches, not only counts, when it looks a needle up: the
 * page's statement then takes them as they are instead of asking the index again (~0.3 ms).
 */
const fetchedCandidatesMax = 1000;

/** Where a search's candidates come from on SQLite (PostgreSQL's: src/db/postgres/searchPlan.ts). */
export type SqliteSearchSource =
  /** The network's rows, read in order. */
  | { kind: "rows" }
  /** The trigram index, asked by the page's statement. */
  | { kind: "index" }
  /** The rows (of all networks) the index named while the plan looked the needle up. */
  | { kind: "candidates"; ids: number[] };

export const readRows: SqliteSearchSource = { kind: "rows" };
const askIndex: SqliteSearchSource = { kind: "index" };

/** Rows the index named for a needle, counted up to a cap: exact when below it. */
interface Estimate {
  count: number;
  exact: boolean;
}

/**
 * Kept per database and needle (and network, for a needle looked up in the network's keys): an
 * estimate for choosing, so a few rows written since do not
 * matter, and a term asked again costs no second look-up.
 */
const estimatesOf = keptPerReadPath(() => new Map<string, Estimate>());

function remember(estimates: Map<string, Estimate>, needle: string, estimate: Estimate): void {
  if (estimates.size >= maxEstimates) estimates.clear();
  estimates.set(needle, estimate);
}

/** What an estimate is kept under; search text holds no U+001F (src/resolvers/vehicleInput.ts). */
const estimateKey = (networkId: number, needle: string) => (keyedNeedle(needle) ? `${networkId}\u001f${needle}` : needle);

/** The index while it names fewer rows than `cap`, else the network's rows. */
async function sourceByCandidates(read: ReadSql, networkId: number, needle: string, cap: number): Promise<SqliteSearchSource> {
  const estimates = estimatesOf(read);
  const key = estimateKey(networkId, needle);
  const known = estimates.get(key);
  if (known && (known.exact || known.count >= cap)) return known.count < cap ? askIndex : readRows;
  const fetched = Math.min(cap, fetchedCandidatesMax);
  const candidates = searchCandidates(networkId, needle);
  const rows = await read<{ rowid: number | string }>(Prisma.sql`${candidates} LIMIT ${fetched}`);
  if (rows.length < fetched) {
    remember(estimates, key, { count: rows.length, exact: true });
    return { kind: "candidates", ids: rows.map((row) => Number(row.rowid)) };
  }
  if (fetched === cap) {
    remember(estimates, key, { count: cap, exact: false });
    return readRows;
  }
  const [row] = await read<{ count: number | string }>(Prisma.sql`
    SELECT COUNT(*) AS count FROM (${candidates} LIMIT ${cap})`);
  const count = Number(row.count);
  remember(estimates, key, { count, exact: count < cap });
  return count < cap ? askIndex : readRows;
}

/**
 * A needle the index can look up: three characters or more (it knows trigrams), and no NUL,
 * which FTS5's query syntax cannot hold.
 */
export const indexableNeedle = (needle: string) => [...needle].length >= 3 && !needle.includes("\u0000");

/**
 * @param knownMatches the network's matches when kept, null when the search counts them now
 * @param networkVehicles the network's number of vehicles
 * @param page where the page ends (offset + limit), and whether it is in id order
 */
export async function planSearch(
  read: ReadSql,
  { needle, networkId }: VehicleFilter,
  knownMatches: number | null,
  networkVehicles: number,
  { pageEnd, idOrder }: { pageEnd: number; idOrder: boolean },
): Promise<SqliteSearchSource> {
  if (needle === null || !indexableNeedle(needle)) return readRows;
  if (knownMatches !== null) {
    const costs = readInOrderCosts(knownMatches, networkVehicles, pageEnd, idOrder);
    if (costs.inOrder < costs.index) return readRows;
  }
  const cap = Math.floor(networkVehicles * candidatesPerNetworkVehicle);
  return cap > 0 ? sourceByCandidates(read, networkId, needle, cap) : readRows;
}
