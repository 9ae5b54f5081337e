// The statement reading a page of a network's vehicles, the same on SQLite and PostgreSQL: which
// rows a search reads (its WHERE clause) is each database's own, as its search plan chose them
// (src/db/sqlite/pageRows.ts, src/db/postgres/pageRows.ts); a list without a search reads every
// row of the network, by a statement made here once per order.
import { Prisma } from "../../generated/prisma/client";
import { sortableVehicleFields, sortsNullsLast } from "../../model/vehicleFields";
import type { VehicleOrder } from "../store";
import { vehicleReadColumns } from "../vehicleColumns";
import { fixedStatement, type SqlQuery } from "../fixedStatement";
import { networkWhere } from "./where";

export interface VehicleFilter {
  networkId: number;
  /** Matched as a substring of search_text (already spelled like it), or none. */
  needle: string | null;
}

/** A filter with a search. */
export type SearchFilter = VehicleFilter & { needle: string };

/** Which part of the ordered rows a page is. */
export interface PageWindow {
  order: VehicleOrder | null;
  limit: number;
  offset: number;
}

/** The rows a page reads, as the database's search plan chose them. */
export interface PageRows {
  /** The statement's WHERE clause; null: every row of the network (a list without a search). */
  where: Prisma.Sql | null;
  /** All the network's matches gathered before they are ordered, rather than the rows read in order. */
  gather: boolean;
}

/**
 * The column of each sort field (a column name from a fixed list, never client text); nulls sort
 * last in both directions (ties by id).
 */
const sortColumn = new Map(sortableVehicleFields.map((field) => [field.request as string, { column: field.column as string, nullsLast: sortsNullsLast(field) }]));

const orderByOf = (order: VehicleOrder | null) => {
  const direction = Prisma.raw(order?.direction === "desc" ? "DESC" : "ASC");
  if (!order) return Prisma.sql`ORDER BY id ASC`;
  const { column, nullsLast } = sortColumn.get(order.field)!;
  return Prisma.sql`ORDER BY ${Prisma.raw(column)} ${direction}${Prisma.raw(nullsLast ? " NULLS LAST" : "")}, id ${direction}`;
};

/** What a page's rows carry besides the vehicle. */
export type PageExtra =
  /** Nothing. */
  | "none"
  /** The number of all matches (a window count over them). */
  | "matches"
  /** The network's kept vehicle count and version (networkVersionColumn), from the page's own snapshot. */
  | "networkState"
  /** Both: the matches counted in the snapshot whose network state the rows carry. */
  | "matchesAndState";

/**
 * The network's version as kept search totals and pages are compared with it: its
 * vehicle_version with its creation instant, so that a network id reused by an operator (a
 * network deleted, another inserted with its id) never matches what was kept for the one before,
 * whose version may have reached the same number. The same text on both databases' reads.
 */
export const networkVersionColumn = "CAST(vehicle_version AS TEXT) || '@' || CAST(created_at AS TEXT)";

function extraColumns(networkId: number, extra: PageExtra): Prisma.Sql {
  const matches = Prisma.raw(", COUNT(*) OVER () AS matches");
  if (extra === "matches") return matches;
  if (extra === "none") return Prisma.empty;
  const network = (column: string) => Prisma.sql`(SELECT ${Prisma.raw(column)} FROM networks WHERE id = ${networkId})`;
  const state = Prisma.sql`, ${network("vehicle_count")} AS network_total, ${network(networkVersionColumn)} AS network_version`;
  return extra === "networkState" ? state : Prisma.sql`${matches}${state}`;
}

/** The statement reading a page of the network's `rows`, its rows with `extra`. */
export function vehiclePageSql(networkId: number, rows: PageRows, window: PageWindow, extra: PageExtra = "none"): SqlQuery {
  if (rows.where === null && !rows.gather) return networkPage(window.order, extra)(networkId, window.limit, window.offset);
  return pageSqlOf(networkId, whereOfRows(networkId, rows), rows.gather, window, extra);
}

/** The WHERE clause of a page's rows. */
export const whereOfRows = (networkId: number, rows: PageRows): Prisma.Sql => rows.where ?? networkWhere(networkId);

function pageSqlOf(networkId: number, where: Prisma.Sql, gather: boolean, { order, limit, offset }: PageWindow, extra: PageExtra): Prisma.Sql {
  const extras = extraColumns(networkId, extra);
  const rows = gather
    ? // Materialized: planned as a read of every match, not as the first rows of an ordered read.
      Prisma.sql`WITH found AS MATERIALIZED (SELECT ${vehicleReadColumns} FROM vehicles ${where}) SELECT *${extras} FROM found`
    : Prisma.sql`SELECT ${vehicleReadColumns}${extras} FROM vehicles ${where}`;
  return Prisma.sql`${rows} ${orderByOf(order)} LIMIT ${limit} OFFSET ${offset}`;
}

type NetworkPage = (networkId: number, limit: number, offset: number) => SqlQuery;

/**
 * A page of every row of the network, the list without a search that dashboards poll: its
 * statement's text made once per order and extra (../fixedStatement.ts), kept by sort field,
 * direction and extra (a few dozen at most: the sortable fields are a fixed list).
 */
const networkPages = new Map<string, Map<PageExtra, NetworkPage>>();

function networkPage(order: VehicleOrder | null, extra: PageExtra): NetworkPage {
  const orderKey = order === null ? "" : order.direction === "desc" ? `-${order.field}` : order.field;
  const kept = networkPages.get(orderKey)?.get(extra);
  if (kept) return kept;
  // Made before it is kept: an order no statement can be made of (not a sort field) keeps nothing.
  const kind = order === null ? null : { field: order.field, direction: order.direction };
  const page = fixedStatement((networkId: number, limit: number, offset: number) =>
    pageSqlOf(networkId, networkWhere(networkId), false, { order: kind, limit, offset }, extra),
  );
  networkPages.set(orderKey, (networkPages.get(orderKey) ?? new Map<PageExtra, NetworkPage>()).set(extra, page));
  return page;
}
