// The floor's SQLite queries, straight on libsql, the driver the service reads with
// (src/db/sqlite/reads.ts): prepared statements kept by SQL text, rows as arrays (raw mode), no
// client library between. A request only binds and steps.
import Database from "libsql";
import type { Store } from "./store";
import { reportEntriesOf, reportEntriesSql, type ReportEntriesText } from "../../src/db/reportEntriesRead";
import { countSql, createdSinceSql, createdSinceValues, reportOfficersSql, officerCountSql, officerPageSql, openEntriesSql, recordTotalSql, orderBy } from "./store";
import { nextWholeHour } from "../../src/db/recordCounts";
import { rawUpdatedAt, vehicleJson, vehicleSelectList, type VehicleRow } from "./vehicleJson";
import { planSearch, readRows, type SqliteSearchSource as SearchSource } from "../../src/db/sqlite/searchPlan";
import { ftsPhrase, sqliteNetworkIdIndex } from "../../src/db/sqlite/searchCandidates";
import { keyedNeedle, needleKeysQuery } from "../../src/db/vehicles/searchKeys";
import type { ReadSql, SqlQuery } from "../../src/db/adapterReads";
import { readCacheKib } from "../../src/db/sqlite/reads";

type InValue = string | number | boolean | null;

/** libsql binds no booleans (the client library turned them into 0/1). */
const bindable = (value: InValue) => (typeof value === "boolean" ? Number(value) : value);

/** Prisma's libSQL adapter stores instants as ISO text with "+00:00" (and compares that text). */
const toSqlite = (date: Date) => date.toISOString().slice(0, 23) + "+00:00";

function fromSqlite(value: unknown): string {
  if (typeof value === "string" && value.length === 29 && value.endsWith("+00:00")) return value.slice(0, 23) + "Z";
  return new Date(value as string | number).toISOString();
}

type Statement = ReturnType<Database.Database["prepare"]>;

/** A statement's rows (as arrays) and the rows it changed. */
interface RunResult {
  rows: unknown[][];
  rowsAffected: number;
}

const isUniqueViolation = (error: unknown) => /^SQLITE_CONSTRAINT/.test(String((error as { code?: unknown }).code));

