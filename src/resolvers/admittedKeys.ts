// The network of a request's API key, without a statement for a key this process has admitted
// before. On PostgreSQL a round trip per request is much of a small read's cost (get by id: two
// statements, two round trips); the database announces every change to keys and networks
// (src/db/postgres/keyChanges.ts), and what is kept here is dropped at each announcement and
// whenever the process is not listening. On SQLite a statement is cheap but not free (figures:
// docs/performance.md); what is kept is dropped at every commit of any process, seen in the
// database's WAL index (src/db/sqlite/commits.ts). Expiry (a grace period's end) is checked on
// every request. Without an epoch (null) every request looks up its key.
import type { ApiKeyStore, KeyChanges } from "../db/store";
import type { NetworkScope } from "../context";
import { hashApiKey, isValidAt, looksLikeApiKey, type StoredKey } from "./apiKeys";
import { cacheCounts } from "../config/cacheCounts";

/** Keys kept at most; past it the one admitted first is dropped. */
export const maxAdmittedKeys = 10_000;

export type NetworkOfApiKey = (apiKey: string, now: Date) => Promise<NetworkScope | null>;

export function admittedKeys(keys: Pick<ApiKeyStore, "byHash">, changes: KeyChanges | null, maxKeys = maxAdmittedKeys): NetworkOfApiKey {
  // By hash: the process keeps no key in the clear.
  const kept = new Map<string, StoredKey>();
  let keptAt: number | null = null;

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
    if (admitted) return known.network;

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
    return key.network;
  };
}
