// The floor's PostgreSQL queries through a pg Pool (the driver under the service's adapter),
// as named prepared statements where the service names its own (src/db/postgres/preparingPool.ts):
// each connection parses such a text once and PostgreSQL may keep its plan.
import { Pool, types, type QueryArrayResult } from "pg";
import type { Store } from "./store";
import { reportEntriesOf, reportEntriesSql, type ReportEntriesText } from "../../src/db/reportEntriesRead";
import { countOfPage, countSql, createdSinceSql, createdSinceValues, reportOfficersSql, officerCountSql, officerPageSql, openEntriesSql, pageWithCountSql, recordTotalSql, orderBy } from "./store";
import { nextWholeHour } from "../../src/db/recordCounts";
import { rawUpdatedAt, vehicleJson, vehicleSelectList } from "./vehicleJson";
import { planPostgresSearch } from "../../src/db/postgres/searchPlan";
import { keyedNeedle, needleKeys } from "../../src/db/vehicles/searchKeys";
import { planIsStable } from "../../src/db/postgres/preparingPool";
import { ArrayRowsQuery, runArrayRows } from "../../src/db/postgres/pgInternals";
import { PipelinedConnection } from "../../src/db/postgres/pipelinedConnection";

const TIMESTAMP_OID = 1114;
const INT8_OID = 20;

/** timestamp(3) holds UTC wall-clock time (as Prisma writes it); pg's own parser would read local time. */
function fromPostgres(text: unknown): string {
  const value = String(text);
  if (value.length === 23) return `${value.slice(0, 10)}T${value.slice(11)}Z`;
  return new Date(value.replace(" ", "T") + "Z").toISOString();
}

/** pg's parsers, except timestamps (kept as text, see above) and COUNT's int8 (a number). */
function parserOf(oid: number, format?: "text" | "binary"): (text: string) => unknown {
  if (oid === TIMESTAMP_OID) return (text) => text;
  if (oid === INT8_OID) return (text) => Number(text);
  return types.getTypeParser(oid, format as "text");
}

const typeParsers = { getTypeParser: parserOf as (oid: number, format?: string) => (text: string) => unknown };

