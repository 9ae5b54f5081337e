// API keys as stored (only their SHA-256 hash, src/resolvers/apiKeys.ts), the same SQL on SQLite
// and PostgreSQL: looked up, listed and read on the read path; revoked and touched on the write
// path; made in transactions on the write path (src/db/transactions.ts). Every change this
// process makes is noted (./keyChanges.ts), so the keys it admitted are dropped at once.
import { Prisma } from "../generated/prisma/client";
import type { DatabaseProvider } from "../config/database";
import { isScope, sortedScopes, type Scope } from "../model/scopes";
import { conflict } from "../errors";
import type { ReadSql } from "./adapterReads";
import type { WriteSql } from "./adapterWrites";
import { noteKeyChangeInThisProcess } from "./keyChanges";
import type { ApiKeyStore, KeyRecord, NewKey, StoredKey } from "./store";
import { storedInstant } from "./storedInstant";
import { isUniqueViolation } from "./databaseErrors";
import type { WriteTransaction } from "./transactions";

/** Most unrevoked keys a network may hold (CONTRACT). */
export const maxUnrevokedKeys = 100;

// ---- Columns: scopes and origins are space-separated text ----

/** The scopes column: the names in their declared order (src/model/scopes.ts), each once. */
export const scopesColumn = (scopes: readonly Scope[]) => sortedScopes(scopes).join(" ");

/** The scopes a column holds. A name this version does not know (plain SQL) grants nothing. */
const scopesOf = (column: string): Scope[] => sortedScopes(column.split(" ").filter(isScope));

/** The origins column: '' for none (origins hold no spaces: they are serialized URLs). */
export const originsColumn = (origins: readonly string[]) => origins.join(" ");

const originsOf = (column: string): string[] => column.split(" ").filter((origin) => origin !== "");

const instantOf = (value: Date | string | null): Date | null => (value === null ? null : storedInstant(value));

/** A key's row as the read path answers it (instants as text or Date, ids possibly as text). */
interface KeyRow {
  id: number | string;
  name: string;
  prefix: string;
  scopes: string;
  origins: string;
  created_at: Date | string;
  expires_at: Date | string | null;
  revoked_at: Date | string | null;
  last_used_at: Date | string | null;
}

const keyColumns = Prisma.raw("k.id, k.name, k.prefix, k.scopes, k.origins, k.created_at, k.expires_at, k.revoked_at, k.last_used_at");

const keyOfRow = (row: KeyRow): KeyRecord => ({
  id: Number(row.id),
  name: row.name,
  prefix: row.prefix,
  scopes: scopesOf(row.scopes),
  origins: originsOf(row.origins),
  createdAt: storedInstant(row.created_at),
  expiresAt: instantOf(row.expires_at),
  revokedAt: instantOf(row.revoked_at),
  lastUsedAt: instantOf(row.last_used_at),
});

/** A new key's columns as stored. */
const newKeyData = (key: NewKey, now: Date) => ({
  name: key.name,
  prefix: key.prefix,
  hash: key.hash,
  scopes: scopesColumn(key.scopes),
  origins: originsColumn(key.origins),
  createdAt: now,
  expiresAt: key.expiresAt,
});

// ---- Reads ----

interface StoredKeyRow extends KeyRow {
  network_id: number | string;
  network_name: string;
  identifier_type: string;
  time_zone: string;
  auto_stop_after_hours: number | string | null;
}

/** The stored key of this hash with its network, or null: one statement by a unique key. */
async function storedKey(read: ReadSql, hash: string): Promise<StoredKey | null> {
  // On the read path (src/db/adapterReads.ts): on SQLite for every request, on PostgreSQL for
  // the keys a process has not admitted before (src/resolvers/admittedKeys.ts).
  const row = await read.byKey<StoredKeyRow>(Prisma.sql`
    SELECT ${keyColumns}, n.id AS network_id, n.name AS network_name, n.identifier_type, n.time_zone, n.auto_stop_after_hours
    FROM api_keys k JOIN networks n ON n.id = k.network_id
    WHERE k.hash = ${hash}`);
  if (!row) return null;
  return {
    ...keyOfRow(row),
    network: {
      id: Number(row.network_id),
      name: row.network_name,
      identifierType: row.identifier_type,
      timeZone: row.time_zone,
      autoStopAfterHours: row.auto_stop_after_hours === null ? null : Number(row.auto_stop_after_hours),
    },
  };
}

