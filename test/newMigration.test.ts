// The migration script (`npm run db:new-migration`, scripts/new-migration.ts), run for real on a
// copy of the provider's prisma/ folder: it leaves the hand-written search tables and indexes out
// of the diff (no change, no migration), a migration it writes applies on top of the history
// with our runner's own SQL execution (src/db/migrate.ts) and search keeps working, and for a
// change that would break hand-written SQL it warns with the SQL that makes the migration apply.
// Each project checks its own provider (PostgreSQL: on the server TEST_DATABASE_URL names, where
// the script creates and drops throwaway databases).
import { execFile } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { Client } from "pg";
import type { Migration, MigrationTarget } from "../src/db/migrate";
import { sqliteMigrationTarget } from "../src/db/sqlite/migrations";
import { postgresMigrationTarget } from "../src/db/postgres/migrations";
import { freshDatabase, temporaryDir, testProvider as provider, queryRows, type FreshDatabase } from "./support/database";

const root = path.resolve(__dirname, "..");
const timeoutMs = 120_000;

interface ScriptResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the script for this project's provider on a copy of prisma/ (the server: TEST_DATABASE_URL's). */
function newMigration(prismaDir: string, name: string): Promise<ScriptResult> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  if (provider === "postgresql") env.MIGRATION_DATABASE_URL = process.env.TEST_DATABASE_URL;
  const args = ["--import", "tsx", "scripts/new-migration.ts", name, "--provider", provider, "--prisma-dir", prismaDir];
  return new Promise((resolve) => {
    execFile(process.execPath, args, { cwd: root, env, timeout: timeoutMs }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === "number" ? error.code : -1) : 0;
      resolve({ code, stdout: String(stdout), stderr: String(stderr) });
    });
  });
}

/** A temporary prisma/ folder holding a copy of this provider's schema and migrations. */
function copyOfPrisma(): { dir: string; prismaDir: string; migrationsDir: string; schema: string } {
  const dir = temporaryDir("vrd-new-migration-test-");
  const prismaDir = path.join(dir, "prisma");
  fs.cpSync(path.join(root, "prisma", provider), path.join(prismaDir, provider), { recursive: true });
  const providerDir = path.join(prismaDir, provider);
  return { dir, prismaDir, migrationsDir: path.join(providerDir, "migrations"), schema: path.join(providerDir, "schema.prisma") };
}

function editSchema(schema: string, from: RegExp, to: string): void {
  const text = fs.readFileSync(schema, "utf8");
  const edited = text.replace(from, to);
  expect(edited).not.toBe(text);
  fs.writeFileSync(schema, edited);
}

function migrationsIn(dir: string): Migration[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()
    .map((name) => migration(name, fs.readFileSync(path.join(dir, name, "migration.sql"), "utf8")));
}

function migration(name: string, sql: string): Migration {
  return { name, sql, checksum: crypto.createHash("sha256").update(sql).digest("hex") };
}

/** Applies the migrations as src/db/migrate.ts does: in the provider's lock, each with its bookkeeping row. */
async function apply(db: FreshDatabase, migrations: Migration[]): Promise<void> {
  const target: MigrationTarget = db.provider === "sqlite" ? sqliteMigrationTarget(db.url) : postgresMigrationTarget(db.url);
  await target.locked(async (session) => {
    for (const each of migrations) await session.apply(each);
  });
}

const createdAt = "'2026-11-25 12:00:00'";

async function addNetwork(db: FreshDatabase): Promise<number> {
  const rows = await queryRows(db, `INSERT INTO networks (name, identifier_type, created_at) VALUES ('Test', 'steam', ${createdAt}) RETURNING id`);
  return Number(rows[0].id);
}

/** The network's vehicle count, which triggers keep. */
async function vehicleCount(db: FreshDatabase, networkId: number): Promise<number> {
  return Number((await queryRows(db, `SELECT vehicle_count FROM networks WHERE id = ${networkId}`))[0].vehicle_count);
}

async function addVehicle(db: FreshDatabase, networkId: number, plate: string, extra: Record<string, string> = {}): Promise<number> {
  const columns = {
    network_id: String(networkId),
    plate: `'${plate}'`,
    car: "'Stanier'",
    search_text: `'${plate.toLowerCase()}'`,
    created_at: createdAt,
    updated_at: createdAt,
    ...extra,
  };
  const rows = await queryRows(
    db,
    `INSERT INTO vehicles (${Object.keys(columns).join(", ")}) VALUES (${Object.values(columns).join(", ")}) RETURNING id`,
  );
  return Number(rows[0].id);
}

