// What the floor's handlers need of the database: one method per query the service issues,
// with the same WHERE, ORDER BY, LIMIT/OFFSET and COUNT (mirroring the vehicle reads of
// src/db/vehicles/ and the other stores' queries in src/db/). Each dialect implements it with its driver
// (sqliteStore.ts, postgresStore.ts) and no ORM.
import { providerOf } from "../../src/config/database";
import type { ReportEntries, ReportOfficer } from "../../src/db/store";
import { sortableVehicleFields, sortsNullsLast, vehicleSortFields, type VehicleSortField } from "../../src/model/vehicleFields";
import { vehicleColumns, vehicleSelectList, type VehicleJson } from "./vehicleJson";

/** The sort fields by request name (`sort_field`), in the field table's order as the service lists them. */
export const sortFields = vehicleSortFields;
export type SortField = VehicleSortField;
export type SortOrder = "asc" | "desc";

/** The column of each sort field and whether it can hold nulls (they sort last in both directions). */
export const sortColumns = Object.fromEntries(
  sortableVehicleFields.map((field) => [field.request, { column: field.column, nullable: sortsNullsLast(field) }]),
) as Record<SortField, { column: string; nullable: boolean }>;

/**
 * ORDER BY as the service writes it (src/db/vehicles/pageSql.ts), the same on both
 * databases: NULLS LAST on nullable columns, ties by id in the same direction.
 */
export function orderBy(query: Pick<ListQuery, "sortField" | "sortOrder">): string {
  if (!query.sortField) return `"id" ASC`;
  const { column, nullable } = sortColumns[query.sortField];
  const direction = query.sortOrder === "desc" ? "DESC" : "ASC";
  return `"${column}" ${direction}${nullable ? " NULLS LAST" : ""}, "id" ${direction}`;
}

/**
 * The total of a list, as the service counts it: with a search, a COUNT of the matches; without,
 * the network's vehicle_count kept by triggers. `placeholder(n)` is the dialect's n-th parameter.
 */
export function countSql(search: boolean, placeholder: (n: number) => string): string {
  return search
    ? `SELECT COUNT(*) FROM "vehicles" WHERE "network_id" = ${placeholder(1)} AND "search_text" LIKE ${placeholder(2)}`
    : `SELECT "vehicle_count" FROM "networks" WHERE "id" = ${placeholder(1)}`;
}

/**
 * A page of a list without a search and, from the same statement, the network's vehicle_count
 * (the last column), as the service reads it on PostgreSQL (selectVehiclePageWithState): one
 * statement where a count and a page took two. An empty page carries no count: ask countSql then.
 */
export function pageWithCountSql(orderBySql: string, placeholder: (n: number) => string): string {
  return `SELECT ${vehicleSelectList}, (SELECT "vehicle_count" FROM "networks" WHERE "id" = ${placeholder(1)}) FROM "vehicles" WHERE "network_id" = ${placeholder(1)} ORDER BY ${orderBySql} LIMIT ${placeholder(2)} OFFSET ${placeholder(3)}`;
}

/** The count a page of pageWithCountSql carries. */
export const countOfPage = (rows: unknown[][]): number | null => (rows.length > 0 ? Number(rows[0][vehicleColumns.length]) : null);

export interface KeyOwner {
  networkId: number;
  name: string;
  identifierType: string;
  /** The key's own end, and its revocation (at once or after a grace period), as the service's. */
  expiresAt: Date | null;
  revokedAt: Date | null;
}

export interface ListQuery {
  networkId: number;
  /** LIKE pattern (%needle%) on search_text, or null for no search. */
  pattern: string | null;
  sortField: SortField | null;
  sortOrder: SortOrder;
  limit: number;
  offset: number;
}

/** A stored vehicle with the raw updated_at the compare-and-set must match. */
export interface StoredVehicle {
  vehicle: VehicleJson;
  rawUpdatedAt: unknown;
}

/** Column name -> value, for INSERT and UPDATE. */
export type ColumnValues = Record<string, string | boolean | null>;

export interface ActiveUserJson {
  identifier: string;
  name: string;
  startedAt: string;
}

/** An officer of a page: its row as the service reads it (src/db/officers.ts), instants as ISO text. */
export interface OfficerRecord {
  id: number;
  identifier: string;
  name: string;
  createdAt: string;
  removedAt: string | null;
}

/** A dutytime entry as the service reads it (src/db/dutytime.ts), instants as ISO text. */
export interface EntryRecord {
  id: number;
  officerId: number;
  startedAt: string;
  endedAt: string | null;
  autoStopped: boolean;
}

/** The service's page of officers (src/db/officers.ts, officerPage without a search): its count, then its rows. Values: network id (, limit, offset). */
export const officerCountSql = (p: (n: number) => string) => `SELECT COUNT(*) AS total FROM officers o WHERE o.network_id = ${p(1)} AND o.removed_at IS NULL`;
export const officerPageSql = (p: (n: number) => string) =>
  `SELECT o.id, o.network_id, o.identifier, o.name, o.created_at, o.removed_at FROM officers o WHERE o.network_id = ${p(1)} AND o.removed_at IS NULL ORDER BY o.name, o.id LIMIT ${p(2)} OFFSET ${p(3)}`;

