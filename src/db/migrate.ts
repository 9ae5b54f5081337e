// Applies pending migrations at start, without the Prisma CLI (which costs seconds per run).
// The bookkeeping table is Prisma's own `_prisma_migrations`, so `prisma migrate status` agrees.
// Several processes may start at once: each provider serialises them with a lock.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { providerOf, type DatabaseProvider } from "../config/database";
import { sqliteMigrationTarget } from "./sqlite/migrations";
import { postgresMigrationTarget } from "./postgres/migrations";
import type { Migration } from "./migrationTarget";

export type { Migration, MigrationSession, MigrationTarget } from "./migrationTarget";

/** The repository's prisma/ folder, from src/db/ when run as TypeScript or dist/ when built. */
function findMigrationsRoot(): string {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, "prisma");
    if (fs.existsSync(path.join(candidate, "sqlite", "migrations"))) return candidate;
    if (path.dirname(dir) === dir) throw new Error("prisma/ migrations folder not found");
  }
}

const migrationsRoot = findMigrationsRoot();

/** The migrations shipped for a provider, oldest first; the checksum is Prisma's (SHA-256). */
export function shippedMigrations(provider: DatabaseProvider): Migration[] {
  const dir = path.join(migrationsRoot, provider, "migrations");
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      const sql = fs.readFileSync(path.join(dir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: crypto.createHash("sha256").update(sql).digest("hex") };
    });
}

/**
 * Brings the database up to date and returns the names of the migrations it applied.
 * Refuses a database whose applied migrations were changed after they were applied.
 */
export async function migrate(url: string): Promise<string[]> {
  const provider = providerOf(url);
  const target = provider === "sqlite" ? sqliteMigrationTarget(url) : postgresMigrationTarget(url);
  return target.locked(async (session) => {
    const applied = await session.appliedChecksums();
    const pending = shippedMigrations(provider).filter((migration) => {
      const checksum = applied.get(migration.name);
      if (checksum !== undefined && checksum !== migration.checksum) {
        throw new Error(`Migration ${migration.name} was changed after it was applied to this database.`);
      }
      return checksum === undefined;
    });
    for (const migration of pending) await session.apply(migration);
    return pending.map((migration) => migration.name);
  });
}
