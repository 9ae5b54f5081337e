// API keys: random, shown once, stored only as a SHA-256 hash (enough for a 256-bit secret).
import crypto from "node:crypto";
import type { ApiKeyStore, StoredKey } from "../db/store";

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

export type { StoredKey };

/** Whether a stored key is valid at `now`: revoked and expired keys are refused. */
export const isValidAt = (key: StoredKey, now: Date) => key.expiresAt === null || key.expiresAt > now;

/** Whether this text can be a key at all (checked before it is hashed and looked up). */
export const looksLikeApiKey = (apiKey: string) => apiKey.startsWith(keyPrefix) && apiKey.length <= 200;

/**
 * Issues a new key for a network. Keys issued before stop being valid at once, or after
 * `graceSeconds` so game servers can be moved to the new key.
 */
export async function regenerateApiKey(
  keys: ApiKeyStore,
  networkId: number,
  graceSeconds: number,
  now: Date,
): Promise<string> {
  const issued = generateApiKey();
  const expiresAt = new Date(now.getTime() + graceSeconds * 1000);
  await keys.replace(networkId, issued, expiresAt, now);
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