const entryColumns = "d.id, d.officer_id, d.started_at, d.ended_at, d.auto_stopped";

/** The service's open entries of a page's officers (src/db/dutytime.ts, openEntries). Values: network id, then the officer ids. */
export const openEntriesSql = (p: (n: number) => string, officers: number) =>
  `SELECT ${entryColumns} FROM dutytime_entries d WHERE d.network_id = ${p(1)} AND d.ended_at IS NULL AND d.officer_id IN (${Array.from({ length: officers }, (_, i) => p(i + 2)).join(", ")})`;

/** Every officer of the network, as a report names them (src/db/officers.ts, reportOfficers). Value: network id. Columns: id, identifier, name, removed_at. */
export const reportOfficersSql = (p: (n: number) => string) => `SELECT o.id, o.identifier, o.name, o.removed_at FROM officers o WHERE o.network_id = ${p(1)}`;

export interface Store {
  keyOwner(hash: string): Promise<KeyOwner | null>;
  listVehicles(query: ListQuery): Promise<{ total: number; rows: VehicleJson[] }>;
  findVehicle(networkId: number, id: number): Promise<StoredVehicle | null>;
  createVehicle(networkId: number, values: ColumnValues, now: Date): Promise<VehicleJson>;
  /** Compare-and-set on updated_at: true when the row was updated. */
  updateVehicle(networkId: number, id: number, values: ColumnValues, updatedAt: Date, expected: unknown): Promise<boolean>;
  officerId(networkId: number, identifier: string): Promise<number | null>;
  stopOpenEntries(networkId: number, officerId: number, now: Date): Promise<number>;
  /** false when the one-open-entry index refused the start (a concurrent start won). */
  startEntry(networkId: number, officerId: number, now: Date): Promise<boolean>;
  activeUsers(networkId: number): Promise<ActiveUserJson[]>;
  /** Some record tables' total (kept on the network's row, as the service reads it), or the count of those created at or after `since`: one statement. */
  countRecords(tables: RecordTable[], networkId: number, since: Date | null): Promise<number>;
  /** The network's officers (not removed) by name, and their total: two statements side by side. */
  officerPage(networkId: number, limit: number, offset: number): Promise<{ total: number; rows: OfficerRecord[] }>;
  openEntries(networkId: number, officerIds: number[]): Promise<EntryRecord[]>;
  /** The report's entries, read with the service's own statement (src/db/reportEntriesRead.ts). */
  entriesMeeting(networkId: number, from: Date, to: Date): Promise<ReportEntries>;
  reportOfficers(networkId: number): Promise<ReportOfficer[]>;
  close(): Promise<void>;
}

export async function openStore(url: string, poolSize: number): Promise<Store> {
  if (providerOf(url) === "sqlite") return (await import("./sqliteStore")).openSqliteStore(url);
  return (await import("./postgresStore")).openPostgresStore(url, poolSize);
}

export type RecordTable = "mission_reports" | "patient_files" | "offender_files";

/** The service's total of some record tables (src/resolvers/statistics.ts): their kept counts, summed. Value: network id. */
export const recordTotalSql = (tables: RecordTable[], placeholder: (n: number) => string) =>
  `SELECT ${tables.map((table) => `"${recordCountColumn[table]}"`).join(" + ")} FROM "networks" WHERE "id" = ${placeholder(1)}`;

/**
 * The service's count of some record tables' records created since an instant, in one statement
 * (src/resolvers/statistics.ts): kept hour counts from the next whole hour on, plus each table's
 * records of the partial hour before it. Values: createdSinceValues.
 */
export const createdSinceSql = (tables: RecordTable[], placeholder: (n: number) => string) =>
  `SELECT COALESCE((SELECT SUM("count") FROM "record_hour_counts" WHERE "network_id" = ${placeholder(1)} AND "table_name" IN (${tables.map((table) => `'${table}'`).join(", ")}) AND "hour" >= ${placeholder(2)}), 0)` +
  tables
    .map((table, i) => ` + (SELECT COUNT(*) FROM "${table}" WHERE "network_id" = ${placeholder(3 + 3 * i)} AND "created_at" >= ${placeholder(4 + 3 * i)} AND "created_at" < ${placeholder(5 + 3 * i)})`)
    .join("");

/** createdSinceSql's values: network id, next whole hour, then network id, since, next whole hour per table. */
export const createdSinceValues = <Instant>(tables: RecordTable[], networkId: number, since: Instant, wholeHours: Instant) => [
  networkId,
  wholeHours,
  ...tables.flatMap(() => [networkId, since, wholeHours]),
];

/** The network's column that triggers keep at each record table's number of rows (migration *_network_record_counts). */
export const recordCountColumn = {
  mission_reports: "mission_report_count",
  patient_files: "patient_file_count",
  offender_files: "offender_file_count",
} as const;
