// Opens the service's database: a Prisma client over the driver adapter the URL calls for.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PrismaClient } from "../generated/prisma/client";
import { defaultPoolSettings, providerOf, type DatabaseProvider, type PoolSettings } from "../config/database";
import { SqliteAdapterFactory } from "./sqliteAdapter";
import { openPostgres } from "./postgres";
import { adapterReads, shareConnection, type QueryableAdapter, type ReadSql } from "./adapterReads";

export type Prisma = PrismaClient;

export interface Database {
  /** Writes, and reads that are not hot. */
  prisma: PrismaClient;
  /** Hot reads: plain SQL on the adapter under `prisma` (src/db/adapterReads.ts says why). */
  read: ReadSql;
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
  let prisma: PrismaClient;
  let adapter: () => Promise<QueryableAdapter>;
  if (provider === "postgresql") {
    ({ prisma, adapter } = openPostgres(url, pool));
  } else {
    fs.mkdirSync(path.dirname(sqliteFilePath(url)), { recursive: true });
    const factory = shareConnection(new SqliteAdapterFactory({ url }));
    prisma = new PrismaClient({ adapter: factory });
    adapter = factory.connection;
    await prisma.$queryRawUnsafe("PRAGMA busy_timeout = 5000");
  }
  return { prisma, read: adapterReads(provider, adapter), provider, url, close: () => prisma.$disconnect() };
}
