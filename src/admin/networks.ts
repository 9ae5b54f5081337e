// Network administration: create a network with its first key, replace a key, list.
import type { Database, Prisma } from "../db/client";
import { keyOfModel, newKeyData } from "../db/apiKeys";
import { noteKeyChangeInThisProcess } from "../db/keyChanges";
import { firstKeyScopes } from "../model/scopes";
import { generateApiKey, isValidAt, regenerateKey } from "../resolvers/apiKeys";
import { checkScopes } from "../resolvers/keyInput";
import { AdminError } from "./adminError";
import { keyView } from "./keys";
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
  prisma: Prisma,
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
  const { apiKeys, ...network } = await prisma.network.create({
    data: {
      name,
      identifierType: options.identifierType,
      keyGraceSeconds: options.graceSeconds,
      createdAt: now,
      apiKeys: {
        create: newKeyData({ name: firstKeyName, prefix: issued.prefix, hash: issued.hash, scopes, origins: [], expiresAt: null }, now),
      },
    },
    select: { id: true, name: true, identifierType: true, timeZone: true, autoStopAfterHours: true, apiKeys: true },
  });
  noteKeyChangeInThisProcess();
  return { network, key: keyView(keyOfModel(apiKeys[0])), apiKey: issued.apiKey };
}

/** Most hours the auto-stop rule may allow: a year (an entry open longer is a mistake of some kind). */
export const maxAutoStopHours = 8760;

export interface NetworkSettings {
  /** An IANA time zone. */
  timeZone?: string;
  /** Hours, or null: never. */
  autoStopAfterHours?: number | null;
}

/** Changes the network's report settings; every process sees them with its next request (as a key change). */
export async function updateNetworkSettings(prisma: Prisma, networkId: number, settings: NetworkSettings) {
  const check = new Validator();
  const timeZone = settings.timeZone === undefined ? undefined : checkTimeZone(check, "--time-zone", settings.timeZone);
  const hours = settings.autoStopAfterHours;
  if (hours != null && (!Number.isInteger(hours) || hours < 1 || hours > maxAutoStopHours)) {
    check.fail("--auto-stop-after", `--auto-stop-after must be a whole number of hours from 1 to ${maxAutoStopHours}, or off.`);
  }
  if (Object.keys(check.errors).length > 0) throw new AdminError(Object.values(check.errors).flat().join("\n"), 2);
  if (timeZone === undefined && hours === undefined) throw new AdminError("Nothing to change: give --time-zone or --auto-stop-after.", 2);
  const { count } = await prisma.network.updateMany({ where: { id: networkId }, data: { timeZone, autoStopAfterHours: hours } });
  if (count === 0) throw new AdminError(`No network with id ${networkId}.`);
  const network = await prisma.network.findUniqueOrThrow({ where: { id: networkId }, select: { id: true, name: true, timeZone: true, autoStopAfterHours: true } });
  return { network };
}

/**
 * Replaces the key `keyId` (null: the network's one unrevoked key) by a new one with its name,
 * scopes and origins. Without --grace, the network's own grace period (set at creation) applies.
 */
export async function regenerateNetworkKey(
  db: Pick<Database, "prisma" | "apiKeys">,
  networkId: number,
  graceSeconds: number | undefined,
  now: Date,
  keyId: number | null = null,
) {
  const network = await db.prisma.network.findUnique({ where: { id: networkId } });
  if (!network) throw new AdminError(`No network with id ${networkId}.`);
  const { key, apiKey } = await regenerateKey(db.apiKeys, networkId, keyId, graceSeconds ?? network.keyGraceSeconds, now);
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
