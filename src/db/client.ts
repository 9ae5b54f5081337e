// Opens the service's database: a Prisma client over the driver adapter the URL calls for.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PrismaClient } from "../generated/prisma/client";
import { defaultPoolSettings, providerOf, type DatabaseProvider, type PoolSettings } from "../config/database";
import { SqliteAdapterFactory } from "./sqliteAdapter";
import { openPostgres } from "./postgres";

export type Prisma = PrismaClient;

export interface Database {
  prisma: PrismaClient;
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
  if (provider === "postgresql") {
    prisma = openPostgres(url, pool);
  } else {
    fs.mkdirSync(path.dirname(sqliteFilePath(url)), { recursive: true });
    prisma = new PrismaClient({ adapter: new SqliteAdapterFactory({ url }) });
    await prisma.$queryRawUnsafe("PRAGMA busy_timeout = 5000");
  }
  return { prisma, provider, url, close: () => prisma.$disconnect() };
}
