// API keys as stored (only their SHA-256 hash, src/resolvers/apiKeys.ts), the same on SQLite and
// PostgreSQL: looked up on the read path, replaced through Prisma's client.
import { Prisma, type PrismaClient } from "../generated/prisma/client";
import type { ReadSql } from "./adapterReads";
import { noteKeyChangeInThisProcess } from "./keyChanges";
import type { ApiKeyStore, StoredKey } from "./store";

/** The stored key of this hash, or null. */
async function storedKey(read: ReadSql, hash: string): Promise<StoredKey | null> {
  // On the read path (src/db/adapterReads.ts): on SQLite for every request, on PostgreSQL for
  // the keys a process has not admitted before (src/resolvers/admittedKeys.ts).
  const key = await read.byKey<{
    id: number;
    name: string;
    identifier_type: string;
    time_zone: string;
    auto_stop_after_hours: number | null;
    expires_at: Date | string | null;
  }>(Prisma.sql`
    SELECT n.id, n.name, n.identifier_type, n.time_zone, n.auto_stop_after_hours, k.expires_at
    FROM api_keys k JOIN networks n ON n.id = k.network_id
    WHERE k.hash = ${hash}`);
  if (!key) return null;
  return {
    network: {
      id: Number(key.id),
      name: key.name,
      identifierType: key.identifier_type,
      timeZone: key.time_zone,
      autoStopAfterHours: key.auto_stop_after_hours === null ? null : Number(key.auto_stop_after_hours),
    },
    expiresAt: key.expires_at === null ? null : new Date(key.expires_at),
  };
}

async function replaceKeys(prisma: PrismaClient, networkId: number, key: { prefix: string; hash: string }, expiresAt: Date, now: Date): Promise<void> {
  await prisma.$transaction([
    prisma.apiKey.updateMany({
      where: { networkId, OR: [{ expiresAt: null }, { expiresAt: { gt: expiresAt } }] },
      data: { expiresAt },
    }),
    prisma.apiKey.create({
      data: { networkId, prefix: key.prefix, hash: key.hash, createdAt: now },
    }),
  ]);
  // This process sees its own change at once (src/db/keyChanges.ts).
  noteKeyChangeInThisProcess();
}

export function apiKeyStore(read: ReadSql, prisma: PrismaClient): ApiKeyStore {
  return {
    byHash: (hash) => storedKey(read, hash),
    replace: (networkId, key, expiresAt, now) => replaceKeys(prisma, networkId, key, expiresAt, now),
  };
}
