// API keys: random, shown once, stored only as a SHA-256 hash (enough for a 256-bit secret).
import crypto from "node:crypto";
import type { Prisma as PrismaClient } from "../db/client";
import type { ReadSql } from "../db/adapterReads";
import { noteKeyChangeInThisProcess } from "../db/keyChanges";
import { Prisma } from "../generated/prisma/client";
import type { NetworkScope } from "../context";

const keyPrefix = "vrd_";

export interface IssuedKey {
  apiKey: string;
  prefix: string;
  hash: string;
}

export function hashApiKey(apiKey: string): string {
  return crypto.createHash("sha256").update(apiKey).digest("hex");
}

export function generateApiKey(): IssuedKey {
  const apiKey = keyPrefix + crypto.randomBytes(32).toString("base64url");
  return { apiKey, prefix: apiKey.slice(0, keyPrefix.length + 6), hash: hashApiKey(apiKey) };
}

/** A key as stored: its network, and when it stops being valid (null: never). */
export interface StoredKey {
  network: NetworkScope;
  expiresAt: Date | null;
}

/** Whether a stored key is valid at `now`: revoked and expired keys are refused. */
export const isValidAt = (key: StoredKey, now: Date) => key.expiresAt === null || key.expiresAt > now;

/** The stored key of this hash (see hashApiKey), or null. */
export async function storedKey(read: ReadSql, hash: string): Promise<StoredKey | null> {
  // On the read path (src/db/adapterReads.ts): on SQLite for every request, on PostgreSQL for
  // the keys a process has not admitted before (src/resolvers/admittedKeys.ts).
  const key = await read.byKey<{ id: number; name: string; identifier_type: string; expires_at: Date | string | null }>(Prisma.sql`
    SELECT n.id, n.name, n.identifier_type, k.expires_at
    FROM api_keys k JOIN networks n ON n.id = k.network_id
    WHERE k.hash = ${hash}`);
  if (!key) return null;
  return {
    network: { id: Number(key.id), name: key.name, identifierType: key.identifier_type },
    expiresAt: key.expires_at === null ? null : new Date(key.expires_at),
  };
}

/** Whether this text can be a key at all (checked before it is hashed and looked up). */
export const looksLikeApiKey = (apiKey: string) => apiKey.startsWith(keyPrefix) && apiKey.length <= 200;

/**
 * Issues a new key for a network. Keys issued before stop being valid at once, or after
 * `graceSeconds` so game servers can be moved to the new key.
 */
export async function regenerateApiKey(
  prisma: PrismaClient,
  networkId: number,
  graceSeconds: number,
  now: Date,
): Promise<string> {
  const issued = generateApiKey();
  const expiresAt = new Date(now.getTime() + graceSeconds * 1000);
  await prisma.$transaction([
    prisma.apiKey.updateMany({
      where: { networkId, OR: [{ expiresAt: null }, { expiresAt: { gt: expiresAt } }] },
      data: { expiresAt },
    }),
    prisma.apiKey.create({
      data: { networkId, prefix: issued.prefix, hash: issued.hash, createdAt: now },
    }),
  ]);
  noteKeyChangeInThisProcess();
  return issued.apiKey;
}

/**
 * Reads the key from X-API-Key or a Bearer token (`header` answers a request's header by its
 * lower-case name, several lines of one header joined by ", "). Two different keys, in the two
 * headers or on two lines of one, are refused: which one was meant is not ours to guess.
 * Other Authorization schemes (a proxy's Basic auth, say) are not ours and are ignored.
 */
export function apiKeyFromHeaders(header: (name: string) => string | null): string | null {
  const headerKey = header("x-api-key");
  const authorization = header("authorization");
  // The everyday case: one X-API-Key line.
  if (headerKey !== null && authorization === null && !headerKey.includes(",")) return headerKey.trim() || null;
  const keys = new Set<string>();
  for (const value of headerKey?.split(",") ?? []) if (value.trim()) keys.add(value.trim());
  for (const credentials of authorization?.split(",") ?? []) {
    const bearer = /^\s*Bearer\s+(\S+)\s*$/i.exec(credentials)?.[1];
    if (bearer) keys.add(bearer);
  }
  return keys.size === 1 ? keys.values().next().value! : null;
}
