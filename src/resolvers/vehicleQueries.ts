// The vehicle reads every request makes, as plain SQL on the database's read path (see
// src/db/adapterReads.ts). The SQL is the same on SQLite and PostgreSQL; values are converted
// here, as each adapter spells them its own way (0/1 or booleans, dates as text).
import { Prisma, type Vehicle } from "../generated/prisma/client";
import { keptPerReadPath, type ReadSql } from "../db/adapterReads";
import { storedInstant } from "../db/storedInstant";
import { SearchTotals } from "./searchTotals";
import type { SearchSource } from "./searchPlan";
import { keyedNeedle, needleKeys, needleKeysQuery } from "./searchKeys";

const vehicleColumns = Prisma.raw(
  "id, network_id, plate, car_type, car, owner, general_inspection, comment, color, wanted, wanted_reason, synced, sync_id, search_text, created_at, updated_at",
);

interface VehicleRow {
  id: number;
  network_id: number;
  plate: string;
  car_type: string | null;
  car: string | null;
  owner: string | null;
  general_inspection: string | null;
  comment: string | null;
  color: string | null;
  wanted: boolean | number;
  wanted_reason: string | null;
  synced: boolean | number;
  sync_id: string | null;
  search_text: string;
  created_at: Date | string;
  updated_at: Date | string;
}

/** SQLite answers 0/1, PostgreSQL true/false. */
const isTrue = (value: boolean | number | string) => value === true || Number(value) === 1;

const vehicleOf = (row: VehicleRow): Vehicle => ({
  id: Number(row.id),
  networkId: Number(row.network_id),
  plate: row.plate,
  carType: row.car_type,
  car: row.car,
  owner: row.owner,
  generalInspection: row.general_inspection,
  comment: row.comment,
  color: row.color,
  wanted: isTrue(row.wanted),
  wantedReason: row.wanted_reason,
  synced: isTrue(row.synced),
  syncId: row.sync_id,
  searchText: row.search_text,
  createdAt: storedInstant(row.created_at),
  updatedAt: storedInstant(row.updated_at),
});

export async function selectVehicle(read: ReadSql, networkId: number, id: number): Promise<Vehicle | null> {
  const row = await read.byKey<VehicleRow>(Prisma.sql`
    SELECT ${vehicleColumns} FROM vehicles WHERE id = ${id} AND network_id = ${networkId}`);
  return row ? vehicleOf(row) : null;
}

export interface VehicleFilter {
  networkId: number;
  /** Matched as a substring of search_text (already spelled like it), or none. */
  needle: string | null;
  /** SQLite's trigram indexes over search_text (vehicle_search_keys, vehicles_search) can name candidates. */
  trigramIndex: boolean;
}

/** The needle as an FTS5 phrase: quoted, its own quotes doubled, every other character literal. */
export const ftsPhrase = (needle: string) => `"${needle.replace(/"/g, '""')}"`;

/**
 * The rows of SQLite's trigram index holding the needle: a phrase of its trigrams, answered from
 * the index alone (LIKE on the index would read every candidate's text from the table).
 */
export const trigramCandidates = (needle: string) =>
  Prisma.sql`SELECT rowid FROM vehicles_search WHERE vehicles_search MATCH ${ftsPhrase(needle)}`;

/**
 * SQLite: the rows that may hold the needle. The network's rows with all its keys
 * (vehicle_search_keys) where it has any, else the trigram index's rows of every network.
 */
export const searchCandidates = (networkId: number, needle: string) =>
  keyedNeedle(needle)
    ? Prisma.sql`SELECT rowid FROM vehicle_search_keys WHERE vehicle_search_keys MATCH ${needleKeysQuery(networkId, needle)}`
    : trigramCandidates(needle);

/** SQLite's index of the network's vehicle ids, with their search text (its migration says why). */
export const sqliteNetworkIdIndex = "vehicles_network_id_id_search_text_idx";

/**
 * The network's rows among candidates of all networks. Each candidate is looked up in the
 * network's id index, whose entries lie close together, not in the table, whose rows lie
 * scattered: only the network's own rows are then read (a new term's ~200 candidates: ~0.6 ms
 * instead of ~1.1 ms). Keyed candidates are the network's already.
 */
function networkCandidates(networkId: number, needle: string, candidates: Prisma.Sql): Prisma.Sql {
  if (keyedNeedle(needle)) return candidates;
  return Prisma.sql`SELECT id FROM vehicles INDEXED BY ${Prisma.raw(sqliteNetworkIdIndex)} WHERE network_id = ${networkId} AND id IN (${candidates})`;
}

function candidatesOf(networkId: number, needle: string, source: SearchSource): Prisma.Sql | null {
  if (source.kind === "index") return searchCandidates(networkId, needle);
  // As one JSON array: one statement's text for any number of ids.
  if (source.kind === "candidates") return Prisma.sql`SELECT value FROM json_each(${JSON.stringify(source.ids)})`;
  return null;
}

