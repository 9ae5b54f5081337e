// SQLite bulk load through @libsql/client (the service's driver): multi-row INSERTs inside one
// transaction per chunk, fsync off for the load, indexes (and known count triggers) rebuilt after
// the data.
// The journal stays in WAL: leaving it needs the only connection to the file, and the service's
// migration runner leaves one open in this process (a @libsql/client transaction keeps its
// connection after commit until garbage collection).
import { createClient, type Client, type InArgs } from "@libsql/client";
import { derivedData, rebuildSql, warnActiveTriggers } from "./derivedData";
import type { TableSpec } from "./tables";
import { secondsSince, type Sink } from "./sink";

/**
 * SQLite allows 32766 parameters per statement: 500 rows a statement, fewer when a table's
 * columns (the vehicles' come from the field table) would pass that.
 */
const rowsPerStatement = (table: TableSpec) => Math.min(500, Math.floor(32766 / table.columns.length));

/** The libSQL adapter of Prisma stores instants as ISO text with "+00:00"; search and CAS compare that text. */
export const sqliteInstant = (ms: number) => new Date(ms).toISOString().slice(0, 23) + "+00:00";

export async function openSqliteSink(url: string): Promise<Sink> {
  const client: Client = createClient({ url });
  const droppedIndexes: Array<{ name: string; sql: string }> = [];
  const droppedTriggers: Array<{ name: string; sql: string }> = [];
  const rebuilds: string[] = [];
  const statements = new Map<string, string>();

  /** INSERT text for `count` rows of a table, built once per shape. */
  const insertSql = (table: TableSpec, count: number) => {
    const key = `${table.name}:${count}`;
    let sql = statements.get(key);
    if (!sql) {
      const row = `(${table.columns.map(() => "?").join(",")})`;
      sql = `INSERT INTO "${table.name}" (${table.columns.map(([c]) => `"${c}"`).join(",")}) VALUES ${Array(count).fill(row).join(",")}`;
      statements.set(key, sql);
    }
    return sql;
  };

  return {
    chunkRows: 20_000,

    async checkFresh() {
      const { rows } = await client.execute("SELECT COUNT(*) AS n FROM networks");
      if (Number(rows[0].n) > 0) throw new Error("the database already holds networks; the seed fills a fresh database only");
    },

    async beginLoad(bulkTables) {
      // No fsync: a fresh database that crashes mid-seed is simply seeded again.
      await client.execute("PRAGMA synchronous = OFF");
      // 256 MiB of page cache; index builds spill their sorts to temporary files, not to memory.
      await client.execute("PRAGMA cache_size = -262144");
      const names = bulkTables.map((t) => `'${t.name}'`).join(",");
      const { rows } = await client.execute(
        `SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND tbl_name IN (${names}) AND sql NOT LIKE 'CREATE UNIQUE%'`,
      );
      for (const row of rows) {
        droppedIndexes.push({ name: String(row.name), sql: String(row.sql) });
        await client.execute(`DROP INDEX "${row.name}"`);
      }
      const triggers = await client.execute(`SELECT name, tbl_name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name IN (${names})`);
      const known = new Map(derivedData.flatMap((d) => d.triggers.sqlite.map((name) => [name, d] as const)));
      const unknown: Array<{ table: string; name: string }> = [];
      for (const row of triggers.rows) {
        const derived = known.get(String(row.name));
        if (!derived) {
          unknown.push({ table: String(row.tbl_name), name: String(row.name) });
          continue;
        }
        droppedTriggers.push({ name: String(row.name), sql: String(row.sql) });
        if (!rebuilds.includes(rebuildSql(derived, "sqlite"))) rebuilds.push(rebuildSql(derived, "sqlite"));
        await client.execute(`DROP TRIGGER "${row.name}"`);
      }
      warnActiveTriggers(unknown);
    },

    async insert(table, rows) {
      const kinds = table.columns.map(([, kind]) => kind);
      const perStatement = rowsPerStatement(table);
      await client.execute("BEGIN");
      for (let at = 0; at < rows.length; at += perStatement) {
        const slice = rows.slice(at, at + perStatement);
        const args: InArgs = [];
        for (const row of slice) {
          for (let c = 0; c < row.length; c++) {
            const value = row[c];
            if (value === null) args.push(null);
            else if (kinds[c] === "timestamp") args.push(sqliteInstant(value as number));
            else if (kinds[c] === "bool") args.push(value ? 1 : 0);
            else args.push(value);
          }
        }
        await client.execute({ sql: insertSql(table, slice.length), args });
      }
      await client.execute("COMMIT");
    },

    async finishLoad() {
      let start = performance.now();
      for (const index of droppedIndexes) await client.execute(index.sql);
      for (const trigger of droppedTriggers) await client.execute(trigger.sql);
      for (const rebuild of rebuilds) await client.executeMultiple(rebuild);
      const indexSeconds = secondsSince(start);
      start = performance.now();
      await client.execute("ANALYZE");
      const analyzeSeconds = secondsSince(start);
      // Fold the WAL into the database file, so the first benchmark run does not pay for it.
      await client.execute("PRAGMA wal_checkpoint(TRUNCATE)");
      return { indexSeconds, analyzeSeconds };
    },

    async close() {
      client.close();
    },
  };
}
