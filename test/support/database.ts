// A fresh, migrated database for one test service: a SQLite file in a temporary folder, or,
// in the PostgreSQL test project, a new database on the server TEST_DATABASE_URL names.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createClient } from "@libsql/client";
import { Client } from "pg";
import type { DatabaseProvider } from "../../src/config/database";
import type { Database } from "../../src/db/client";

export const testProvider: DatabaseProvider = process.env.TEST_PROVIDER === "postgresql" ? "postgresql" : "sqlite";

export interface FreshDatabase {
  url: string;
  provider: DatabaseProvider;
  /** Deletes the database (and its folder). */
  drop(): Promise<void>;
}

export function temporaryDir(prefix = "vrd-test-"): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** The server's URL with another database name. */
export function withDatabase(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

async function onServer<T>(work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: process.env.TEST_DATABASE_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export async function freshDatabase(provider: DatabaseProvider = testProvider): Promise<FreshDatabase> {
  if (provider === "sqlite") {
    const dir = temporaryDir();
    return {
      url: `file:${path.join(dir, "test.db")}`,
      provider,
      drop: async () => fs.rmSync(dir, { recursive: true, force: true }),
    };
  }
  if (!process.env.TEST_DATABASE_URL) throw new Error("TEST_DATABASE_URL is not set");
  const name = `vrd_test_${crypto.randomBytes(6).toString("hex")}`;
  await onServer((client) => client.query(`CREATE DATABASE "${name}"`));
  return {
    url: withDatabase(process.env.TEST_DATABASE_URL, name),
    provider,
    drop: () => onServer((client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(() => undefined),
  };
}

type RawQueryable = { $queryRawUnsafe<T = unknown>(query: string, ...values: unknown[]): Promise<T> };

/**
 * An index's definition, normalised so both databases read alike:
 * `create unique index x on t (c) where e is null`.
 */
export async function indexDefinition(prisma: RawQueryable, name: string): Promise<string | null> {
  const rows =
    testProvider === "sqlite"
      ? await prisma.$queryRawUnsafe<{ sql: string }[]>("SELECT sql FROM sqlite_master WHERE type = 'index' AND name = ?", name)
      : await prisma.$queryRawUnsafe<{ sql: string }[]>("SELECT indexdef AS sql FROM pg_indexes WHERE indexname = $1", name);
  if (rows.length === 0) return null;
  return rows[0].sql
    .replace(/"/g, "")
    .replace(/\bpublic\./g, "")
    .replace(/\s+using btree\s*/i, " ")
    .replace(/where \((.*)\)$/i, "where $1")
    .replace(/\s*\(\s*/g, " (")
    .replace(/\s*\)/g, ")")
    .replace(/\s+/g, " ")
    .toLowerCase()
    .trim();
}

/** The column names of a table. */
export async function columnsOf(prisma: RawQueryable, table: string): Promise<string[]> {
  const rows =
    testProvider === "sqlite"
      ? await prisma.$queryRawUnsafe<{ name: string }[]>("SELECT name FROM pragma_table_info(?)", table)
      : await prisma.$queryRawUnsafe<{ name: string }[]>(
          "SELECT column_name::text AS name FROM information_schema.columns WHERE table_name = $1",
          table,
        );
  return rows.map((row) => row.name);
}

/** Rows of a query on the test database, as plain objects. */
export async function queryRows(db: FreshDatabase, sql: string): Promise<Record<string, unknown>[]> {
  if (db.provider === "sqlite") {
    const client = createClient({ url: db.url });
    try {
      const result = await client.execute(sql);
      return result.rows.map((row) => Object.fromEntries(result.columns.map((column, i) => [column, row[i]])));
    } finally {
      client.close();
    }
  }
  const client = new Client({ connectionString: db.url });
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
}

/**
 * Drops a record table's `created_at` (records imported from systems that had none), with what
 * reads it: its index, the hour counts' trigger (migration *_record_hour_counts) and, on SQLite,
 * the triggers writing its instants as the app does (migration *_direct_sql_derived_data).
 */
export async function dropCreatedAt(db: Database, table: string): Promise<void> {
  await db.prisma.$executeRawUnsafe(`DROP INDEX IF EXISTS "${table}_network_id_created_at_idx"`);
  const triggers =
    db.provider === "sqlite"
      ? (await db.prisma.$queryRawUnsafe<{ name: string }[]>(
          `SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = '${table}' AND sql LIKE '%"created_at"%'`,
        )).map((trigger) => trigger.name)
      : [`${table}_hour_count`];
  const on = db.provider === "sqlite" ? "" : ` ON "${table}"`;
  for (const trigger of triggers) await db.prisma.$executeRawUnsafe(`DROP TRIGGER IF EXISTS "${trigger}"${on}`);
  await db.prisma.$executeRawUnsafe(`ALTER TABLE "${table}" DROP COLUMN "created_at"`);
}