/**
 * The vehicles a search for the term (three or more ASCII letters or digits) finds through each
 * hand-written index: SQLite's FTS5 tables (the network's keys, the trigrams of all networks),
 * PostgreSQL's function index of the network's keys, and the trigram index.
 */
async function search(db: FreshDatabase, networkId: number, term: string): Promise<Record<string, number[]>> {
  const trigrams = Array.from(term.matchAll(/(?=([a-z0-9]{3}))/g), (match) => match[1]);
  const ids = (rows: Record<string, unknown>[]) => rows.map((row) => Number(row.id)).sort((a, b) => a - b);
  if (db.provider === "sqlite") {
    const keys = trigrams.map((trigram) => `"${networkId}x${trigram}"`).join(" ");
    return {
      keys: ids(await queryRows(db, `SELECT rowid AS id FROM vehicle_search_keys WHERE vehicle_search_keys MATCH '${keys}'`)),
      trigrams: ids(await queryRows(db, `SELECT rowid AS id FROM vehicles_search WHERE vehicles_search MATCH '"${term}"'`)),
    };
  }
  const keys = trigrams.map((trigram) => `'${networkId}:${trigram}'`).join(", ");
  const client = new Client({ connectionString: db.url });
  await client.connect();
  try {
    // Only the indexes may answer.
    await client.query("SET enable_seqscan = off");
    const keyed = await client.query(`SELECT id FROM vehicles WHERE vehicle_search_keys(network_id, search_text) @> ARRAY[${keys}]`);
    const like = await client.query(`SELECT id FROM vehicles WHERE network_id = ${networkId} AND search_text LIKE '%${term}%'`);
    return { keys: ids(keyed.rows), trigrams: ids(like.rows) };
  } finally {
    await client.end();
  }
}

/** Every index, trigger, view and table (with their SQL but the tables') and, on PostgreSQL, function and extension. */
async function schemaObjects(db: FreshDatabase): Promise<string[]> {
  const rows =
    db.provider === "sqlite"
      ? await queryRows(db, `SELECT type || ' ' || name || ' ' || CASE type WHEN 'table' THEN '' ELSE coalesce(sql, '') END AS o FROM sqlite_master`)
      : await queryRows(
          db,
          `SELECT 'index ' || indexdef AS o FROM pg_indexes WHERE schemaname = 'public'
           UNION ALL SELECT 'trigger ' || pg_get_triggerdef(oid) FROM pg_trigger WHERE NOT tgisinternal
           UNION ALL SELECT 'function ' || proname FROM pg_proc p WHERE pronamespace = 'public'::regnamespace
             AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.objid = p.oid AND d.deptype = 'e')
           UNION ALL SELECT 'extension ' || extname FROM pg_extension`,
        );
  return rows.map((row) => String(row.o)).sort();
}

/** The SQL a warning says to add before and after the generated statements. */
function advice(warnings: string): { before: string; after: string } {
  const block = (label: string) => {
    const match = new RegExp(`Add ${label}[^\\n]*:\\n((?: {4}.*(?:\\n|$))+)`).exec(warnings);
    return match ? match[1].replace(/^ {4}/gm, "") : "";
  };
  return { before: block("before"), after: block("after") };
}

