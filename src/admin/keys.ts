// The admin command's `key` commands: make, list and revoke a network's API keys. A key is shown
// as JSON without its hash; its secret only when it is made (`key create`, `network create`,
// `network regenerate-key`).
import type { Database } from "../db/client";
import { createKey, listKeys, revokeKey, type KeyInput, type KeyRecord } from "../resolvers/apiKeys";
import { AdminError } from "./adminError";
import { operatorKey } from "../context";
import type { ChangeScope } from "../events/record";

/** A key as the admin command prints it: instants as ISO text, never its hash. */
export const keyView = (key: KeyRecord) => ({
  id: key.id,
  name: key.name,
  prefix: key.prefix,
  scopes: key.scopes,
  origins: key.origins,
  expiresAt: key.expiresAt?.toISOString() ?? null,
  createdAt: key.createdAt.toISOString(),
  lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
  revokedAt: key.revokedAt?.toISOString() ?? null,
});

type Keys = Database;

/** A change made by the admin command: the operator's standing, recorded as the admin (src/events/record.ts). */
export const adminScope = (db: Database, networkId: number, now: Date): ChangeScope => ({ db, network: { id: networkId }, key: operatorKey, now: () => now });

/** Refuses an unknown network by its id (else a key of it would be "not found", which says less). */
async function existingNetwork(db: Keys, networkId: number): Promise<number> {
  const network = await db.prisma.network.findUnique({ where: { id: networkId }, select: { id: true } });
  if (!network) throw new AdminError(`No network with id ${networkId}.`);
  return network.id;
}

export async function createNetworkKey(db: Keys, networkId: number, input: KeyInput, now: Date) {
  const { key, apiKey } = await createKey(adminScope(db, await existingNetwork(db, networkId), now), input);
  return { key: keyView(key), apiKey };
}

export async function listNetworkKeys(db: Keys, networkId: number) {
  return { keys: (await listKeys(db.apiKeys, await existingNetwork(db, networkId))).map(keyView) };
}

/** Without --grace the key is revoked at once: a revoked key is most often a leaked one. */
export async function revokeNetworkKey(db: Keys, networkId: number, keyId: number, graceSeconds: number | undefined, now: Date) {
  return { key: keyView(await revokeKey(adminScope(db, await existingNetwork(db, networkId), now), keyId, graceSeconds ?? 0)) };
}
