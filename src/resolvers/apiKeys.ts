// API keys: random, shown once, stored only as a SHA-256 hash (enough for a 256-bit secret), each
// with a name, scopes, origins and an optional end (CONTRACT, "Keys, scopes and
// origins"). The rules of making, revoking and replacing them take plain inputs, for the admin
// command and GraphQL alike, and throw the domain errors of src/errors.ts.
import crypto from "node:crypto";
import { isValidAt } from "../model/keyValidity";
import type { ApiKeyStore, KeyRecord, StoredKey } from "../db/store";
import { conflict, invalidInput, notFound } from "../errors";
import { checkGrace, checkKeyInput, type KeyInput } from "./keyInput";
import { changeWithEvents, type ChangeScope } from "../events/record";
import { keyData } from "../events/data";

const keyPrefix = "vrd_";
/** Characters of a key shown in lists and logs (the contract's 12; keys made before names kept 10). */
export const shownPrefixLength = 12;

export interface IssuedKey {
  apiKey: string;
  prefix: string;
  hash: string;
}

/** A key just made: its record, and its secret, shown this once. */
export interface IssuedKeyRecord {
  key: KeyRecord;
  apiKey: string;
}

export function hashApiKey(apiKey: string): string {
  return crypto.hash("sha256", apiKey, "hex");
}

export function generateApiKey(): IssuedKey {
  const apiKey = keyPrefix + crypto.randomBytes(32).toString("base64url");
  return { apiKey, prefix: apiKey.slice(0, shownPrefixLength), hash: hashApiKey(apiKey) };
}

export type { KeyInput, KeyRecord, StoredKey };

/** Whether a key is valid at `now`: not past its own end, not revoked (a grace period's end is in the future). */
export { isValidAt };

/** Whether this text can be a key at all (checked before it is hashed and looked up); any prefix length. */
export const looksLikeApiKey = (apiKey: string) => apiKey.startsWith(keyPrefix) && apiKey.length <= 200;

/** The network's keys, revoked ones too, newest first. */
export const listKeys = (keys: ApiKeyStore, networkId: number): Promise<KeyRecord[]> => keys.list(networkId);

/** Makes a key of the network; its secret is answered this once. */
export async function createKey(scope: ChangeScope, input: KeyInput, issued = generateApiKey()): Promise<IssuedKeyRecord> {
  const now = scope.now();
  const checked = checkKeyInput(input, now);
  const key = await changeWithEvents(scope, async (tx, record) => {
    const created = await tx.apiKeys.create(scope.network.id, { ...checked, prefix: issued.prefix, hash: issued.hash }, now);
    record("apiKey.created", created.id, keyData(created));
    return created;
  });
  return { key, apiKey: issued.apiKey };
}

const endOfGrace = (graceSeconds: number, now: Date) => new Date(now.getTime() + checkGrace(graceSeconds) * 1000);

/**
 * Revokes the network's key at once, or after `graceSeconds` so its users can move to another.
 * A key revoked earlier keeps its earlier time. Another network's key is not found.
 */
export async function revokeKey(scope: ChangeScope, keyId: number, graceSeconds: number): Promise<KeyRecord> {
  const now = scope.now();
  const at = endOfGrace(graceSeconds, now);
  const revoked = await changeWithEvents(scope, async (tx, record) => {
    const outcome = await tx.apiKeys.revoke(scope.network.id, keyId, at, now);
    if (outcome?.changed) record("apiKey.revoked", outcome.key.id, keyData(outcome.key));
    return outcome;
  });
  if (!revoked) throw notFound("Key");
  return revoked.key;
}

/** The key `regenerate-key` replaces when none is named: the network's one unrevoked key. */
async function onlyUnrevokedKey(keys: ApiKeyStore, networkId: number): Promise<KeyRecord> {
  const unrevoked = (await keys.list(networkId)).filter((key) => key.revokedAt === null);
  if (unrevoked.length === 0) throw conflict("The network has no unrevoked key to replace: make one with key create.");
  if (unrevoked.length > 1) {
    throw invalidInput({
      keyId: [`The network has ${unrevoked.length} unrevoked keys: say which one to replace with --key KEY_ID (key list shows their ids).`],
    });
  }
  return unrevoked[0];
}

/**
 * Replaces a key by a new one with its name, scopes, origins and end: the old one is revoked at
 * once or after `graceSeconds`. Without `keyId`, the network's one unrevoked key.
 */
export async function regenerateKey(scope: ChangeScope, keyId: number | null, graceSeconds: number): Promise<IssuedKeyRecord> {
  const now = scope.now();
  const keys = scope.db.apiKeys;
  const networkId = scope.network.id;
  const revokedAt = endOfGrace(graceSeconds, now);
  const old = keyId === null ? await onlyUnrevokedKey(keys, networkId) : await keys.byId(networkId, keyId);
  if (!old) throw notFound("Key");
  if (old.revokedAt !== null) throw conflict(`Key ${old.id} is revoked: it cannot be replaced. Make a new key instead.`);
  if (old.expiresAt !== null && old.expiresAt <= now) {
    throw conflict(`Key ${old.id} expired at ${old.expiresAt.toISOString()}: its replacement would be expired too. Make a new key instead.`);
  }
  const issued = generateApiKey();
  // Two changes, each with its event: the old key revoked, the new one made.
  const replacement = await changeWithEvents(scope, async (tx, record) => {
    const outcome = await tx.apiKeys.replace(networkId, old.id, issued, revokedAt, now);
    if (outcome) {
      record("apiKey.revoked", outcome.replaced.id, keyData(outcome.replaced));
      record("apiKey.created", outcome.created.id, { ...keyData(outcome.created), replacesKeyId: outcome.replaced.id });
    }
    return outcome;
  });
  // Revoked by someone else between the look-up and the replacement.
  if (!replacement) throw conflict(`Key ${old.id} is revoked: it cannot be replaced. Make a new key instead.`);
  return { key: replacement.created, apiKey: issued.apiKey };
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
