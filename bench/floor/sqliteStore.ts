// The floor's SQLite queries through @libsql/client, the driver under the service's Prisma
// adapter. That client prepares every statement anew; the floor keeps each connection's
// prepared statements by SQL text and runs them again (as src/db/sqliteAdapter.ts does for the
// service), so a request only binds and steps.
import { createClient, type Client, type InValue } from "@libsql/client";
import type { ColumnValues, ListQuery, Store } from "./store";
import { countSql, orderBy } from "./store";
import { vehicleJson, vehicleSelectList, type VehicleRow } from "./vehicleJson";

/** Prisma's libSQL adapter stores instants as ISO text with "+00:00" (and compares that text). */
const toSqlite = (date: Date) => date.toISOString().slice(0, 23) + "+00:00";

function fromSqlite(value: unknown): string {
  if (typeof value === "string" && value.length === 29 && value.endsWith("+00:00")) return value.slice(0, 23) + "Z";
  return new Date(value as string | number).toISOString();
}

interface Statement {
  columns(): unknown[];
}

/**
 * libsql's Database.prepare, answered from a per-connection cache of statements by SQL text;
 * a kept statement remembers its result columns (the client asks twice per run, natively).
 */
function cachePreparedStatements(): void {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const Database = require("libsql") as { prototype: { prepare(sql: string): Statement } };
  const prepare = Database.prototype.prepare as ((sql: string) => unknown) & { floorCache?: boolean; cached?: boolean };
  if (prepare.floorCache || prepare.cached) return;
  const caches = new WeakMap<object, Map<string, Statement>>();
  const rememberColumns = (statement: Statement) => {
    const columns = statement.columns.bind(statement);
    let known: unknown[] | undefined;
    statement.columns = () => (known ??= columns());
    return statement;
  };
  Database.prototype.prepare = Object.assign(
    function (this: object, sql: string) {
      let cache = caches.get(this);
      if (!cache) caches.set(this, (cache = new Map()));
      let statement = cache.get(sql);
      if (statement === undefined) {
        // PATCH writes a statement per set of changed columns: bound the cache all the same.
        if (cache.size >= 500) cache.clear();
        cache.set(sql, (statement = rememberColumns(prepare.call(this, sql) as Statement)));
      }
      return statement;
    },
    { floorCache: true },
  );
}

const isUniqueViolation = (error: unknown) => /^SQLITE_CONSTRAINT/.test(String((error as { code?: unknown }).code));

export async function openSqliteStore(url: string): Promise<Store> {
  cachePreparedStatements();
  const client: Client = createClient({ url });
  await client.execute("PRAGMA busy_timeout = 5000");
  const run = (sql: string, args: InValue[]) => client.execute({ sql, args });
  const listSql = new Map<string, { count: string; page: string }>();

  return {
    async keyOwner(hash) {
      const { rows } = await run(
        `SELECT k."expires_at", n."id", n."name", n."identifier_type" FROM "api_keys" k JOIN "networks" n ON n."id" = k."network_id" WHERE k."hash" = ?`,
        [hash],
      );
      if (rows.length === 0) return null;
      const row = rows[0];
      return {
        expiresAt: row[0] === null ? null : new Date(fromSqlite(row[0])),
        networkId: Number(row[1]),
        name: String(row[2]),
        identifierType: String(row[3]),
      };
    },

    async listVehicles(query) {
      const key = `${query.sortField}:${query.sortOrder}:${query.pattern !== null}`;
      let sql = listSql.get(key);
      if (!sql) {
        const where = `"network_id" = ?${query.pattern !== null ? ` AND "search_text" LIKE ?` : ""}`;
        sql = {
          count: countSql(query.pattern !== null, () => "?"),
          page: `SELECT ${vehicleSelectList} FROM "vehicles" WHERE ${where} ORDER BY ${orderBy(query)} LIMIT ? OFFSET ?`,
        };
        listSql.set(key, sql);
      }
      const where: InValue[] = query.pattern !== null ? [query.networkId, query.pattern] : [query.networkId];
      const count = await run(sql.count, query.pattern !== null ? where : [query.networkId]);
      const page = await run(sql.page, [...where, query.limit, query.offset]);
      return { total: Number(count.rows[0][0]), rows: page.rows.map((row) => vehicleJson(row as VehicleRow, fromSqlite)) };
    },

    async findVehicle(networkId, id) {
      const { rows } = await run(`SELECT ${vehicleSelectList} FROM "vehicles" WHERE "id" = ? AND "network_id" = ?`, [id, networkId]);
      if (rows.length === 0) return null;
      return { vehicle: vehicleJson(rows[0] as VehicleRow, fromSqlite), rawUpdatedAt: rows[0][13] };
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
      const { rows } = await run(`SELECT "id" FROM "officers" WHERE "network_id" = ? AND "identifier" = ?`, [networkId, identifier]);
      return rows.length === 0 ? null : Number(rows[0][0]);
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

    async countRecords(table, networkId, since) {
      const { rows } =
        since === null
          ? await run(`SELECT COUNT(*) FROM "${table}" WHERE "network_id" = ?`, [networkId])
          : await run(`SELECT COUNT(*) FROM "${table}" WHERE "network_id" = ? AND "created_at" >= ?`, [networkId, toSqlite(since)]);
      return Number(rows[0][0]);
    },

    async close() {
      client.close();
    },
  };
}
