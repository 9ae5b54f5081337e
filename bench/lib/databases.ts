// Throwaway databases for bench runs: a SQLite file in a temporary folder, or a `bench_*`
// database on a PostgreSQL server; copies of a seeded one, and dropping them afterwards.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "libsql";
import { Client } from "pg";
import { sqliteFilePath } from "../../src/db/client";

export interface BenchDatabase {
  url: string;
  drop(): Promise<void>;
}

/** The server URL with another database name. */
function withDatabase(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

async function onServer<Row extends object = object>(serverUrl: string, sql: string): Promise<Row[]> {
  const client = new Client({ connectionString: serverUrl });
  await client.connect();
  try {
    return (await client.query<Row>(sql)).rows;
  } finally {
    await client.end();
  }
}

/**
 * The PostgreSQL server's version and the settings that decide how much of the data set it
 * holds in its own memory, for the results' header; null for SQLite. On this machine's virtual
 * CPUs the first touch of a page of memory is dear, and a server whose shared buffers are not
 * in huge pages pays it per connection and buffer (README, PostgreSQL).
 */
export async function serverSettings(databaseUrl: string): Promise<string | null> {
  if (!databaseUrl.startsWith("postgres")) return null;
  const [row] = await onServer<{ version: string; shared_buffers: string; huge_pages: string }>(
    databaseUrl,
    "SELECT current_setting('server_version') AS version, current_setting('shared_buffers') AS shared_buffers, current_setting('huge_pages') AS huge_pages",
  );
  return `PostgreSQL ${row.version.split(" ")[0]}, shared_buffers ${row.shared_buffers}, huge_pages ${row.huge_pages}`;
}

/**
 * Reads a SQLite database's files once, so that every server starts on a warm OS page cache, as
 * on a machine where the database has been in use (after a restart, the first searches of new
 * terms read the disk and their latency says more about the disk than about the servers).
 * Returns what the report says of it; null for PostgreSQL.
 */
export function warmSqliteFiles(databaseUrl: string): string | null {
  if (databaseUrl.startsWith("postgres")) return null;
  const file = sqliteFilePath(databaseUrl);
  const chunk = Buffer.alloc(8 * 1024 * 1024);
  let bytes = 0;
  for (const name of [file, `${file}-wal`]) {
    if (!fs.existsSync(name)) continue;
    const descriptor = fs.openSync(name, "r");
    try {
      for (let read; (read = fs.readSync(descriptor, chunk, 0, chunk.length, null)) > 0; ) bytes += read;
    } finally {
      fs.closeSync(descriptor);
    }
  }
  return `SQLite, its ${Math.round(bytes / 1024 / 1024)} MB of files read once before the servers start (a warm OS page cache)`;
}

/**
 * Removes the vehicles a create scenario wrote in a network (owner `owner`, which no seeded
 * vehicle has), through the database, as any writer would: the triggers keep the network's
 * counts and search keys. Returns how many were removed.
 */
export async function removeCreatedVehicles(databaseUrl: string, networkId: number, owner: string): Promise<number> {
  if (databaseUrl.startsWith("postgres")) {
    const client = new Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      return (await client.query(`DELETE FROM vehicles WHERE network_id = $1 AND owner = $2`, [networkId, owner])).rowCount ?? 0;
    } finally {
      await client.end();
    }
  }
  const connection = new Database(sqliteFilePath(databaseUrl));
  try {
    connection.prepare("PRAGMA busy_timeout = 10000").all();
    return connection.prepare(`DELETE FROM vehicles WHERE network_id = ? AND owner = ?`).run([networkId, owner]).changes;
  } finally {
    connection.close();
  }
}

/**
 * Undoes a toggle scenario's writes in a network: deletes the entries started at or after
 * `since` (all of them the scenario's) and opens again those it stopped (ended at or after
 * `since`: after the deletion, only entries open when it began, at most one per officer). Later
 * scenarios and runs find the seeded dutytime: who is on duty, and no thousands of entries of a
 * few milliseconds in the reports' ranges. Returns how many entries were deleted.
 */
export async function restoreToggledDutytime(databaseUrl: string, networkId: number, since: Date): Promise<number> {
  const deleteSql = (p: (n: number) => string) => `DELETE FROM dutytime_entries WHERE network_id = ${p(1)} AND started_at >= ${p(2)}`;
  const reopenSql = (p: (n: number) => string) => `UPDATE dutytime_entries SET ended_at = NULL WHERE network_id = ${p(1)} AND ended_at >= ${p(2)}`;
  if (databaseUrl.startsWith("postgres")) {
    const client = new Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      await client.query("BEGIN");
      // timestamp(3) columns hold UTC wall-clock time (as Prisma writes them).
      const at = since.toISOString().replace("T", " ").replace("Z", "");
      const deleted = (await client.query(deleteSql((n) => `$${n}`), [networkId, at])).rowCount ?? 0;
      await client.query(reopenSql((n) => `$${n}`), [networkId, at]);
      await client.query("COMMIT");
      return deleted;
    } finally {
      await client.end();
    }
  }
  const connection = new Database(sqliteFilePath(databaseUrl));
  try {
    connection.prepare("PRAGMA busy_timeout = 10000").all();
    // Instants are stored as ISO text with "+00:00" (Prisma's libSQL adapter), compared as text.
    const at = since.toISOString().replace("Z", "+00:00");
    connection.prepare("BEGIN IMMEDIATE").run();
    const deleted = connection.prepare(deleteSql(() => "?")).run([networkId, at]).changes;
    connection.prepare(reopenSql(() => "?")).run([networkId, at]);
    connection.prepare("COMMIT").run();
    return deleted;
  } finally {
    connection.close();
  }
}

/** A new empty database: SQLite when `postgresServerUrl` is null, else a bench_* database there. */
export async function createDatabase(postgresServerUrl: string | null, template?: string): Promise<BenchDatabase> {
  if (postgresServerUrl === null) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "vrd-bench-"));
    const file = path.join(dir, "bench.db");
    if (template) for (const suffix of ["", "-wal"]) if (fs.existsSync(sqliteFilePath(template) + suffix)) fs.copyFileSync(sqliteFilePath(template) + suffix, file + suffix);
    return { url: `file:${file}`, drop: async () => fs.rmSync(dir, { recursive: true, force: true }) };
  }
  const name = `bench_${crypto.randomBytes(5).toString("hex")}`;
  const from = template ? ` TEMPLATE "${new URL(template).pathname.slice(1)}"` : "";
  await onServer(postgresServerUrl, `CREATE DATABASE "${name}"${from}`);
  return {
    url: withDatabase(postgresServerUrl, name),
    drop: async () => void (await onServer(postgresServerUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)),
  };
}
