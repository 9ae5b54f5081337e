// Opens the service's database: a Prisma client over the driver adapter the URL calls for.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { SqliteAdapterFactory } from "./sqliteAdapter";
import { PrismaClient } from "../generated/prisma/client";
import { providerOf, type DatabaseProvider } from "../config/database";

export type Prisma = PrismaClient;

export interface Database {
  prisma: PrismaClient;
  provider: DatabaseProvider;
  url: string;
  close(): Promise<void>;
}

/** The file behind a `file:` URL, with its folder created when missing. */
export function sqliteFilePath(url: string): string {
  const file = url.startsWith("file://") ? fileURLToPath(url) : url.slice("file:".length);
  return path.resolve(file);
}

export async function openDatabase(url: string): Promise<Database> {
  const provider = providerOf(url);
  if (provider !== "sqlite") {
    throw new Error("PostgreSQL support is not built yet: use a file: DATABASE_URL.");
  }
  fs.mkdirSync(path.dirname(sqliteFilePath(url)), { recursive: true });
  const prisma = new PrismaClient({ adapter: new SqliteAdapterFactory({ url }) });
  await prisma.$queryRawUnsafe("PRAGMA busy_timeout = 5000");
  return { prisma, provider, url, close: () => prisma.$disconnect() };
}
