// Network administration: create a network with its first key, replace a key, list.
import type { Database, Prisma } from "../db/client";
import { Prisma as Sql } from "../generated/prisma/client";
import { announceCommitted, changeWithEvents, changesBetween } from "../events/record";
import type { AppendedEvent } from "../db/store";
import { firstKeyScopes } from "../model/scopes";
import { createKey, generateApiKey, isValidAt, regenerateKey } from "../resolvers/apiKeys";
import { checkScopes } from "../resolvers/keyInput";
import { AdminError } from "./adminError";
import { adminScope, keyView } from "./keys";
import { checkTimeZone } from "../resolvers/calendar";
import { Validator } from "../resolvers/validation";

const identifierTypePattern = /^[A-Za-z0-9_.-]{1,32}$/;

/** The first key's name: the one `network regenerate-key` replaces while it is the network's only key. */
export const firstKeyName = "first key";

/**
 * Creates a network with its first key, in one statement: a network never exists without a key.
 * The key holds `scopes` (default: read write admin, src/model/scopes.ts's firstKeyScopes).
 */
export async function createNetwork(
  db: Database,
  options: { name: string; identifierType: string; graceSeconds: number; scopes?: readonly string[] },
  now: Date,
) {
  const name = options.name.trim();
  if (name === "" || name.length > 255) throw new AdminError("--name must be 1 to 255 characters.");
  if (!identifierTypePattern.test(options.identifierType)) {
    throw new AdminError("--identifier-type must be 1 to 32 letters, digits, '.', '_' or '-' (e.g. steam).");
  }
  const check = new Validator();
  const scopes = checkScopes(check, options.scopes ?? firstKeyScopes);
  check.throwIfInvalid();
  const issued = generateApiKey();
  const committed: AppendedEvent[] = [];
  const created = await db.inTransaction(async (tx) => {
    const [row] = await tx.write.returning<NetworkRow>(Sql.sql`
      INSERT INTO networks (name, identifier_type, key_grace_seconds, created_at)
      VALUES (${name}, ${options.identifierType}, ${options.graceSeconds}, ${now})
      RETURNING ${networkColumns}`);
    const network = networkOf(row);
    const within = { tx, committed };
    const key = await createKey({ ...adminScope(db, network.id, now), within }, { name: firstKeyName, scopes, origins: [], expiresAt: null }, issued);
    return { network, key };
  });
  announceCommitted(db, committed);
  const { eventRetentionDays: _retention, ...network } = created.network;
  return { network, key: keyView(created.key.key), apiKey: issued.apiKey };
}

/** A network's columns as the admin command shows them. */
const networkColumns = Sql.raw("id, name, identifier_type, time_zone, auto_stop_after_hours, event_retention_days");

interface NetworkRow {
  id: number | string;
  name: string;
  identifier_type: string;
  time_zone: string;
  auto_stop_after_hours: number | string | null;
  event_retention_days: number | string;
}

const networkOf = (row: NetworkRow) => ({
  id: Number(row.id),
  name: row.name,
  identifierType: row.identifier_type,
  timeZone: row.time_zone,
  autoStopAfterHours: row.auto_stop_after_hours === null ? null : Number(row.auto_stop_after_hours),
  eventRetentionDays: Number(row.event_retention_days),
});

/** Most hours the auto-stop rule may allow: a year (an entry open longer is a mistake of some kind). */
export const maxAutoStopHours = 8760;

export interface NetworkSettings {
  /** An IANA time zone. */
  timeZone?: string;
  /** Hours, or null: never. */
  autoStopAfterHours?: number | null;
  /** Days events are kept (src/events/retention.ts). */
  eventRetentionDays?: number;
}

/** Most days events may be kept: ten years. */
const maxEventRetentionDays = 3650;

/** The settings' columns. */
const settingColumns = { timeZone: "time_zone", autoStopAfterHours: "auto_stop_after_hours", eventRetentionDays: "event_retention_days" } as const;

/**
 * Changes the network's settings, recording `network.updated` with what changed; every process
 * sees them with its next request (as a key change).
 */