async function keyById(read: ReadSql, networkId: number, keyId: number): Promise<KeyRecord | null> {
  const row = await read.byKey<KeyRow>(Prisma.sql`SELECT ${keyColumns} FROM api_keys k WHERE k.id = ${keyId} AND k.network_id = ${networkId}`);
  return row ? keyOfRow(row) : null;
}

async function networkKeys(read: ReadSql, networkId: number): Promise<KeyRecord[]> {
  // Ids grow with time: newest first without reading creation times.
  const rows = await read<KeyRow>(Prisma.sql`SELECT ${keyColumns} FROM api_keys k WHERE k.network_id = ${networkId} ORDER BY k.id DESC`);
  return rows.map(keyOfRow);
}

/**
 * Origins of the keys valid at `now`. Instants compare as text on SQLite: its migration keeps them
 * in the app's one text (*_api_key_scopes). Every key is read (a preflight carries no key to
 * narrow it); keys with origins are few, and the caller keeps the answer.
 */
async function listedOrigins(read: ReadSql, now: Date): Promise<Set<string>> {
  const rows = await read<{ origins: string }>(Prisma.sql`
    SELECT k.origins FROM api_keys k
    WHERE k.origins <> '' AND (k.revoked_at IS NULL OR k.revoked_at > ${now}) AND (k.expires_at IS NULL OR k.expires_at > ${now})`);
  return new Set(rows.flatMap((row) => originsOf(row.origins)));
}

// ---- Changes ----

const nameTaken = (name: string) =>
  conflict(`The network has an unrevoked key named "${name}" already: choose another name, or revoke that key first.`);


/** The advisory lock space of "a network's keys" (PostgreSQL's two-key form: this, the network id). */
const networkKeysLock = 0x76726b31;

/**
 * Runs `work` in a transaction (the caller's, when the store is a transaction's: a key's change
 * and its event commit together) in which no other process changes the network's keys, with the
 * transaction's writes: its reads that must see them go through them too.
 * PostgreSQL: a transaction-scoped advisory lock per network, taken first (unlike a lock of the
 * network's row, it does not wait for writes of vehicles, whose triggers update that row).
 * SQLite: the writer's lock, which the transaction (BEGIN DEFERRED) takes at its first write:
 * `work` must write before it reads, or a commit of another connection in between makes that
 * write fail (SQLITE_BUSY_SNAPSHOT) instead of waiting.
 */
function withNetworkKeysLocked<T>(transaction: WriteTransaction, provider: DatabaseProvider, networkId: number, work: (write: WriteSql) => Promise<T>): Promise<T> {
  return transaction(async (write) => {
    if (provider === "postgresql") await write.returning(Prisma.sql`SELECT 1 AS locked FROM pg_advisory_xact_lock(${networkKeysLock}, ${networkId})`);
    return work(write);
  });
}

const returnedKeyColumns = Prisma.raw("id, name, prefix, scopes, origins, created_at, expires_at, revoked_at, last_used_at");

async function insertKey(write: WriteSql, networkId: number, key: NewKey, now: Date): Promise<KeyRecord> {
  const data = newKeyData(key, now);
  const [row] = await write.returning<KeyRow>(Prisma.sql`
    INSERT INTO api_keys (network_id, name, prefix, hash, scopes, origins, created_at, expires_at)
    VALUES (${networkId}, ${data.name}, ${data.prefix}, ${data.hash}, ${data.scopes}, ${data.origins}, ${data.createdAt}, ${data.expiresAt})
    RETURNING ${returnedKeyColumns}`);
  return keyOfRow(row);
}

async function createKey(transaction: WriteTransaction, provider: DatabaseProvider, networkId: number, key: NewKey, now: Date): Promise<KeyRecord> {
  let created: KeyRecord;
  try {
    created = await withNetworkKeysLocked(transaction, provider, networkId, async (write) => {
      // Written first (see withNetworkKeysLocked), then counted: too many rolls it back.
      const row = await insertKey(write, networkId, key, now);
      const [counted] = await write.returning<{ unrevoked: number | string }>(Prisma.sql`
        SELECT COUNT(*) AS unrevoked FROM api_keys WHERE network_id = ${networkId} AND revoked_at IS NULL`);
      if (Number(counted.unrevoked) > maxUnrevokedKeys) {
        throw conflict(`The network has ${maxUnrevokedKeys} unrevoked keys, the most it may hold: revoke one first.`);
      }
      return row;
    });
  } catch (error) {
    // The index api_keys_one_unrevoked_name_per_network (the hash's is never hit by a random secret).
    if (isUniqueViolation(error)) throw nameTaken(key.name);
    throw error;
  }
  noteKeyChangeInThisProcess();
  return created;
}

