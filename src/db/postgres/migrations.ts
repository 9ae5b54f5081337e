// Migration bookkeeping on PostgreSQL: an advisory lock serialises processes starting at once;
// each migration runs in its own transaction with its bookkeeping row.
import crypto from "node:crypto";
import { Client } from "pg";
import type { MigrationTarget } from "../migrationTarget";

/** Any fixed number: the advisory lock all service processes agree on for migrating. */
const migrationLockId = 4_711_2026;

const bookkeepingTable = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
  "id" VARCHAR(36) PRIMARY KEY NOT NULL,
  "checksum" VARCHAR(64) NOT NULL,
  "finished_at" TIMESTAMPTZ,
  "migration_name" VARCHAR(255) NOT NULL,
  "logs" TEXT,
  "rolled_back_at" TIMESTAMPTZ,
  "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
  "applied_steps_count" INTEGER NOT NULL DEFAULT 0
)`;

export function postgresMigrationTarget(url: string): MigrationTarget {
  return {
    async locked(work) {
      const client = new Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
      await client.connect();
      try {
        await client.query("SELECT pg_advisory_lock($1)", [migrationLockId]);
        await client.query(bookkeepingTable);
        return await work({
          async appliedChecksums() {
            const { rows } = await client.query(
              `SELECT migration_name, checksum FROM "_prisma_migrations" WHERE rolled_back_at IS NULL AND finished_at IS NOT NULL`,
            );
            return new Map(rows.map((row) => [String(row.migration_name), String(row.checksum)]));
          },
          async apply(migration) {
            await client.query("BEGIN");
            try {
              const startedAt = new Date();
              // The whole script in one simple-protocol query: statements with $$ bodies stay whole.
              await client.query(migration.sql);
              await client.query(
                `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, started_at, applied_steps_count) VALUES ($1, $2, now(), $3, $4, 1)`,
                [crypto.randomUUID(), migration.checksum, migration.name, startedAt],
              );
              await client.query("COMMIT");
            } catch (error) {
              await client.query("ROLLBACK");
              throw error;
            }
          },
        });
      } finally {
        // Ending the session releases the advisory lock.
        await client.end();
      }
    },
  };
}