/**
 * @param source where the candidates come from (src/resolvers/searchPlan.ts); LIKE on the row
 * decides, exactly as without the index
 */
function whereOf({ networkId, needle }: VehicleFilter, source: SearchSource) {
  if (!needle) return Prisma.sql`WHERE network_id = ${networkId}`;
  if (source.kind === "rowsInOrder") return Prisma.sql`WHERE network_id = ${networkId} AND strpos(search_text, ${needle}) > 0`;
  if (source.kind === "keyedMatches") {
    // Every key of the needle is a key of a text holding it; strpos then decides. The keys name
    // the network's rows only, so no other index is asked: the network id is tested on the row
    // (`+ 0`), and strpos, unlike LIKE, is no trigram condition. Left to itself the planner
    // intersects the keys' rows with the network's entry in vehicles_search_trgm_idx (~20 ms
    // in a network of 200,000).
    const keys = needleKeys(networkId, needle);
    return Prisma.sql`WHERE vehicle_search_keys(network_id, search_text) @> string_to_array(${keys}::text, ' ')
      AND network_id + 0 = ${networkId} AND strpos(search_text, ${needle}) > 0`;
  }
  const pattern = `%${needle}%`;
  const candidates = candidatesOf(networkId, needle, source);
  const among = candidates ? Prisma.sql` AND id IN (${networkCandidates(networkId, needle, candidates)})` : Prisma.empty;
  return Prisma.sql`WHERE network_id = ${networkId}${among} AND search_text LIKE ${pattern}`;
}

export interface VehicleOrder {
  /** A column name from a fixed list, never client text. */
  column: string;
  direction: "asc" | "desc";
  nullsLast: boolean;
}

const orderByOf = (order: VehicleOrder | null) => {
  const direction = Prisma.raw(order?.direction === "desc" ? "DESC" : "ASC");
  return order
    ? Prisma.sql`ORDER BY ${Prisma.raw(order.column)} ${direction}${Prisma.raw(order.nullsLast ? " NULLS LAST" : "")}, id ${direction}`
    : Prisma.sql`ORDER BY id ASC`;
};

export interface PageRequest {
  order: VehicleOrder | null;
  limit: number;
  offset: number;
  /** Where a search's candidates come from (src/resolvers/searchPlan.ts). */
  source: SearchSource;
}

/** What a page's rows carry besides the vehicle. */
export type PageExtra =
  /** Nothing. */
  | "none"
  /** The number of all matches (a window count over them). */
  | "matches"
  /** The network's kept vehicle count and vehicle_version, from the page's own snapshot. */
  | "networkState"
  /** Both: the matches counted in the snapshot whose network state the rows carry. */
  | "matchesAndState";

function extraColumns(filter: VehicleFilter, extra: PageExtra): Prisma.Sql {
  const matches = Prisma.raw(", COUNT(*) OVER () AS matches");
  if (extra === "matches") return matches;
  if (extra === "none") return Prisma.empty;
  const network = (column: string) => Prisma.sql`(SELECT ${Prisma.raw(column)} FROM networks WHERE id = ${filter.networkId})`;
  const state = Prisma.sql`, ${network("vehicle_count")} AS network_total, ${network("vehicle_version")} AS network_version`;
  return extra === "networkState" ? state : Prisma.sql`${matches}${state}`;
}

/** The statement reading a page, its rows with `extra`. */
export function vehiclePageSql(filter: VehicleFilter, { order, limit, offset, source }: PageRequest, extra: PageExtra = "none"): Prisma.Sql {
  const extras = extraColumns(filter, extra);
  const rows =
    source.kind === "matches" || source.kind === "keyedMatches"
      ? // Materialized: planned as a read of every match, not as the first rows of an ordered read.
        Prisma.sql`WITH found AS MATERIALIZED (SELECT ${vehicleColumns} FROM vehicles ${whereOf(filter, source)}) SELECT *${extras} FROM found`
      : Prisma.sql`SELECT ${vehicleColumns}${extras} FROM vehicles ${whereOf(filter, source)}`;
  return Prisma.sql`${rows} ${orderByOf(order)} LIMIT ${limit} OFFSET ${offset}`;
}

export async function selectVehiclePage(read: ReadSql, filter: VehicleFilter, page: PageRequest): Promise<Vehicle[]> {
  const rows = await read<VehicleRow>(vehiclePageSql(filter, page));
  return rows.map(vehicleOf);
}

/** The network's kept vehicle count and the vehicle_version it belongs to. */
export interface NetworkState {
  vehicles: number;
  version: string;
}

/**
 * A page and, read by the same statement (one snapshot), the network's state: one round trip
 * where a count and a page took two. The state is null when the page is empty, as no row
 * carries it.
 */
export async function selectVehiclePageWithState(
  read: ReadSql,
  filter: VehicleFilter,
  page: PageRequest,
): Promise<{ data: Vehicle[]; state: NetworkState | null }> {
  const rows = await read<VehicleRow & { network_total: number | string; network_version: number | string }>(
    vehiclePageSql(filter, page, "networkState"),
  );
  if (rows.length === 0) return { data: [], state: null };
  return { data: rows.map(vehicleOf), state: seenState(read, filter.networkId, rows[0]) };
}

