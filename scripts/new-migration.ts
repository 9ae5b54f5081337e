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
//
// MIGRATION_DATABASE_URL: a PostgreSQL server on which the role may CREATE DATABASE. Nothing in
// the database it names is changed: the history is replayed into a throwaway shadow database
// that the CLI adapter (src/db/postgresCliAdapter.ts) creates and drops. SQLite needs nothing
// (its shadow database is in memory).
//
// Hand-written SQL must be kept, because Prisma's schema cannot express it:
// - the partial unique index `dutytime_entries_one_open_per_officer` (one open dutytime entry per
//   officer, `WHERE "ended_at" IS NULL`). On SQLite, a generated migration that rebuilds the
//   dutytime_entries table (`DROP TABLE` / `RedefineTables`) silently drops it: re-add the
//   CREATE UNIQUE INDEX at the end of that migration. The script warns when that happens.
// - the PostgreSQL extensions pg_trgm and btree_gin (created in the first migration) that the
//   trigram index needs; never drop them in a later migration.
// Review every generated script before committing it; the migrations are applied at start by
// src/db/migrate.ts, which refuses a migration changed after it was applied.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { DatabaseProvider } from "../src/config/database";

const root = path.resolve(__dirname, "..");
const providers: DatabaseProvider[] = ["sqlite", "postgresql"];

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

/** 20261122000000: the migration folders sort in the order they were written. */
function timestamp(date: Date): string {
  return date.toISOString().replace(/[-:T]/g, "").slice(0, 14);
}

function migrationFolders(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name);
}

function diff(provider: DatabaseProvider, databaseUrl: string, migrationsDir: string): string {
  const from = migrationFolders(migrationsDir).length > 0 ? ["--from-migrations", migrationsDir] : ["--from-empty"];
  const schema = path.join("prisma", provider, "schema.prisma");
  return execFileSync("npx", ["prisma", "migrate", "diff", ...from, "--to-schema-datamodel", schema, "--script"], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: databaseUrl },
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  });
}

/** Only comments and blank lines ("-- This is an empty migration.")? */
function isEmpty(script: string): boolean {
  return script.split("\n").every((line) => line.trim() === "" || line.trim().startsWith("--"));
}

function main(): void {
  const name = (process.argv[2] ?? "").trim().toLowerCase().replace(/[^a-z0-9]+/g, "_").replace(/^_+|_+$/g, "");
  if (!name) fail("Usage: npm run db:new-migration -- <name>   (e.g. add_vehicle_notes)");
  const folder = `${timestamp(new Date())}_${name}`;
  const postgresUrl = process.env.MIGRATION_DATABASE_URL;
  if (!postgresUrl) fail("Set MIGRATION_DATABASE_URL to a PostgreSQL server URL (the role needs CREATEDB); see scripts/new-migration.ts.");
  const scratchDir = fs.mkdtempSync(path.join(os.tmpdir(), "vrd-new-migration-"));
  // The URLs make prisma.config.ts pick the provider's schema folder and CLI adapter.
  const urls: Record<DatabaseProvider, string> = { sqlite: `file:${path.join(scratchDir, "cli.db")}`, postgresql: postgresUrl };
  try {
    // Every diff first: both providers get the migration, or (on an error) neither does.
    const scripts = new Map<DatabaseProvider, string>();
    for (const provider of providers) {
      const migrationsDir = path.join("prisma", provider, "migrations");
      console.log(`${provider}: diffing ${migrationsDir} against prisma/${provider}/schema.prisma ...`);
      scripts.set(provider, diff(provider, urls[provider], migrationsDir));
    }
    let written = 0;
    for (const [provider, script] of scripts) {
      const migrationsDir = path.join(root, "prisma", provider, "migrations");
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
      console.log(`${provider}: wrote ${path.relative(root, file)}:\n${script.trimEnd()}\n`);
      if (provider === "sqlite" && /(DROP TABLE|RedefineTables)[^\n]*dutytime_entries|"new_dutytime_entries"/.test(script)) {
        console.warn(
          `WARNING: this migration rebuilds dutytime_entries, which drops the hand-written partial index.\n` +
            `Append to ${path.relative(root, file)}:\n` +
            `CREATE UNIQUE INDEX "dutytime_entries_one_open_per_officer" ON "dutytime_entries"("officer_id") WHERE "ended_at" IS NULL;\n`,
        );
      }
    }
    if (written === 0) console.log("The schemas match their migrations: no migration written.");
  } finally {
    fs.rmSync(scratchDir, { recursive: true, force: true });
  }
}

main();
