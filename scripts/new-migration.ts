// Writes the migrations for a schema change, for both providers:
//
//   MIGRATION_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres npm run db:new-migration -- add_vehicle_notes
//
// Edit prisma/sqlite/schema.prisma and prisma/postgresql/schema.prisma alike (a test compares
// their models), then run this. For each provider it asks the Prisma CLI (offline, through the
// adapters in prisma.config.ts) for the difference between the replayed migration history and
// the schema:
//   prisma migrate diff --from-migrations prisma/<p>/migrations --to-schema-datamodel prisma/<p>/schema.prisma --script
// and writes it to prisma/<p>/migrations/<UTC timestamp>_<name>/migration.sql when it is not
// empty. (`prisma migrate dev --create-only` does not work on our Wasm engine setup.)
// Options (after the name): --provider sqlite|postgresql writes that provider's migration only;
// --prisma-dir <dir> works on another copy of the prisma/ folder (the tests use both).
//
// MIGRATION_DATABASE_URL: a PostgreSQL server on which the role may CREATE DATABASE. Nothing in
// the database it names is changed: the history is replayed into throwaway databases (the CLI
// adapter's shadow database, src/db/postgres/cliAdapter.ts, and this script's own, see below).
// SQLite needs nothing (its shadow database is in memory, this script's copy in a temporary file).
//
// Hand-written SQL must be kept, because Prisma's schema cannot express it:
// - SQLite's FTS5 search tables (vehicles_search, vehicle_search_keys) and the shadow tables FTS5
//   keeps for each (<table>_config, _content, _data, _docsize, _idx). Prisma's diff would drop
//   them (and that migration fails to apply): they are declared once, in prisma.config.ts
//   (`sqliteFts5Tables`; the shadow tables' names follow), as Prisma's "externally managed
//   tables" (experimental `tables.external`), which the diff leaves alone. This script checks
//   the declaration against the migration history (a new FTS5 table must be added there) and
//   refuses to write a migration that still names any of them.
// - triggers and their functions (kept counts, search indexes, key change announcements, SQLite's
//   instant rewrites), the view vehicle_search_key_lists (SQLite), the partial unique indexes
//   `dutytime_entries_one_open_per_officer` and `api_keys_one_unrevoked_name_per_network`, and
//   PostgreSQL's function index vehicles_search_keys_idx. Prisma's diff ignores them, but a
//   generated migration can still break them. To tell, this script replays the history with our
//   migration runner's SQL execution (src/db/migrate.ts) into a throwaway database, lists those
//   objects, and warns:
//   - SQLite: a table rebuild (`-- RedefineTables`: CREATE "new_<t>", copy, DROP, RENAME) drops
//     the table's triggers and hand-written indexes, and fails on views and other tables'
//     triggers that name the table. The warning gives the SQL to add before and after the rebuild.
//     A rebuild of a table other tables reference (networks, officers) must not be used at all:
//     inside the runner's transaction `PRAGMA foreign_keys=OFF` has no effect, so its DROP TABLE
//     deletes the referencing rows (ON DELETE CASCADE) or fails; write that change by hand.
//   - PostgreSQL: dropping or retyping a column that a trigger or a hand-written index uses (a
//     trigger's UPDATE OF column makes the migration fail, an index on it is dropped silently, a
//     trigger function naming it fails at run time), dropping such a table, a hand-written index
//     or an extension (pg_trgm and btree_gin, created in the first migration, must stay).
// Review every generated script before committing it; the migrations are applied at start by
// src/db/migrate.ts, which refuses a migration changed after it was applied.
import { execFile } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { createClient } from "@libsql/client";
import pg from "pg";
import type { DatabaseProvider } from "../src/config/database";
import { externalTables, sqliteFts5Tables } from "../prisma.config";

const root = path.resolve(__dirname, "..");
const allProviders: DatabaseProvider[] = ["sqlite", "postgresql"];

class Refusal extends Error {}

/** 20261122000000: the migration folders sort in the order they were written. */
function timestamp(date: Date): string {
  return date.toISOString().replace(/[-:T]/g, "").slice(0, 14);
}

function migrationFolders(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}

