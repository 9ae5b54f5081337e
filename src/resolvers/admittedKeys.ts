// The network of a request's API key, without a statement for a key this process has admitted
// before. On PostgreSQL a round trip per request is much of a small read's cost (get by id: two
// statements, two round trips); the database announces every change to keys and networks
// (src/db/postgres/keyChanges.ts), and what is kept here is dropped at each announcement and
// whenever the process is not listening. On SQLite a statement is cheap but not free (figures:
// docs/performance.md); what is kept is dropped at every commit of any process, seen in the
// database's WAL index (src/db/sqlite/commits.ts). Expiry (a grace period's end) is checked on
// every request. Without an epoch (null) every request looks up its key. The admitted key comes
// with its scopes and origins, so they cost no statement of their own.
//
// A key's last use is stored to the minute, written at most once a minute per key and process,
// after the request is admitted and without waiting for it: never a write per request. A failed
// write is only logged; the next minute tries again.
import type { ApiKeyStore, KeyChanges } from "../db/store";
import { hashApiKey, isValidAt, looksLikeApiKey, type StoredKey } from "./apiKeys";
import { cacheCounts } from "../config/cacheCounts";
import { logInternalError } from "../publicError";

/** Keys kept at most; past it the one admitted first is dropped. */
export const maxAdmittedKeys = 10_000;

/** The admitted key of a secret (its network, scopes and origins), or null: unknown, revoked or expired. */
export type KeyOfApiKey = (apiKey: string, now: Date) => Promise<StoredKey | null>;

const minuteMs = 60_000;

export function admittedKeys(keys: Pick<ApiKeyStore, "byHash" | "touch">, changes: KeyChanges | null, maxKeys = maxAdmittedKeys): KeyOfApiKey {
  // By hash: the process keeps no key in the clear.
  const kept = new Map<string, StoredKey>();
  let keptAt: number | null = null;
  /** Per key id, the minute this process last wrote as its last use (bounded like the kept keys). */
  const touched = new Map<number, number>();

  /** Stores the key's use in this minute, unless stored already (by the key as read, or by this process). */
  const noteUse = (key: StoredKey, now: Date) => {
    const minute = Math.floor(now.getTime() / minuteMs);
    const stored = key.lastUsedAt === null ? -1 : Math.floor(key.lastUsedAt.getTime() / minuteMs);
    if (stored >= minute || (touched.get(key.id) ?? -1) >= minute) return;
    if (touched.size >= maxKeys && !touched.has(key.id)) touched.delete(touched.keys().next().value!);
    touched.set(key.id, minute);
    keys.touch(key.id, new Date(minute * minuteMs)).catch(logInternalError);
  };

  /** The current epoch, with what was kept at another one forgotten. */
  const currentEpoch = () => {
    const epoch = changes?.epoch() ?? null;
    if (epoch !== keptAt) {
      kept.clear();
      keptAt = epoch;
    }
    return epoch;
  };

  return async (apiKey, now) => {
    if (!looksLikeApiKey(apiKey)) return null;
    const hash = hashApiKey(apiKey);
    const epoch = currentEpoch();
    const known = epoch === null ? undefined : kept.get(hash);
    const admitted = known !== undefined && isValidAt(known, now);
    cacheCounts.admittedKeys[admitted ? "hits" : "misses"] += 1;
    if (admitted) {
      noteUse(known, now);
      return known;
    }

    const key = await keys.byHash(hash);
    if (!key || !isValidAt(key, now)) {
      kept.delete(hash);
      return null;
    }
    // Kept only if no change was announced while it was read: a key revoked meanwhile must not
    // come back from a read that started before.
    if (epoch !== null && currentEpoch() === epoch) {
      if (kept.size >= maxKeys && !kept.has(hash)) kept.delete(kept.keys().next().value!);
      kept.set(hash, key);
    }
    noteUse(key, now);
    return key;
  };
}