export async function updateNetworkSettings(db: Database, networkId: number, settings: NetworkSettings, now: Date) {
  const check = new Validator();
  const timeZone = settings.timeZone === undefined ? undefined : checkTimeZone(check, "--time-zone", settings.timeZone);
  const hours = settings.autoStopAfterHours;
  if (hours != null && (!Number.isInteger(hours) || hours < 1 || hours > maxAutoStopHours)) {
    check.fail("--auto-stop-after", `--auto-stop-after must be a whole number of hours from 1 to ${maxAutoStopHours}, or off.`);
  }
  const days = settings.eventRetentionDays;
  if (days !== undefined && (!Number.isInteger(days) || days < 1 || days > maxEventRetentionDays)) {
    check.fail("--event-retention-days", `--event-retention-days must be a whole number of days from 1 to ${maxEventRetentionDays}.`);
  }
  if (Object.keys(check.errors).length > 0) throw new AdminError(Object.values(check.errors).flat().join("\n"), 2);
  const wanted = { timeZone, autoStopAfterHours: hours, eventRetentionDays: days };
  const fields = (Object.keys(settingColumns) as (keyof typeof settingColumns)[]).filter((field) => wanted[field] !== undefined);
  if (fields.length === 0) throw new AdminError("Nothing to change: give --time-zone, --auto-stop-after or --event-retention-days.", 2);
  const network = await changeWithEvents(adminScope(db, networkId, now), async (tx, record) => {
    // Written first, so that SQLite's transaction holds the writer's lock before it reads.
    const [before] = await tx.write.returning<NetworkRow>(Sql.sql`
      UPDATE networks SET event_sequence = event_sequence WHERE id = ${networkId} RETURNING ${networkColumns}`);
    if (!before) throw new AdminError(`No network with id ${networkId}.`);
    const sets = fields.map((field) => Sql.sql`${Sql.raw(settingColumns[field])} = ${wanted[field] ?? null}`);
    const [after] = await tx.write.returning<NetworkRow>(Sql.sql`
      UPDATE networks SET ${Sql.join(sets)} WHERE id = ${networkId} RETURNING ${networkColumns}`);
    const changes = changesBetween(networkOf(before), networkOf(after), fields);
    if (Object.keys(changes).length > 0) record("network.updated", networkId, { changes });
    return networkOf(after);
  });
  return { network };
}

/**
 * Replaces the key `keyId` (null: the network's one unrevoked key) by a new one with its name,
 * scopes and origins. Without --grace, the network's own grace period (set at creation) applies.
 */
export async function regenerateNetworkKey(
  db: Database,
  networkId: number,
  graceSeconds: number | undefined,
  now: Date,
  keyId: number | null = null,
) {
  const network = await db.prisma.network.findUnique({ where: { id: networkId } });
  if (!network) throw new AdminError(`No network with id ${networkId}.`);
  const { key, apiKey } = await regenerateKey(adminScope(db, networkId, now), keyId, graceSeconds ?? network.keyGraceSeconds);
  return { key: keyView(key), apiKey };
}

export async function listNetworks(prisma: Prisma, now: Date) {
  const networks = await prisma.network.findMany({
    orderBy: { id: "asc" },
    include: { apiKeys: { orderBy: { id: "asc" } }, _count: { select: { vehicles: true, officers: true } } },
  });
  return {
    networks: networks.map((network) => ({
      id: network.id,
      name: network.name,
      identifierType: network.identifierType,
      keyGraceSeconds: network.keyGraceSeconds,
      timeZone: network.timeZone,
      autoStopAfterHours: network.autoStopAfterHours,
      createdAt: network.createdAt.toISOString(),
      vehicles: network._count.vehicles,
      officers: network._count.officers,
      apiKeys: network.apiKeys.map((key) => ({
        id: key.id,
        name: key.name,
        prefix: key.prefix,
        createdAt: key.createdAt.toISOString(),
        expiresAt: key.expiresAt?.toISOString() ?? null,
        revokedAt: key.revokedAt?.toISOString() ?? null,
        valid: isValidAt(key, now),
      })),
    })),
  };
}