async function revokeKey(read: ReadSql, write: WriteSql, networkId: number, keyId: number, at: Date): Promise<{ key: KeyRecord; changed: boolean } | null> {
  // A key revoked before `at` keeps its time; one whose grace ends later ends at `at` instead.
  const [changed] = await write.returning<KeyRow>(Prisma.sql`
    UPDATE api_keys SET revoked_at = ${at}
    WHERE id = ${keyId} AND network_id = ${networkId} AND (revoked_at IS NULL OR revoked_at > ${at})
    RETURNING ${returnedKeyColumns}`);
  if (changed) {
    noteKeyChangeInThisProcess();
    return { key: keyOfRow(changed), changed: true };
  }
  const unchanged = await keyById(read, networkId, keyId);
  return unchanged ? { key: unchanged, changed: false } : null;
}

async function replaceKey(
  transaction: WriteTransaction,
  provider: DatabaseProvider,
  networkId: number,
  keyId: number,
  secret: { prefix: string; hash: string },
  at: Date,
  now: Date,
): Promise<{ replaced: KeyRecord; created: KeyRecord } | null> {
  let replacement: { replaced: KeyRecord; created: KeyRecord } | null;
  try {
    replacement = await withNetworkKeysLocked(transaction, provider, networkId, async (write) => {
      // Revoked first (a write, see withNetworkKeysLocked): none when it is not the network's
      // unrevoked key, or was revoked meanwhile.
      const [row] = await write.returning<KeyRow>(Prisma.sql`
        UPDATE api_keys SET revoked_at = ${at} WHERE id = ${keyId} AND network_id = ${networkId} AND revoked_at IS NULL
        RETURNING ${returnedKeyColumns}`);
      if (!row) return null;
      const replaced = keyOfRow(row);
      // Its predecessors of the same name still in a grace period end no later than it: a
      // replacement without grace (a leaked key) ends every earlier secret of that key at once.
      await write.execute(Prisma.sql`
        UPDATE api_keys SET revoked_at = ${at} WHERE network_id = ${networkId} AND name = ${replaced.name} AND revoked_at > ${at}`);
      const created = await insertKey(
        write,
        networkId,
        { name: replaced.name, prefix: secret.prefix, hash: secret.hash, scopes: replaced.scopes, origins: replaced.origins, expiresAt: replaced.expiresAt },
        now,
      );
      return { replaced, created };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict("The key was changed meanwhile: list the network's keys and try again.");
    throw error;
  }
  if (replacement === null) return null;
  noteKeyChangeInThisProcess();
  return replacement;
}

const minuteMs = 60_000;

async function touchKey(write: WriteSql, keyId: number, at: Date): Promise<void> {
  const minute = new Date(Math.floor(at.getTime() / minuteMs) * minuteMs);
  // Never moved back: processes write the minute they saw, in any order. Not a key change: no
  // note here, and PostgreSQL's trigger does not announce it (migration *_api_key_scopes).
  await write.execute(Prisma.sql`
    UPDATE api_keys SET last_used_at = ${minute} WHERE id = ${keyId} AND (last_used_at IS NULL OR last_used_at < ${minute})`);
}

export function apiKeyStore(read: ReadSql, write: WriteSql, transaction: WriteTransaction, provider: DatabaseProvider): ApiKeyStore {
  /** Last uses being written (nobody waits for them: src/resolvers/admittedKeys.ts). */
  const touching = new Set<Promise<void>>();
  return {
    byHash: (hash) => storedKey(read, hash),
    list: (networkId) => networkKeys(read, networkId),
    byId: (networkId, keyId) => keyById(read, networkId, keyId),
    create: (networkId, key, now) => createKey(transaction, provider, networkId, key, now),
    revoke: (networkId, keyId, at) => revokeKey(read, write, networkId, keyId, at),
    replace: (networkId, keyId, secret, at, now) => replaceKey(transaction, provider, networkId, keyId, secret, at, now),
    touch: (keyId, at) => {
      const written = touchKey(write, keyId, at).finally(() => touching.delete(written));
      touching.add(written);
      return written;
    },
    touchesWritten: async () => void (await Promise.allSettled([...touching])),
    listedOrigins: (now) => listedOrigins(read, now),
  };
}
