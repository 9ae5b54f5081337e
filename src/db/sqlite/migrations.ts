// Migration bookkeeping on SQLite: one IMMEDIATE transaction holds the write lock throughout.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { sqliteFilePath } from "./filePath";
import { openSqliteClient, prepareSqliteFile } from "./adapter";
import type { MigrationSession, MigrationTarget } from "../migrationTarget";

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
 * libSQL's driver is synchronous: a second migration in this process waiting for the file lock
 * would block the event loop the first one needs to finish. Calls in one process queue here;
 * other processes wait on SQLite's lock.
 */
const queues = new Map<string, Promise<unknown>>();

function inQueue<T>(file: string, work: () => Promise<T>): Promise<T> {
  const previous = queues.get(file) ?? Promise.resolve();
  const next = previous.then(work, work);
  queues.set(file, next.catch(() => undefined));
  return next;
}

export function sqliteMigrationTarget(url: string): MigrationTarget {
  return {
    locked: (work) => inQueue(sqliteFilePath(url), () => migrateLocked(url, work)),
  };
}

async function migrateLocked<T>(url: string, work: (session: MigrationSession) => Promise<T>): Promise<T> {
  fs.mkdirSync(path.dirname(sqliteFilePath(url)), { recursive: true });
  const client = await openSqliteClient(url);
  try {
    await prepareSqliteFile(client);
    await client.execute(bookkeepingTable);
    // A second process starting at the same moment waits here, then finds nothing to apply.
    const tx = await client.transaction("write");
    try {
      const result = await work({
        async appliedChecksums() {
          const rows = await tx.execute(
            `SELECT migration_name, checksum FROM "_prisma_migrations" WHERE rolled_back_at IS NULL AND finished_at IS NOT NULL`,
          );
          return new Map(rows.rows.map((row) => [String(row.migration_name), String(row.checksum)]));
        },
        async apply(migration) {
          const startedAt = new Date().toISOString();
          await tx.executeMultiple(migration.sql);
          await tx.execute({
            sql: `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, started_at, applied_steps_count) VALUES (?, ?, ?, ?, ?, 1)`,
            args: [crypto.randomUUID(), migration.checksum, new Date().toISOString(), migration.name, startedAt],
          });
        },
      });
      await tx.commit();
      return result;
    } finally {
      tx.close();
    }
  } finally {
    client.close();
  }
}