function diff(databaseUrl: string, migrationsDir: string, schema: string): Promise<string> {
  const from = migrationFolders(migrationsDir).length > 0 ? ["--from-migrations", migrationsDir] : ["--from-empty"];
  const args = ["prisma", "migrate", "diff", ...from, "--to-schema-datamodel", schema, "--script"];
  return new Promise((resolve, reject) => {
    const options = { cwd: root, env: { ...process.env, DATABASE_URL: databaseUrl }, maxBuffer: 64 << 20 };
    execFile("npx", args, options, (error, stdout, stderr) => {
      if (error) reject(new Refusal(`prisma migrate diff failed (${error.message.split("\n")[0]}):\n${stderr}`));
      else resolve(stdout);
    });
  });
}

/** The script's statements without comments (Prisma's scripts hold no function bodies). */
function statements(script: string): string[] {
  return script
    .replace(/\/\*[\s\S]*?\*\//g, "")
    .replace(/--[^\n]*/g, "")
    .split(/;\s*(?:\n|$)/)
    .map((statement) => statement.trim())
    .filter((statement) => statement !== "");
}

/** Only comments and blank lines ("-- This is an empty migration.")? */
function isEmpty(script: string): boolean {
  return statements(script).length === 0;
}

/** Whether SQL text names the identifier (quoted or not, not as part of a longer name). */
function names(sql: string, identifier: string): boolean {
  return new RegExp(`(?<![\\w$])${identifier.replace(/[^\w]/g, "\\$&")}(?![\\w$])`, "i").test(sql);
}

const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`;
const indent = (sql: string) => sql.replace(/^/gm, "    ");
/** A path as the user reads it: from the repository's root, or whole when outside it. */
const shown = (file: string) => (path.relative(root, file).startsWith("..") ? file : path.relative(root, file));

// ---- The history, replayed as our migration runner applies it (src/db/migrate.ts) ----

interface Migration {
  name: string;
  sql: string;
}

function historyOf(migrationsDir: string): Migration[] {
  return migrationFolders(migrationsDir).map((name) => ({
    name,
    sql: fs.readFileSync(path.join(migrationsDir, name, "migration.sql"), "utf8"),
  }));
}

interface SqliteObject {
  type: "table" | "index" | "view" | "trigger";
  name: string;
  table: string;
  sql: string;
}

interface SqliteHistory {
  objects: SqliteObject[];
  /** Foreign keys between tables: child references parent. */
  foreignKeys: { child: string; parent: string; onDelete: string }[];
}

/** SQLite: the runner's executeMultiple of each script, in one transaction, into a scratch file. */
async function replaySqlite(history: Migration[], scratchDir: string): Promise<SqliteHistory> {
  const client = createClient({ url: `file:${path.join(scratchDir, "replay.db")}` });
  try {
    const tx = await client.transaction("write");
    try {
      for (const migration of history) {
        try {
          await tx.executeMultiple(migration.sql);
        } catch (error) {
          throw new Refusal(`sqlite: migration ${migration.name} does not apply: ${(error as Error).message}`);
        }
      }
      await tx.commit();
    } finally {
      tx.close();
    }
    const objects = await client.execute(`
      SELECT type, name, tbl_name AS "table", sql FROM sqlite_master
      WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' ORDER BY rowid`);
    const foreignKeys = await client.execute(`
      SELECT m.name AS child, f."table" AS parent, f.on_delete AS onDelete
      FROM sqlite_master m, pragma_foreign_key_list(m.name) f WHERE m.type = 'table'`);
    return {
      objects: objects.rows.map((row) => ({
        type: row.type as SqliteObject["type"],
        name: String(row.name),
        table: String(row.table),
        sql: String(row.sql),
      })),
      foreignKeys: foreignKeys.rows.map((row) => ({ child: String(row.child), parent: String(row.parent), onDelete: String(row.onDelete) })),
    };
  } finally {
    client.close();
  }
}

interface PostgresObject {
  kind: "trigger" | "index";
  name: string;
  table: string;
  sql: string;
  /** Columns of `table` it depends on (an index's columns, a trigger's UPDATE OF columns). */
  columns: string[];
  /** A trigger's function, whose body may name any table and column. */
  body: string;
}

