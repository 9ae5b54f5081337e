// The vehicle reads both databases share, as plain SQL on the database's read path (see
// src/db/adapterReads.ts). The SQL is the same on SQLite and PostgreSQL (which rows a page reads
// is each one's own: PageRows); values are converted by src/db/vehicleColumns.ts, as each adapter
// spells them its own way (0/1 or booleans, dates as text).
import { Prisma } from "../../generated/prisma/client";
import type { VehicleAsRead } from "../../model/vehicleFields";
import { firstRowValue, type ReadSql } from "../adapterReads";
import { fixedStatement } from "../fixedStatement";
import { vehicleReadColumns, vehicleOfRow as vehicleOf, vehiclesOfTable, type VehicleRow } from "../vehicleColumns";
import { vehiclePageSql, whereOfRows, type PageRows, type PageWindow, type SearchFilter } from "./pageSql";
import { searchTotalsOf, seenState, type NetworkState } from "./totals";

const vehicleById = fixedStatement(
  (id: number, networkId: number) => Prisma.sql`SELECT ${vehicleReadColumns} FROM vehicles WHERE id = ${id} AND network_id = ${networkId}`,
);

export async function selectVehicle(read: ReadSql, networkId: number, id: number): Promise<VehicleAsRead | null> {
  // Read by position (vehiclesOfTable): no object by column name is made for the row.
  return vehiclesOfTable(await read.keyTable(vehicleById(id, networkId)))[0] ?? null;
}

export async function selectVehiclePage(read: ReadSql, networkId: number, rows: PageRows, window: PageWindow): Promise<VehicleAsRead[]> {
  return vehiclesOfTable(await read.page(vehiclePageSql(networkId, rows, window)));
}

/**
 * A page and, read by the same statement (one snapshot), the network's state: one round trip
 * where a count and a page took two. The state is null when the page is empty, as no row
 * carries it.
 */
export async function selectVehiclePageWithState(
  read: ReadSql,
  networkId: number,
  rows: PageRows,
  window: PageWindow,
): Promise<{ data: VehicleAsRead[]; state: NetworkState | null }> {
  const found = await read.page(vehiclePageSql(networkId, rows, window, "networkState"));
  if (found.rows.length === 0) return { data: [], state: null };
  const state = { network_total: firstRowValue(found, "network_total") as number | string, network_version: firstRowValue(found, "network_version") as number | string };
  return { data: vehiclesOfTable(found), state: seenState(read, networkId, state) };
}

/**
 * A page of a search and the number of all its matches, from one pass over the network's rows
 * (a window count), for a search whose total is not kept yet. The total is then kept at
 * `version`, read before: a write in between makes the kept total newer than its version,
 * which is harmless, as readers of the newer version do not match it.
 */
export async function selectSearchPageCounting(
  read: ReadSql,
  filter: SearchFilter,
  rows: PageRows,
  window: PageWindow,
  version: string,
): Promise<{ data: VehicleAsRead[]; total: number }> {
  const found = await read<VehicleRow & { matches: number | string }>(vehiclePageSql(filter.networkId, rows, window, "matches"));
  let total = found.length > 0 ? Number(found[0].matches) : 0;
  // A page past the last match has no row to carry the count.
  if (found.length === 0 && window.offset > 0) total = await countMatches(read, filter.networkId, rows);
  searchTotalsOf(read).set(filter.networkId, filter.needle, version, total);
  return { data: found.map(vehicleOf), total };
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
  filter: SearchFilter,
  rows: PageRows,
  window: PageWindow,
): Promise<{ data: VehicleAsRead[]; total: number } | null> {
  const found = await read<VehicleRow & { matches: number | string; network_total: number | string; network_version: number | string }>(
    vehiclePageSql(filter.networkId, rows, window, "matchesAndState"),
  );
  if (found.length === 0) return window.offset === 0 ? { data: [], total: 0 } : null;
  const total = Number(found[0].matches);
  const { version } = seenState(read, filter.networkId, found[0]);
  searchTotalsOf(read).set(filter.networkId, filter.needle, version, total);
  return { data: found.map(vehicleOf), total };
}

async function countMatches(read: ReadSql, networkId: number, rows: PageRows): Promise<number> {
  const row = await read.first<{ total: number | string }>(Prisma.sql`SELECT COUNT(*) AS total FROM vehicles ${whereOfRows(networkId, rows)}`);
  return Number(row?.total ?? 0);
}
