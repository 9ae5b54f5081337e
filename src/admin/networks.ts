// Network administration: create a network with its first key, regenerate keys, list.
import type { Database, Prisma } from "../db/client";
import { generateApiKey, regenerateApiKey } from "../resolvers/apiKeys";
import { AdminError } from "./adminError";
import { checkTimeZone } from "../resolvers/calendar";
import { Validator } from "../resolvers/validation";

const identifierTypePattern = /^[A-Za-z0-9_.-]{1,32}$/;

export async function createNetwork(
  prisma: Prisma,
  options: { name: string; identifierType: string; graceSeconds: number },
  now: Date,
) {
  const name = options.name.trim();
  if (name === "" || name.length > 255) throw new AdminError("--name must be 1 to 255 characters.");
  if (!identifierTypePattern.test(options.identifierType)) {
    throw new AdminError("--identifier-type must be 1 to 32 letters, digits, '.', '_' or '-' (e.g. steam).");
  }
  const issued = generateApiKey();
  const network = await prisma.network.create({
    data: {
      name,
      identifierType: options.identifierType,
      keyGraceSeconds: options.graceSeconds,
      createdAt: now,
      apiKeys: { create: { prefix: issued.prefix, hash: issued.hash, createdAt: now } },
    },
    select: { id: true, name: true, identifierType: true, timeZone: true, autoStopAfterHours: true },
  });
  return { network, apiKey: issued.apiKey };
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

/** Without --grace, the network's own grace period (set at creation) applies. */
export async function regenerateNetworkKey(db: Pick<Database, "prisma" | "apiKeys">, networkId: number, graceSeconds: number | undefined, now: Date) {
  const network = await db.prisma.network.findUnique({ where: { id: networkId } });
  if (!network) throw new AdminError(`No network with id ${networkId}.`);
  const apiKey = await regenerateApiKey(db.apiKeys, networkId, graceSeconds ?? network.keyGraceSeconds, now);
  return { apiKey };
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
        prefix: key.prefix,
        createdAt: key.createdAt.toISOString(),
        expiresAt: key.expiresAt?.toISOString() ?? null,
        valid: !key.expiresAt || key.expiresAt > now,
      })),
    })),
  };
}