/** The network's state a page's row carries, remembered as the one it was last seen in. */
function seenState(read: ReadSql, networkId: number, row: { network_total: number | string; network_version: number | string }): NetworkState {
  const state = { vehicles: Number(row.network_total), version: String(row.network_version) };
  seenStatesOf(read).see(networkId, state);
  return state;
}

/** The state each network was last seen in, per read path: the guess a search starts from. */
class SeenStates {
  private readonly states = new Map<number, NetworkState>();
  see(networkId: number, state: NetworkState): void {
    // One entry per network; a database with more networks than this starts over.
    if (this.states.size >= 100_000 && !this.states.has(networkId)) this.states.clear();
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
export function guessedSearchTotal(read: ReadSql, filter: VehicleFilter & { needle: string }): { total: number; state: NetworkState } | null {
  const state = seenStatesOf(read).get(filter.networkId);
  if (!state) return null;
  const total = searchTotalsOf(read).get(filter.networkId, filter.needle, state.version);
  return total === undefined ? null : { total, state };
}

/** Search totals kept per read path, i.e. per database a process has open. */
const searchTotalsOf = keptPerReadPath(() => new SearchTotals());

export interface KnownTotal {
  /** The total, or null when the matches of a search must be counted. */
  total: number | null;
  /** The network's vehicle_version when the total was looked up. */
  version: string;
  /** The network's number of vehicles. */
  networkVehicles: number;
}

/**
 * The total without a count over the network's rows where possible: without a search, the
 * network's count kept by triggers; with one, a total kept at the network's current
 * vehicle_version (src/resolvers/searchTotals.ts).
 */
export async function knownVehicleTotal(read: ReadSql, filter: VehicleFilter): Promise<KnownTotal> {
  const network = await read.byKey<{ total: number | string; version: number | string }>(
    Prisma.sql`SELECT vehicle_count AS total, vehicle_version AS version FROM networks WHERE id = ${filter.networkId}`,
  );
  if (!network) return { total: 0, version: "", networkVehicles: 0 };
  const version = String(network.version);
  const networkVehicles = Number(network.total);
  seenStatesOf(read).see(filter.networkId, { vehicles: networkVehicles, version });
  if (!filter.needle) return { total: networkVehicles, version, networkVehicles };
  return { total: searchTotalsOf(read).get(filter.networkId, filter.needle, version) ?? null, version, networkVehicles };
}

/**
 * A page of a search and the number of all its matches, from one pass over the network's rows
 * (a window count), for a search whose total is not kept yet. The total is then kept at
 * `version`, read before: a write in between makes the kept total newer than its version,
 * which is harmless, as readers of the newer version do not match it.
 */
export async function selectSearchPageCounting(
  read: ReadSql,
  filter: VehicleFilter & { needle: string },
  page: PageRequest,
  version: string,
): Promise<{ data: Vehicle[]; total: number }> {
  const rows = await read<VehicleRow & { matches: number | string }>(vehiclePageSql(filter, page, "matches"));
  let total = rows.length > 0 ? Number(rows[0].matches) : 0;
  // A page past the last match has no row to carry the count.
  if (rows.length === 0 && page.offset > 0) total = await countMatches(read, filter, page.source);
  searchTotalsOf(read).set(filter.networkId, filter.needle, version, total);
  return { data: rows.map(vehicleOf), total };
}

/**
 * A page of a search whose total is not kept, its number of matches and the network's state, all
 * from one statement (one snapshot): the total is kept at the version it was counted in.
 * PostgreSQL: a new term's first page takes one round trip instead of two. An empty first page
 * means no match (a total of 0, not kept: no row carries the version); an empty later page is
 * null, as no row carries the count (the caller then counts the long way).
 */
export async function selectSearchPageCountingWithState(
  read: ReadSql,
  filter: VehicleFilter & { needle: string },
  page: PageRequest,
): Promise<{ data: Vehicle[]; total: number } | null> {
  const rows = await read<VehicleRow & { matches: number | string; network_total: number | string; network_version: number | string }>(
    vehiclePageSql(filter, page, "matchesAndState"),
  );
  if (rows.length === 0) return page.offset === 0 ? { data: [], total: 0 } : null;
  const total = Number(rows[0].matches);
  const { version } = seenState(read, filter.networkId, rows[0]);
  searchTotalsOf(read).set(filter.networkId, filter.needle, version, total);
  return { data: rows.map(vehicleOf), total };
}

async function countMatches(read: ReadSql, filter: VehicleFilter, source: SearchSource): Promise<number> {
  const row = await read.first<{ total: number | string }>(Prisma.sql`SELECT COUNT(*) AS total FROM vehicles ${whereOf(filter, source)}`);
  return Number(row?.total ?? 0);
}
