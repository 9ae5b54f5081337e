// Opens the service's database: a Prisma client over the driver adapter the URL calls for.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PrismaClient } from "../generated/prisma/client";
import { defaultPoolSettings, providerOf, type DatabaseProvider, type PoolSettings } from "../config/database";
import { SqliteAdapterFactory } from "./sqliteAdapter";
import { openPostgres } from "./postgres";
import { shareConnection, type ReadSql } from "./adapterReads";
import { postgresReads } from "./postgresReads";
import { adapterWrites, type WriteSql } from "./adapterWrites";
import { writesTakingTurns } from "./writeTurns";
import { openSqliteReads } from "./sqliteReads";
import { keyChangesOf, type KeyChanges } from "./keyChanges";
import { sqliteCommitsOf } from "./sqliteCommits";

export type Prisma = PrismaClient;

export interface Database {
  /** Writes, and reads that are not hot. */
  prisma: PrismaClient;
  /**
   * Hot reads as plain SQL: on SQLite a read-only libsql connection (src/db/sqliteReads.ts), on
   * PostgreSQL the pg pool under `prisma`'s adapter (src/db/postgresReads.ts).
   */
  read: ReadSql;
  /**
   * Hot writes as plain SQL on the adapter under `prisma` (src/db/adapterWrites.ts); on SQLite,
   * whose statements hold the process, one per turn of the event loop (src/db/writeTurns.ts).
   */
  write: WriteSql;
  /**
   * When what a process keeps of API keys must be dropped: PostgreSQL announces changes to keys
   * and networks (src/db/keyChanges.ts), SQLite shows every commit (src/db/sqliteCommits.ts).
   */
  keyChanges: KeyChanges;
  provider: DatabaseProvider;
  url: string;
  close(): Promise<void>;
}

/** The file behind a `file:` URL. */
export function sqliteFilePath(url: string): string {
  const file = url.startsWith("file://") ? fileURLToPath(url) : url.slice("file:".length);
  return path.resolve(file);
}

export async function openDatabase(url: string, pool: PoolSettings = defaultPoolSettings): Promise<Database> {
  const provider = providerOf(url);
  if (provider === "postgresql") {
    const { prisma, adapter, pool: connections, pipelined } = openPostgres(url, pool);
    const write = adapterWrites(provider, adapter);
    const keyChanges = keyChangesOf({ connectionString: url, connectionTimeoutMillis: pool.connectTimeoutMs, keepAlive: true });
    const close = async () => {
      await keyChanges.close();
      await prisma.$disconnect();
      // Prisma's client ends the pool only if it connected; the hot reads use it either way.
      if (!connections.ending) await connections.end();
      await pipelined.end();
    };
    return { prisma, read: postgresReads(connections, pipelined), write, keyChanges, provider, url, close };
  }
  const file = sqliteFilePath(url);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const factory = shareConnection(new SqliteAdapterFactory({ url }));
  const prisma = new PrismaClient({ adapter: factory });
  await prisma.$queryRawUnsafe("PRAGMA busy_timeout = 5000");
  const reads = openSqliteReads(file);
  const keyChanges = sqliteCommitsOf(file);
  const close = async () => {
    await keyChanges.close();
    reads.close();
    await prisma.$disconnect();
  };
  return { prisma, read: reads.read, write: writesTakingTurns(adapterWrites(provider, factory.connection)), keyChanges, provider, url, close };
}
