// The seeded database a load bench runs on: one seeded before (--seeded-url with its --keys),
// or a fresh one seeded here (--size full or small) and dropped afterwards.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sqliteFilePath } from "../../src/db/client";
import type { BenchKeys } from "../seed/keysFile";
import type { FlagSpec, ParsedFlags } from "./args";
import { createDatabase } from "./databases";
import { runScript } from "./processes";

export interface SeededDatabase {
  /** sqlite or postgresql. */
  database: string;
  /** full or small: the size seeded here, or the one --size names for a database seeded before (full by default). */
  size: string;
  url: string;
  keys: BenchKeys;
  /** Drops the database if it was seeded here; keeps one seeded before. */
  drop(): Promise<void>;
}

/** The command-line flags of seededDatabaseOf. */
export const databaseFlags = {
  database: "string",
  size: "string",
  "postgres-url": "string",
  "seeded-url": "string",
  keys: "string",
} as const satisfies FlagSpec;

/** PostgreSQL needs --postgres-url (or BENCH_DATABASE_URL): a server where the role may create databases. */
export async function seededDatabaseOf(flags: ParsedFlags): Promise<SeededDatabase> {
  const database = (flags.database as string) ?? "sqlite";
  const size = (flags.size as string) ?? "full";
  // A SQLite file named relative to here: the servers run in other folders (Platformatic's in bench/peers).
  const seededUrl = flags["seeded-url"] as string | undefined;
  const keysFile = flags.keys as string | undefined;
  if (seededUrl && keysFile) {
    const url = seededUrl.startsWith("file:") ? `file:${sqliteFilePath(seededUrl)}` : seededUrl;
    return { database, size, url, keys: readKeys(keysFile), drop: async () => {} };
  }
  const postgresUrl = database === "postgresql" ? ((flags["postgres-url"] as string) ?? process.env.BENCH_DATABASE_URL) : null;
  if (database === "postgresql" && !postgresUrl) throw new Error("--postgres-url (or BENCH_DATABASE_URL) is required for PostgreSQL");
  const created = await createDatabase(postgresUrl ?? null);
  const keysDir = fs.mkdtempSync(path.join(os.tmpdir(), "vrd-bench-keys-"));
  const keysOut = path.join(keysDir, "keys.json");
  const drop = async () => {
    await created.drop();
    fs.rmSync(keysDir, { recursive: true, force: true });
  };
  console.error(`seeding ${database} (${size}) ...`);
  try {
    await runScript(["bench/seed.ts", ...(size === "small" ? ["--small"] : []), "--database-url", created.url, "--keys-out", keysOut], { verbose: true });
    return { database, size, url: created.url, keys: readKeys(keysOut), drop };
  } catch (error) {
    await drop();
    throw error;
  }
}

const readKeys = (file: string) => JSON.parse(fs.readFileSync(file, "utf8")) as BenchKeys;