interface PostgresHistory {
  objects: PostgresObject[];
  extensions: string[];
}

function withDatabase(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

async function onPostgres<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** PostgreSQL: each script as one simple-protocol query in its own transaction (the runner's way). */
async function replayPostgres(history: Migration[], serverUrl: string): Promise<PostgresHistory> {
  const database = `vrd_new_migration_${crypto.randomBytes(6).toString("hex")}`;
  await onPostgres(serverUrl, (client) => client.query(`CREATE DATABASE ${quoted(database)}`));
  try {
    return await onPostgres(withDatabase(serverUrl, database), async (client) => {
      for (const migration of history) {
        await client.query("BEGIN");
        try {
          await client.query(migration.sql);
          await client.query("COMMIT");
        } catch (error) {
          await client.query("ROLLBACK");
          throw new Refusal(`postgresql: migration ${migration.name} does not apply: ${(error as Error).message}`);
        }
      }
      const triggers = await client.query(`
        SELECT t.tgname AS name, c.relname AS "table", pg_get_triggerdef(t.oid) AS sql, p.prosrc AS body,
          ARRAY(SELECT a.attname::text FROM pg_attribute a
                WHERE a.attrelid = t.tgrelid AND a.attnum = ANY(t.tgattr::int2[])) AS columns
        FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_proc p ON p.oid = t.tgfoid
        WHERE NOT t.tgisinternal ORDER BY t.oid`);
      // Prisma's schema describes an index on plain columns (with operator classes); partial
      // and expression indexes are hand-written.
      const indexes = await client.query(`
        SELECT i.relname AS name, c.relname AS "table", pg_get_indexdef(i.oid) AS sql, '' AS body,
          ARRAY(SELECT DISTINCT a.attname::text
                FROM pg_depend d JOIN pg_attribute a ON a.attrelid = d.refobjid AND a.attnum = d.refobjsubid
                WHERE d.classid = 'pg_class'::regclass AND d.objid = i.oid AND d.refobjsubid > 0) AS columns
        FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class c ON c.oid = x.indrelid
        WHERE c.relnamespace = 'public'::regnamespace AND (x.indpred IS NOT NULL OR x.indexprs IS NOT NULL)
        ORDER BY i.oid`);
      const extensions = await client.query(`SELECT extname AS name FROM pg_extension WHERE extname <> 'plpgsql' ORDER BY 1`);
      return {
        objects: [
          ...triggers.rows.map((row) => ({ kind: "trigger" as const, ...row })),
          ...indexes.rows.map((row) => ({ kind: "index" as const, ...row })),
        ] as PostgresObject[],
        extensions: extensions.rows.map((row) => String(row.name)),
      };
    });
  } finally {
    await onPostgres(serverUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${quoted(database)} WITH (FORCE)`));
  }
}

// ---- Checks of a generated script ----

/**
 * SQLite: every FTS5 table of the history must be declared in prisma.config.ts, shadow tables
 * included; else Prisma's diff drops it. Returns the hand-written tables.
 */
function checkFts5Declaration(history: SqliteHistory): string[] {
  const tables = history.objects.filter((object) => object.type === "table");
  const virtual = tables.filter((table) => /^CREATE\s+VIRTUAL\s+TABLE/i.test(table.sql)).map((table) => table.name);
  const undeclared = virtual.filter((name) => !sqliteFts5Tables.includes(name));
  if (undeclared.length > 0) {
    throw new Refusal(
      `sqlite: the migrations create the virtual table(s) ${undeclared.join(", ")}, which prisma.config.ts does not declare: ` +
        `add them to sqliteFts5Tables there, or every generated migration drops them.`,
    );
  }
  const shadows = tables.filter((table) => virtual.some((name) => table.name.startsWith(`${name}_`))).map((table) => table.name);
  const missing = shadows.filter((name) => !externalTables.sqlite.includes(name));
  if (missing.length > 0) {
    throw new Refusal(
      `sqlite: the shadow table(s) ${missing.join(", ")} are not in fts5ShadowSuffixes (prisma.config.ts): add their suffix there.`,
    );
  }
  return [...virtual, ...shadows];
}

/** A generated script must not touch the externally managed tables (Prisma's feature is experimental). */
function checkExternalTables(provider: DatabaseProvider, script: string, tables: string[]): void {
  const touching = statements(script).filter((statement) => tables.some((table) => names(statement, table)));
  if (touching.length > 0) {
    throw new Refusal(
      `${provider}: the generated migration names hand-written tables (is \`tables.external\` in prisma.config.ts in effect?):\n` +
        touching.map((statement) => indent(`${statement};`)).join("\n"),
    );
  }
}

function sqliteWarnings(script: string, history: SqliteHistory): string[] {
  const warnings: string[] = [];
  const rebuilt = [...script.matchAll(/ALTER TABLE "new_(\w+)" RENAME TO "(\w+)"/g)].map((match) => match[2]);
  const dropped = [...script.matchAll(/DROP TABLE "(\w+)"/g)].map((match) => match[1]).filter((table) => !rebuilt.includes(table));
  const recreated = new Set([...script.matchAll(/CREATE (?:UNIQUE )?INDEX "(\w+)"/g)].map((match) => match[1]));
  const typed = (objects: SqliteObject[]) => objects.map((object) => `${object.type} ${object.name}`).join(", ");
  /** Views, and triggers of other tables, that name the table: its DROP TABLE or RENAME fails on them. */
  const naming = (table: string) =>
    history.objects.filter(
      (object) => (object.type === "view" || (object.type === "trigger" && object.table !== table)) && names(object.sql, table),
    );
  const order = { view: 0, table: 1, index: 2, trigger: 3 };

  for (const table of rebuilt) {
    const children = history.foreignKeys.filter((fk) => fk.parent === table && fk.child !== table);
    if (children.length > 0) {
      const referencing = [...new Set(children.map((fk) => fk.child))].join(", ");
      const actions = [...new Set(children.map((fk) => fk.onDelete))].join("/");
      warnings.push(
        `The migration rebuilds "${table}" (-- RedefineTables), which ${referencing} reference. DO NOT USE IT: the runner ` +
          `applies a migration in a transaction, where \`PRAGMA foreign_keys=OFF\` has no effect, so \`DROP TABLE "${table}"\` ` +
          `deletes their rows (ON DELETE ${actions}) or fails. Write the change by hand without rebuilding the table ` +
          `(ALTER TABLE ... ADD COLUMN, as in 20261122024538_network_vehicle_version).`,
      );
      continue;
    }
    // Dropped with the table: its triggers, and the indexes the script does not create again.
    const lost = history.objects.filter(
      (object) => object.table === table && (object.type === "trigger" || (object.type === "index" && !recreated.has(object.name))),
    );
    const before = naming(table);
    if (before.length === 0 && lost.length === 0) continue;
    const after = [...before, ...lost].sort((a, b) => order[a.type] - order[b.type]);
    const losses = [
      lost.length > 0 ? `its DROP TABLE drops the hand-written ${typed(lost)}` : "",
      before.length > 0 ? `the hand-written ${typed(before)} name(s) it, on which the rebuild fails` : "",
    ];
    warnings.push(
      `The migration rebuilds "${table}" (-- RedefineTables): ${losses.filter(Boolean).join("; ")}.\n` +
        (before.length > 0
          ? `  Add before "-- RedefineTables":\n` +
            `${before.map((object) => indent(`DROP ${object.type.toUpperCase()} ${quoted(object.name)};`)).join("\n")}\n`
          : "") +
        `  Add after the rebuild (adapted to the new columns):\n${after.map((object) => indent(`${object.sql};`)).join("\n")}`,
    );
  }
  for (const table of dropped) {
    const broken = naming(table);
    if (broken.length > 0) {
      warnings.push(`The migration drops "${table}", which the hand-written ${typed(broken)} name(s): drop or rewrite them in the same migration.`);
    }
  }
  return warnings;
}

function postgresWarnings(script: string, history: PostgresHistory): string[] {
  const warnings: string[] = [];
  const describe = (object: PostgresObject) => `${object.kind} ${object.name} (on ${object.table})`;
  /** Hand-written objects using the table's column: on it, or a trigger function naming both. */
  const using = (table: string, column: string) =>
    history.objects.filter(
      (object) =>
        (object.table === table && object.columns.includes(column)) ||
        (object.kind === "trigger" && (object.table === table || names(object.body, table)) && names(object.body, column)),
    );
  for (const statement of statements(script)) {
    const alter = /^ALTER TABLE "(\w+)"/i.exec(statement);
    if (alter) {
      const table = alter[1];
      for (const [, column] of statement.matchAll(/DROP COLUMN "(\w+)"/gi)) {
        const affected = using(table, column);
        if (affected.length === 0) continue;
        warnings.push(
          `The migration drops "${table}"."${column}", which hand-written SQL uses: ${affected.map(describe).join(", ")}. ` +
            `A trigger's UPDATE OF column makes the migration fail, an index on it is dropped silently, a trigger function ` +
            `naming it fails at run time: rewrite them in the same migration.`,
        );
      }
      for (const [, column] of statement.matchAll(/ALTER COLUMN "(\w+)" (?:SET DATA )?TYPE/gi)) {
        const affected = using(table, column);
        if (affected.length === 0) continue;
        // An UPDATE OF column makes the ALTER fail ("cannot alter type of a column used in a trigger definition").
        const blocking = affected.filter(
          (object) => object.kind === "trigger" && object.table === table && object.columns.includes(column),
        );
        warnings.push(
          `The migration changes the type of "${table}"."${column}", which hand-written SQL uses: ${affected.map(describe).join(", ")}. ` +
            `Indexes are rebuilt with the new type (a function index needs its function to take it); trigger functions ` +
            `must still fit it.` +
            (blocking.length > 0
              ? `\n  ${blocking.map((object) => object.name).join(", ")} name(s) the column in UPDATE OF, on which the ALTER ` +
                `fails. Add before the ALTER TABLE:\n` +
                `${blocking.map((object) => indent(`DROP TRIGGER ${quoted(object.name)} ON ${quoted(object.table)};`)).join("\n")}\n` +
                `  Add after it:\n${blocking.map((object) => indent(`${object.sql};`)).join("\n")}`
              : ""),
        );
      }
    }
    const droppedTable = /^DROP TABLE "(\w+)"/i.exec(statement);
    if (droppedTable) {
      const table = droppedTable[1];
      const affected = history.objects.filter(
        (object) => object.table === table || (object.kind === "trigger" && names(object.body, table)),
      );
      if (affected.length > 0) {
        warnings.push(
          `The migration drops "${table}", which hand-written SQL uses: ${affected.map(describe).join(", ")}: ` +
            `rewrite or drop them in the same migration.`,
        );
      }
    }
    const droppedIndex = /^DROP INDEX "(\w+)"/i.exec(statement);
    const index = droppedIndex && history.objects.find((object) => object.kind === "index" && object.name === droppedIndex[1]);
    if (index) {
      warnings.push(`The migration drops the hand-written index ${index.name}; re-create it if it is still needed:\n${indent(`${index.sql};`)}`);
    }
    if (/^DROP EXTENSION/i.test(statement) && history.extensions.some((extension) => names(statement, extension))) {
      warnings.push(
        `The migration drops an extension the hand-written indexes need (${history.extensions.join(", ")}): remove that statement.`,
      );
    }
  }
  return warnings;
}

// ---- Main ----

interface Plan {
  provider: DatabaseProvider;
  migrationsDir: string;
  script: string;
  warnings: string[];
}

/** Both results; on an error, only once both are done (no CLI or throwaway database left behind). */
async function both<A, B>(first: Promise<A>, second: Promise<B>): Promise<[A, B]> {
  const [a, b] = await Promise.allSettled([first, second]);
  if (a.status === "rejected") throw a.reason;
  if (b.status === "rejected") throw b.reason;
  return [a.value, b.value];
}

async function planFor(provider: DatabaseProvider, prismaDir: string, url: string, scratchDir: string): Promise<Plan> {
  const migrationsDir = path.join(prismaDir, provider, "migrations");
  const schema = path.join(prismaDir, provider, "schema.prisma");
  console.log(`${provider}: diffing ${shown(migrationsDir)} against ${shown(schema)} ...`);
  const history = historyOf(migrationsDir);
  if (provider === "sqlite") {
    const [script, replayed] = await both(diff(url, migrationsDir, schema), replaySqlite(history, scratchDir));
    const fts5Tables = checkFts5Declaration(replayed);
    checkExternalTables(provider, script, [...externalTables.sqlite, ...fts5Tables]);
    return { provider, migrationsDir, script, warnings: isEmpty(script) ? [] : sqliteWarnings(script, replayed) };
  }
  const [script, replayed] = await both(diff(url, migrationsDir, schema), replayPostgres(history, url));
  checkExternalTables(provider, script, externalTables.postgresql);
  return { provider, migrationsDir, script, warnings: isEmpty(script) ? [] : postgresWarnings(script, replayed) };
}

function usage(message?: string): never {
  if (message) console.error(message);
  console.error("Usage: npm run db:new-migration -- <name> [--provider sqlite|postgresql] [--prisma-dir <dir>]");
  console.error("       (e.g. add_vehicle_notes; MIGRATION_DATABASE_URL: see scripts/new-migration.ts)");
  process.exit(1);
}

async function main(): Promise<void> {
  let parsed;
  try {
    parsed = parseArgs({ allowPositionals: true, options: { provider: { type: "string" }, "prisma-dir": { type: "string" } } });
  } catch (error) {
    usage((error as Error).message);
  }
  const { values, positionals } = parsed;
  const name = (positionals[0] ?? "").trim().toLowerCase().replace(/[^a-z0-9]+/g, "_").replace(/^_+|_+$/g, "");
  if (!name || positionals.length > 1) usage();
  if (values.provider !== undefined && !allProviders.includes(values.provider as DatabaseProvider)) {
    usage(`Unknown provider ${values.provider}.`);
  }
  const providers = values.provider ? [values.provider as DatabaseProvider] : allProviders;
  const prismaDir = path.resolve(values["prisma-dir"] ?? path.join(root, "prisma"));
  const folder = `${timestamp(new Date())}_${name}`;
  const postgresUrl = process.env.MIGRATION_DATABASE_URL;
  if (providers.includes("postgresql") && !postgresUrl) {
    usage("Set MIGRATION_DATABASE_URL to a PostgreSQL server URL (the role needs CREATEDB); see scripts/new-migration.ts.");
  }
  const scratchDir = fs.mkdtempSync(path.join(os.tmpdir(), "vrd-new-migration-"));
  // The URLs make prisma.config.ts pick the provider's CLI adapter and external tables.
  const urls: Record<DatabaseProvider, string> = {
    sqlite: `file:${path.join(scratchDir, "cli.db")}`,
    postgresql: postgresUrl ?? "",
  };
  try {
    // Every diff and check first: both providers get the migration, or (on an error) neither does.
    const settled = await Promise.allSettled(providers.map((provider) => planFor(provider, prismaDir, urls[provider], scratchDir)));
    const plans = settled.map((result) => {
      if (result.status === "rejected") throw result.reason;
      return result.value;
    });
    let written = 0;
    for (const { provider, migrationsDir, script, warnings } of plans) {
      if (isEmpty(script)) {
        console.log(`${provider}: no difference, nothing written.`);
        continue;
      }
      const file = path.join(migrationsDir, folder, "migration.sql");
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, script);
      const lockFile = path.join(migrationsDir, "migration_lock.toml");
      if (!fs.existsSync(lockFile)) fs.writeFileSync(lockFile, `provider = "${provider}"\n`);
      written++;
      console.log(`${provider}: wrote ${shown(file)}:\n${script.trimEnd()}\n`);
      for (const warning of warnings) console.warn(`WARNING (${provider}, ${shown(file)}): ${warning}\n`);
    }
    if (written === 0) console.log("The schemas match their migrations: no migration written.");
  } finally {
    fs.rmSync(scratchDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error instanceof Refusal ? `${error.message}\nNothing written.` : error);
  process.exit(1);
});