export async function openSqliteStore(url: string): Promise<Store> {
  const connection = new Database(url.replace(/^file:/, ""));
  connection.prepare("PRAGMA busy_timeout = 5000").all();
  // The service's read connection's page cache (src/db/sqlite/reads.ts).
  connection.prepare(`PRAGMA cache_size = -${readCacheKib}`).all();
  const statements = new Map<string, Statement>();
  const prepared = (sql: string) => {
    let statement = statements.get(sql);
    if (statement === undefined) {
      // PATCH writes a statement per set of changed columns: bound the cache all the same.
      if (statements.size >= 500) statements.clear();
      statements.set(sql, (statement = connection.prepare(sql)));
      if (statement.reader) statement.raw(true);
    }
    return statement;
  };
  const run = async (sql: string, args: InValue[]): Promise<RunResult> => {
    const statement = prepared(sql);
    const values = args.map(bindable);
    if (statement.reader) return { rows: statement.all(values) as unknown[][], rowsAffected: 0 };
    return { rows: [], rowsAffected: statement.run(values).changes };
  };
  /** The first row of a read that answers at most one, stepped once as the service does (src/db/sqlite/reads.ts). */
  const first = async (sql: string, args: InValue[]): Promise<unknown[] | undefined> =>
    prepared(sql).get(args.map(bindable)) as unknown[] | undefined;
  /** Rows by column name, for the service's search plan (src/db/sqlite/searchPlan.ts). */
  const readAll = async <Row>(query: SqlQuery): Promise<Row[]> => {
    const names = prepared(query.sql).columns().map((column) => column.name);
    const { rows } = await run(query.sql, query.values as InValue[]);
    return rows.map((row) => Object.fromEntries(names.map((name, i) => [name, row[i]])) as Row);
  };
  const firstObject = async <Row>(query: SqlQuery) => (await readAll<Row>(query))[0];
  const readTable = async (query: SqlQuery) => ({
    columns: prepared(query.sql).columns().map((column) => column.name),
    rows: (await run(query.sql, query.values as InValue[])).rows,
  });
  const keyTable = async (query: SqlQuery) => {
    const { columns, rows } = await readTable(query);
    return { columns, rows: rows.slice(0, 1) };
  };
  const readObjects: ReadSql = Object.assign(readAll, { first: firstObject, byKey: firstObject, keyTable, page: readTable });

  return {
    async keyOwner(hash) {
      const row = await first(
        `SELECT k."expires_at", k."revoked_at", n."id", n."name", n."identifier_type" FROM "api_keys" k JOIN "networks" n ON n."id" = k."network_id" WHERE k."hash" = ?`,
        [hash],
      );
      if (!row) return null;
      return {
        expiresAt: row[0] === null ? null : new Date(fromSqlite(row[0])),
        revokedAt: row[1] === null ? null : new Date(fromSqlite(row[1])),
        networkId: Number(row[2]),
        name: String(row[3]),
        identifierType: String(row[4]),
      };
    },

    async listVehicles(query) {
      // As the service: candidates from the trigram index when the service's plan says so.
      const needle = query.pattern === null ? null : query.pattern.slice(1, -1);
      const filter = { networkId: query.networkId, needle, trigramIndex: true };
      let networkVehicles = 0;
      if (needle !== null) {
        const network = await first(`SELECT "vehicle_count" FROM "networks" WHERE "id" = ?`, [query.networkId]);
        networkVehicles = Number(network?.[0] ?? 0);
      }
      // A needle with keys asks the network's own keys (vehicle_search_keys), whose rows are the network's.
      const keyed = needle !== null && keyedNeedle(needle);
      const candidates = (source: SearchSource) =>
        source.kind === "index"
          ? keyed
            ? `SELECT rowid FROM "vehicle_search_keys" WHERE "vehicle_search_keys" MATCH ?`
            : `SELECT rowid FROM "vehicles_search" WHERE "vehicles_search" MATCH ?`
          : source.kind === "candidates"
            ? `SELECT value FROM json_each(?)`
            : null;
      const networkCandidates = (among: string) =>
        keyed ? among : `SELECT "id" FROM "vehicles" INDEXED BY "${sqliteNetworkIdIndex}" WHERE "network_id" = ? AND "id" IN (${among})`;
      const where = (source: SearchSource) => {
        const among = candidates(source);
        return `"network_id" = ?${among ? ` AND "id" IN (${networkCandidates(among)})` : ""}${query.pattern !== null ? ` AND "search_text" LIKE ?` : ""}`;
      };
      const candidatesArg = (source: SearchSource) =>
        source.kind === "candidates" ? JSON.stringify(source.ids) : keyed ? needleKeysQuery(query.networkId, needle!) : ftsPhrase(needle!);
      const args = (source: SearchSource): InValue[] =>
        query.pattern === null
          ? [query.networkId]
          : source.kind === "rows"
            ? [query.networkId, query.pattern]
            : [query.networkId, ...(keyed ? [] : [query.networkId]), candidatesArg(source), query.pattern];
      const page = { pageEnd: query.offset + query.limit, idOrder: query.sortField === null };
      const countSource = needle === null ? readRows : await planSearch(readObjects, filter, null, networkVehicles, page);
      const count = await run(query.pattern !== null ? `SELECT COUNT(*) FROM "vehicles" WHERE ${where(countSource)}` : countSql(false, () => "?"), args(countSource));
      const total = Number(count.rows[0][0]);
      const pageSource = needle === null ? readRows : await planSearch(readObjects, filter, total, networkVehicles, page);
      const found = await run(`SELECT ${vehicleSelectList} FROM "vehicles" WHERE ${where(pageSource)} ORDER BY ${orderBy(query)} LIMIT ? OFFSET ?`, [
        ...args(pageSource),
        query.limit,
        query.offset,
      ]);
      return { total, rows: found.rows.map((row) => vehicleJson(row as VehicleRow, fromSqlite)) };
    },

    async findVehicle(networkId, id) {
      const row = await first(`SELECT ${vehicleSelectList} FROM "vehicles" WHERE "id" = ? AND "network_id" = ?`, [id, networkId]);
      if (!row) return null;
      return { vehicle: vehicleJson(row as VehicleRow, fromSqlite), rawUpdatedAt: rawUpdatedAt(row as VehicleRow) };
    },

    async createVehicle(networkId, values, now) {
      const columns = Object.keys(values);
      const at = toSqlite(now);
      const { rows } = await run(
        `INSERT INTO "vehicles" ("network_id", ${columns.map((c) => `"${c}"`).join(", ")}, "created_at", "updated_at") VALUES (?, ${columns.map(() => "?").join(", ")}, ?, ?) RETURNING ${vehicleSelectList}`,
        [networkId, ...columns.map((c) => values[c]), at, at],
      );
      return vehicleJson(rows[0] as VehicleRow, fromSqlite);
    },

    async updateVehicle(networkId, id, values, updatedAt, expected) {
      const columns = Object.keys(values);
      const result = await run(
        `UPDATE "vehicles" SET ${columns.map((c) => `"${c}" = ?`).join(", ")}, "updated_at" = ? WHERE "id" = ? AND "network_id" = ? AND "updated_at" = ?`,
        [...columns.map((c) => values[c]), toSqlite(updatedAt), id, networkId, expected as InValue],
      );
      return result.rowsAffected === 1;
    },

    async officerId(networkId, identifier) {
      const row = await first(`SELECT "id" FROM "officers" WHERE "network_id" = ? AND "identifier" = ?`, [networkId, identifier]);
      return row ? Number(row[0]) : null;
    },

    async stopOpenEntries(networkId, officerId, now) {
      const result = await run(
        `UPDATE "dutytime_entries" SET "ended_at" = ? WHERE "officer_id" = ? AND "network_id" = ? AND "ended_at" IS NULL`,
        [toSqlite(now), officerId, networkId],
      );
      return result.rowsAffected;
    },

    async startEntry(networkId, officerId, now) {
      try {
        await run(`INSERT INTO "dutytime_entries" ("network_id", "officer_id", "started_at") VALUES (?, ?, ?)`, [networkId, officerId, toSqlite(now)]);
        return true;
      } catch (error) {
        if (isUniqueViolation(error)) return false;
        throw error;
      }
    },

    async activeUsers(networkId) {
      const { rows } = await run(
        `SELECT o."identifier", o."name", d."started_at" FROM "dutytime_entries" d JOIN "officers" o ON o."id" = d."officer_id"
          WHERE d."network_id" = ? AND d."ended_at" IS NULL ORDER BY d."started_at" ASC, d."id" ASC`,
        [networkId],
      );
      return rows.map((row) => ({ identifier: String(row[0]), name: String(row[1]), startedAt: fromSqlite(row[2]) }));
    },

    async countRecords(tables, networkId, since) {
      const row =
        since === null
          ? await first(recordTotalSql(tables, () => "?"), [networkId])
          : await first(createdSinceSql(tables, () => "?"), createdSinceValues(tables, networkId, toSqlite(since), toSqlite(nextWholeHour(since))));
      return Number(row?.[0] ?? 0);
    },

    async officerPage(networkId, limit, offset) {
      const [count, page] = await Promise.all([first(officerCountSql(() => "?"), [networkId]), run(officerPageSql(() => "?"), [networkId, limit, offset])]);
      const rows = page.rows.map((row) => ({
        id: Number(row[0]),
        identifier: String(row[2]),
        name: String(row[3]),
        createdAt: fromSqlite(row[4]),
        removedAt: row[5] === null ? null : fromSqlite(row[5]),
      }));
      return { total: Number(count?.[0] ?? 0), rows };
    },

    async openEntries(networkId, officerIds) {
      if (officerIds.length === 0) return [];
      const { rows } = await run(openEntriesSql(() => "?", officerIds.length), [networkId, ...officerIds]);
      return rows.map((row) => ({
        id: Number(row[0]),
        officerId: Number(row[1]),
        startedAt: fromSqlite(row[2]),
        endedAt: row[3] === null ? null : fromSqlite(row[3]),
        autoStopped: Number(row[4]) === 1,
      }));
    },

    async entriesMeeting(networkId, from, to) {
      const statement = reportEntriesSql("sqlite", networkId, from, to, null);
      const { rows } = await run(statement.sql, statement.values.map((value) => (value instanceof Date ? toSqlite(value) : (value as InValue))));
      return reportEntriesOf(rows.map((row) => row[0] as ReportEntriesText));
    },

    async reportOfficers(networkId) {
      const { rows } = await run(reportOfficersSql(() => "?"), [networkId]);
      return rows.map((row) => ({ id: Number(row[0]), identifier: String(row[1]), name: String(row[2]), removed: row[3] !== null }));
    },

    async close() {
      connection.close();
    },
  };
}