describe(`npm run db:new-migration (${provider})`, () => {
  let copy: ReturnType<typeof copyOfPrisma>;
  let db: FreshDatabase | undefined;

  beforeEach(() => {
    copy = copyOfPrisma();
    db = undefined;
  });
  afterEach(async () => {
    await db?.drop();
    fs.rmSync(copy.dir, { recursive: true, force: true });
  });

  it(
    "writes nothing for an unchanged schema: the hand-written search tables and indexes are not in the diff",
    async () => {
      const before = fs.readdirSync(copy.migrationsDir).sort();
      const result = await newMigration(copy.prismaDir, "nothing");
      expect(result.stderr).not.toMatch(/WARNING|Nothing written/);
      expect(result.code).toBe(0);
      expect(result.stdout).toContain(`${provider}: no difference, nothing written.`);
      expect(fs.readdirSync(copy.migrationsDir).sort()).toEqual(before);
    },
    timeoutMs,
  );

  it(
    "writes a migration for a new optional column that applies on top of the history; search still works",
    async () => {
      const history = migrationsIn(copy.migrationsDir);
      // A name no real vehicle field takes, so the test holds when the table gains a field.
      editSchema(copy.schema, /(\n {2}plate +String\n)/, "$1  migrationProbe String? @map(\"migration_probe\")\n");
      const result = await newMigration(copy.prismaDir, "add vehicle probe");
      expect(result.stderr).not.toMatch(/WARNING|Nothing written/);
      expect(result.code).toBe(0);
      const added = migrationsIn(copy.migrationsDir).slice(history.length);
      expect(added.map((each) => each.name)).toEqual([expect.stringMatching(/^\d{14}_add_vehicle_probe$/)]);
      expect(added[0].sql).toMatch(/ALTER TABLE "vehicles" ADD COLUMN\s+"migration_probe" TEXT;/);
      expect(added[0].sql).not.toMatch(/DROP|vehicles_search|vehicle_search_keys|RedefineTables/);

      db = await freshDatabase(provider);
      await apply(db, history);
      const networkId = await addNetwork(db);
      const before = await addVehicle(db, networkId, "B-AB 1234");
      const objects = await schemaObjects(db);
      await apply(db, added);

      expect(await schemaObjects(db)).toEqual(objects);
      const after = await addVehicle(db, networkId, "HH-X 1239", { migration_probe: "'WDB1234'" });
      await addVehicle(db, networkId, "M-Q 9999");
      expect(await search(db, networkId, "123")).toEqual({ keys: [before, after], trigrams: [before, after] });
      expect(await search(db, networkId, "1234")).toEqual({ keys: [before], trigrams: [before] });
      expect(await vehicleCount(db, networkId)).toBe(3);
    },
    timeoutMs,
  );

  // SQLite rebuilds the table for a column made required, which drops its triggers and fails on
  // the view naming it; PostgreSQL cannot retype a column a trigger names in UPDATE OF.
  const breaking =
    provider === "sqlite"
      ? {
          edit: [/(\n {2}car +)String\?\n/, "$1String\n"] as const,
          warning: /rebuilds "vehicles".*vehicle_search_key_lists/,
          failure: /error in view vehicle_search_key_lists/,
        }
      : {
          edit: [/(\n {2}identifier String\n {2}name +String)\n/, "$1 @db.VarChar(500)\n"] as const,
          warning: /changes the type of "officers"\."name".*trigger officers_version/,
          failure: /cannot alter type of a column used in a trigger definition/,
        };

  it(
    "warns about a migration that breaks hand-written SQL, with the SQL that makes it apply",
    async () => {
      const history = migrationsIn(copy.migrationsDir);
      editSchema(copy.schema, breaking.edit[0], breaking.edit[1]);
      const result = await newMigration(copy.prismaDir, "breaking change");
      expect(result.code).toBe(0);
      expect(result.stderr).toMatch(breaking.warning);
      const [generated] = migrationsIn(copy.migrationsDir).slice(history.length);
      const { before, after } = advice(result.stderr);
      expect(before).not.toBe("");
      expect(after).not.toBe("");

      db = await freshDatabase(provider);
      await apply(db, history);
      const networkId = await addNetwork(db);
      const vehicle = await addVehicle(db, networkId, "B-AB 1234");
      const objects = await schemaObjects(db);
      // As generated, it does not apply (and changes nothing).
      await expect(apply(db, [generated])).rejects.toThrow(breaking.failure);
      expect(await schemaObjects(db)).toEqual(objects);

      await apply(db, [migration(generated.name, `${before}\n${generated.sql}\n${after}`)]);
      // Everything is back (PostgreSQL's function index now casts the VARCHAR column to text).
      const uncast = (definitions: string[]) => definitions.map((definition) => definition.replace(/\((\w+)\)::text\b/g, "$1"));
      expect(uncast(await schemaObjects(db))).toEqual(objects);
      const another = await addVehicle(db, networkId, "HH-X 1239");
      expect(await search(db, networkId, "123")).toEqual({ keys: [vehicle, another], trigrams: [vehicle, another] });
      expect(await vehicleCount(db, networkId)).toBe(2);
    },
    timeoutMs,
  );
});