export async function openPostgresStore(url: string, poolSize: number): Promise<Store> {
  const config = {
    connectionString: url,
    max: poolSize,
    // The service's pool settings (src/db/postgres/connect.ts).
    connectionTimeoutMillis: 5000,
    statement_timeout: 10_000,
    idleTimeoutMillis: 0,
    keepAlive: true,
    // random_page_cost as the service's (src/db/postgres/connect.ts).
    options: "-c random_page_cost=1.1",
    types: typeParsers as typeof types,
  };
  const pool = new Pool(config);
  // The service runs a named page with its generic plan (src/db/postgres/preparingPool.ts,
  // runWithGenericPlan): the floor's named pages run on connections of their own set so.
  const pagePool = new Pool({ ...config, options: `${config.options} -c plan_cache_mode=force_generic_plan` });
  // The service's reads by key share a pipelined connection (src/db/postgres/pipelinedConnection.ts).
  const pipelined = new PipelinedConnection(config);

  const names = new Map<string, string>();
  /** A named statement per distinct text: prepared once per connection, then only bound. */
  const queryOf = (text: string, values: unknown[]) => {
    let name = names.get(text);
    // The service's rule: a LIKE search is planned with its term every time. PATCH writes a
    // statement per set of changed columns: past 500 texts, new ones run unnamed.
    if (!name && names.size < 500 && planIsStable(text)) names.set(text, (name = `floor_${names.size + 1}`));
    // The service's way of running a read (src/db/postgres/pgInternals.ts).
    return new ArrayRowsQuery(text, name, values, typeParsers);
  };
  const run = (text: string, values: unknown[]): Promise<QueryArrayResult<unknown[]>> => runArrayRows(pool, queryOf(text, values));
  /** A page (ReadSql.page): named, with its generic plan; unnamed, planned with its values. */
  const runPage = (text: string, values: unknown[]): Promise<QueryArrayResult<unknown[]>> => {
    const query = queryOf(text, values);
    return runArrayRows((query as { name?: string }).name ? pagePool : pool, query);
  };
  /** A read of the row a key names, where the service reads it by key (ReadSql.byKey). */
  const runByKey = (text: string, values: unknown[]): Promise<QueryArrayResult<unknown[]>> => pipelined.query(queryOf(text, values));
  const instant = (date: Date) => date.toISOString();

  return {
    async keyOwner(hash) {
      const { rows } = await runByKey(
        `SELECT k."expires_at", k."revoked_at", n."id", n."name", n."identifier_type" FROM "api_keys" k JOIN "networks" n ON n."id" = k."network_id" WHERE k."hash" = $1`,
        [hash],
      );
      if (rows.length === 0) return null;
      const row = rows[0];
      return {
        expiresAt: row[0] === null ? null : new Date(fromPostgres(row[0])),
        revokedAt: row[1] === null ? null : new Date(fromPostgres(row[1])),
        networkId: Number(row[2]),
        name: String(row[3]),
        identifierType: String(row[4]),
      };
    },

    async listVehicles(query) {
      if (query.pattern === null) {
        const page = await runPage(pageWithCountSql(orderBy(query), (n) => `$${n}`), [query.networkId, query.limit, query.offset]);
        const total = countOfPage(page.rows) ?? Number((await runByKey(countSql(false, (n) => `$${n}`), [query.networkId])).rows[0]?.[0] ?? 0);
        return { total, rows: page.rows.map((row) => vehicleJson(row, fromPostgres)) };
      }
      // A search reads its page as the service plans it (src/db/postgres/searchPlan.ts),
      // from the count of its matches; a needle with keys is counted and gathered through the
      // network's own trigram keys, as the service gathers it (src/db/postgres/pageRows.ts).
      const needle = query.pattern.slice(1, -1);
      const keyed = keyedNeedle(needle);
      const matching = (keys: string) =>
        keyed
          ? `vehicle_search_keys("network_id", "search_text") @> string_to_array(${keys}, ' ') AND "network_id" + 0 = $1 AND strpos("search_text", $2) > 0`
          : `"network_id" = $1 AND "search_text" LIKE $2`;
      const matched = [query.networkId, keyed ? needle : query.pattern];
      const keys = keyed ? [needleKeys(query.networkId, needle)] : [];
      const [count, network] = await Promise.all([
        run(`SELECT COUNT(*) FROM "vehicles" WHERE ${matching("$3")}`, [...matched, ...keys]),
        runByKey(countSql(false, (n) => `$${n}`), [query.networkId]),
      ]);
      const total = Number(count.rows[0][0]);
      const source = planPostgresSearch(needle, total, Number(network.rows[0]?.[0] ?? 0), query.offset + query.limit);
      const gathered = source.kind === "matches" || source.kind === "keyedMatches";
      const rows = gathered
        ? `WITH found AS MATERIALIZED (SELECT ${vehicleSelectList} FROM "vehicles" WHERE ${matching("$5")}) SELECT * FROM found`
        : `SELECT ${vehicleSelectList} FROM "vehicles" WHERE "network_id" = $1 AND strpos("search_text", $2) > 0`;
      const params = gathered ? [...matched, query.limit, query.offset, ...keys] : [query.networkId, needle, query.limit, query.offset];
      const page = await runPage(`${rows} ORDER BY ${orderBy(query)} LIMIT $3 OFFSET $4`, params);
      return { total, rows: page.rows.map((row) => vehicleJson(row, fromPostgres)) };
    },

    async findVehicle(networkId, id) {
      const { rows } = await runByKey(`SELECT ${vehicleSelectList} FROM "vehicles" WHERE "id" = $1 AND "network_id" = $2`, [id, networkId]);
      if (rows.length === 0) return null;
      const row = rows[0];
      return { vehicle: vehicleJson(row, fromPostgres), rawUpdatedAt: fromPostgres(rawUpdatedAt(row)) };
    },

    async createVehicle(networkId, values, now) {
      const columns = Object.keys(values);
      const at = instant(now);
      const placeholders = columns.map((_, i) => `$${i + 2}`).join(", ");
      const { rows } = await run(
        `INSERT INTO "vehicles" ("network_id", ${columns.map((c) => `"${c}"`).join(", ")}, "created_at", "updated_at") VALUES ($1, ${placeholders}, $${columns.length + 2}, $${columns.length + 3}) RETURNING ${vehicleSelectList}`,
        [networkId, ...columns.map((c) => values[c]), at, at],
      );
      return vehicleJson(rows[0], fromPostgres);
    },

    async updateVehicle(networkId, id, values, updatedAt, expected) {
      const columns = Object.keys(values);
      const n = columns.length;
      const result = await run(
        `UPDATE "vehicles" SET ${columns.map((c, i) => `"${c}" = $${i + 1}`).join(", ")}, "updated_at" = $${n + 1} WHERE "id" = $${n + 2} AND "network_id" = $${n + 3} AND "updated_at" = $${n + 4}`,
        [...columns.map((c) => values[c]), instant(updatedAt), id, networkId, expected],
      );
      return result.rowCount === 1;
    },

    async officerId(networkId, identifier) {
      const { rows } = await runByKey(`SELECT "id" FROM "officers" WHERE "network_id" = $1 AND "identifier" = $2`, [networkId, identifier]);
      return rows.length === 0 ? null : Number(rows[0][0]);
    },

    async stopOpenEntries(networkId, officerId, now) {
      const result = await run(
        `UPDATE "dutytime_entries" SET "ended_at" = $1 WHERE "officer_id" = $2 AND "network_id" = $3 AND "ended_at" IS NULL`,
        [instant(now), officerId, networkId],
      );
      return result.rowCount ?? 0;
    },

    async startEntry(networkId, officerId, now) {
      try {
        await run(`INSERT INTO "dutytime_entries" ("network_id", "officer_id", "started_at") VALUES ($1, $2, $3)`, [networkId, officerId, instant(now)]);
        return true;
      } catch (error) {
        if ((error as { code?: string }).code === "23505") return false;
        throw error;
      }
    },

    async activeUsers(networkId) {
      const { rows } = await run(
        `SELECT o."identifier", o."name", d."started_at" FROM "dutytime_entries" d JOIN "officers" o ON o."id" = d."officer_id"
          WHERE d."network_id" = $1 AND d."ended_at" IS NULL ORDER BY d."started_at" ASC, d."id" ASC`,
        [networkId],
      );
      return rows.map((row) => ({ identifier: String(row[0]), name: String(row[1]), startedAt: fromPostgres(row[2]) }));
    },

    async countRecords(tables, networkId, since) {
      const { rows } =
        since === null
          ? await runByKey(recordTotalSql(tables, (n) => `$${n}`), [networkId])
          : await run(createdSinceSql(tables, (n) => `$${n}`), createdSinceValues(tables, networkId, instant(since), instant(nextWholeHour(since))));
      return Number(rows[0][0]);
    },

    async officerPage(networkId, limit, offset) {
      const p = (n: number) => `$${n}`;
      const [count, page] = await Promise.all([run(officerCountSql(p), [networkId]), run(officerPageSql(p), [networkId, limit, offset])]);
      const rows = page.rows.map((row) => ({
        id: Number(row[0]),
        identifier: String(row[2]),
        name: String(row[3]),
        createdAt: fromPostgres(row[4]),
        removedAt: row[5] === null ? null : fromPostgres(row[5]),
      }));
      return { total: Number(count.rows[0]?.[0] ?? 0), rows };
    },

    async openEntries(networkId, officerIds) {
      if (officerIds.length === 0) return [];
      const { rows } = await run(openEntriesSql((n) => `$${n}`, officerIds.length), [networkId, ...officerIds]);
      return rows.map((row) => ({
        id: Number(row[0]),
        officerId: Number(row[1]),
        startedAt: fromPostgres(row[2]),
        endedAt: row[3] === null ? null : fromPostgres(row[3]),
        autoStopped: row[4] === true,
      }));
    },

    async entriesMeeting(networkId, from, to) {
      const statement = reportEntriesSql("postgresql", networkId, from, to, null);
      const { rows } = await run(statement.text, statement.values.map((value) => (value instanceof Date ? instant(value) : value)));
      return reportEntriesOf(rows.map((row) => row[0] as ReportEntriesText));
    },

    async reportOfficers(networkId) {
      const { rows } = await run(reportOfficersSql((n) => `$${n}`), [networkId]);
      return rows.map((row) => ({ id: Number(row[0]), identifier: String(row[1]), name: String(row[2]), removed: row[3] !== null }));
    },

    async close() {
      await pool.end();
      await pagePool.end();
      await pipelined.end();
    },
  };
}
