// Applies pending migrations at start, without the Prisma CLI (which costs seconds per run).
// The bookkeeping table is Prisma's own `_prisma_migrations`, so `prisma migrate status` agrees.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { openSqliteClient, prepareSqliteFile } from "./sqliteAdapter";
import { providerOf } from "../config/database";
import { sqliteFilePath } from "./client";

export interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

const migrationsRoot = path.resolve(__dirname, "..", "..", "prisma");

/** The migrations shipped for a provider, oldest first. */
export function shippedMigrations(provider: string): Migration[] {
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

const bookkeepingTable = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
  "id" TEXT PRIMARY KEY NOT NULL,
  "checksum" TEXT NOT NULL,
  "finished_at" DATETIME,
  "migration_name" TEXT NOT NULL,
  "logs" TEXT,
  "rolled_back_at" DATETIME,
  "started_at" DATETIME NOT NULL DEFAULT current_timestamp,
  "applied_steps_count" INTEGER UNSIGNED NOT NULL DEFAULT 0
)`;

/**
 * Brings the database up to date and returns the names of the migrations it applied.
 * Refuses to start on a database whose applied migrations differ from the shipped ones.
 */
export async function migrate(url: string): Promise<string[]> {
  if (providerOf(url) !== "sqlite") throw new Error("Only SQLite migrations are built yet.");
  fs.mkdirSync(path.dirname(sqliteFilePath(url)), { recursive: true });
  const client = await openSqliteClient(url);
  try {
    await prepareSqliteFile(client);
    await client.execute(bookkeepingTable);
    // An IMMEDIATE transaction holds the write lock: a second process starting at the same
    // moment waits here, then finds nothing left to apply.
    const tx = await client.transaction("write");
    try {
      const applied = await tx.execute(
        `SELECT migration_name, checksum FROM "_prisma_migrations" WHERE rolled_back_at IS NULL AND finished_at IS NOT NULL`,
      );
      const appliedChecksums = new Map(applied.rows.map((row) => [String(row.migration_name), String(row.checksum)]));
      const pending: Migration[] = [];
      for (const migration of shippedMigrations("sqlite")) {
        const checksum = appliedChecksums.get(migration.name);
        if (checksum === undefined) pending.push(migration);
        else if (checksum !== migration.checksum) {
          throw new Error(`Migration ${migration.name} was changed after it was applied to this database.`);
        }
      }
      for (const migration of pending) {
        const startedAt = new Date().toISOString();
        await tx.executeMultiple(migration.sql);
        await tx.execute({
          sql: `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, started_at, applied_steps_count) VALUES (?, ?, ?, ?, ?, 1)`,
          args: [crypto.randomUUID(), migration.checksum, new Date().toISOString(), migration.name, startedAt],
        });
      }
      await tx.commit();
      return pending.map((migration) => migration.name);
    } finally {
      tx.close();
    }
  } finally {
    client.close();
  }
}
