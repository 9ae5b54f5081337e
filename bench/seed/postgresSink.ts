// PostgreSQL bulk load through pg (the driver under the service's adapter): one
// INSERT ... SELECT FROM unnest(arrays) per chunk, so a chunk of 20,000 rows is one statement
// with one parameter per column. Secondary indexes (the trigram GIN above all) are rebuilt
// after the load, on two connections at once, with a large maintenance_work_mem; their foreign
// keys are re-added and known count triggers re-enabled (their counts rebuilt) after the load too.
import { Client } from "pg";
import { derivedData, rebuildSql, warnActiveTriggers } from "./derivedData";
import type { ColumnKind } from "./tables";
import { secondsSince, type Sink } from "./sink";

const arrayType: Record<ColumnKind, string> = {
  int: "int4[]",
  text: "text[]",
  bool: "bool[]",
  timestamp: "timestamp(3)[]",
};

async function connect(url: string): Promise<Client> {
  const client = new Client({ connectionString: url });
  await client.connect();
  // A crash would lose the last commits, which a fresh seed does not care about.
  await client.query("SET synchronous_commit = off");
  await client.query("SET maintenance_work_mem = '1GB'");
  await client.query("SET max_parallel_maintenance_workers = 2");
  return client;
}

/** GIN builds are single-threaded and long: start them first so the B-trees fill the other lane. */
const buildCost = (sql: string) => (/ USING gin /i.test(sql) ? 0 : 1);

export async function openPostgresSink(url: string): Promise<Sink> {
  const client = await connect(url);
  const droppedIndexes: Array<{ name: string; sql: string }> = [];
  const droppedForeignKeys: Array<{ table: string; name: string; definition: string }> = [];
  const disabledTriggers: Array<{ table: string; name: string }> = [];
  const rebuilds: string[] = [];

  return {
    chunkRows: 20_000,

    async checkFresh() {
      const { rows } = await client.query<{ n: string }>("SELECT COUNT(*) AS n FROM networks");
      if (Number(rows[0].n) > 0) throw new Error("the database already holds networks; the seed fills a fresh database only");
    },

    async beginLoad(bulkTables) {
      const { rows } = await client.query<{ name: string; sql: string }>(
        `SELECT c.relname AS name, pg_get_indexdef(i.indexrelid) AS sql
           FROM pg_index i
           JOIN pg_class c ON c.oid = i.indexrelid
           JOIN pg_class t ON t.oid = i.indrelid
           JOIN pg_namespace n ON n.oid = t.relnamespace
          WHERE n.nspname = current_schema() AND t.relname = ANY($1) AND NOT i.indisunique AND NOT i.indisprimary`,
        [bulkTables.map((t) => t.name)],
      );
      for (const row of rows) {
        droppedIndexes.push(row);
        await client.query(`DROP INDEX "${row.name}"`);
      }
      // A foreign key checks every inserted row with a lookup of its own; re-adding it after the
      // load checks all rows in one join.
      const keys = await client.query<{ table: string; name: string; definition: string }>(
        `SELECT t.relname AS table, c.conname AS name, pg_get_constraintdef(c.oid) AS definition
           FROM pg_constraint c
           JOIN pg_class t ON t.oid = c.conrelid
           JOIN pg_namespace n ON n.oid = t.relnamespace
          WHERE n.nspname = current_schema() AND c.contype = 'f' AND t.relname = ANY($1)`,
        [bulkTables.map((t) => t.name)],
      );
      for (const key of keys.rows) {
        droppedForeignKeys.push(key);
        await client.query(`ALTER TABLE "${key.table}" DROP CONSTRAINT "${key.name}"`);
      }
      const triggers = await client.query<{ table: string; name: string }>(
        `SELECT c.relname AS table, t.tgname AS name
           FROM pg_trigger t
           JOIN pg_class c ON c.oid = t.tgrelid
           JOIN pg_namespace n ON n.oid = c.relnamespace
          WHERE n.nspname = current_schema() AND NOT t.tgisinternal AND c.relname = ANY($1)`,
        [bulkTables.map((t) => t.name)],
      );
      const known = new Map(derivedData.flatMap((d) => d.triggers.postgresql.map((name) => [name, d] as const)));
      const unknown: Array<{ table: string; name: string }> = [];
      for (const trigger of triggers.rows) {
        const derived = known.get(trigger.name);
        if (!derived) {
          unknown.push(trigger);
          continue;
        }
        disabledTriggers.push(trigger);
        if (!rebuilds.includes(rebuildSql(derived, "postgresql"))) rebuilds.push(rebuildSql(derived, "postgresql"));
        await client.query(`ALTER TABLE "${trigger.table}" DISABLE TRIGGER "${trigger.name}"`);
      }
      warnActiveTriggers(unknown);
    },

    insert(table, rows) {
      const columns = table.columns.map(() => [] as unknown[]);
      const timestamps = table.columns.map(([, kind]) => kind === "timestamp");
      for (const row of rows) {
        for (let c = 0; c < row.length; c++) {
          const value = row[c];
          // Instants as UTC text, as Prisma sends them to a timestamp(3) column.
          columns[c].push(timestamps[c] && value !== null ? new Date(value as number).toISOString() : value);
        }
      }
      const names = table.columns.map(([name]) => `"${name}"`).join(", ");
      const arrays = table.columns.map(([, kind], i) => `$${i + 1}::${arrayType[kind]}`).join(", ");
      // pg encodes the parameters when the query is sent, which is now (the client is idle).
      return client
        .query({ name: `seed_${table.name}`, text: `INSERT INTO "${table.name}" (${names}) SELECT * FROM unnest(${arrays})`, values: columns })
        .then(() => undefined);
    },

    async finishLoad(allTables) {
      // Rows came with explicit ids: move each id sequence past them.
      for (const table of allTables) {
        await client.query(
          `SELECT setval(pg_get_serial_sequence('"${table.name}"', 'id'), COALESCE(MAX(id), 1), MAX(id) IS NOT NULL) FROM "${table.name}"`,
        );
      }
      let start = performance.now();
      const second = await connect(url);
      try {
        const queue = [...droppedIndexes].sort((a, b) => buildCost(a.sql) - buildCost(b.sql));
        const lane = async (c: Client) => {
          for (let index = queue.shift(); index; index = queue.shift()) await c.query(index.sql);
        };
        await Promise.all([lane(client), lane(second)]);
      } finally {
        await second.end();
      }
      for (const key of droppedForeignKeys) {
        await client.query(`ALTER TABLE "${key.table}" ADD CONSTRAINT "${key.name}" ${key.definition}`);
      }
      // After the indexes: a rebuild counts per network through them.
      for (const trigger of disabledTriggers) await client.query(`ALTER TABLE "${trigger.table}" ENABLE TRIGGER "${trigger.name}"`);
      for (const rebuild of rebuilds) await client.query(rebuild);
      const indexSeconds = secondsSince(start);
      start = performance.now();
      // VACUUM sets the visibility map, so counts can be index-only scans as after autovacuum.
      await client.query("VACUUM (ANALYZE)");
      const analyzeSeconds = secondsSince(start);
      return { indexSeconds, analyzeSeconds };
    },

    async close() {
      await client.end();
    },
  };
}
