// Row generators for every table, in column order of tables.ts. Bulk tables are generators so
// the seed streams them in chunks instead of holding millions of rows in memory.
import { generateApiKey } from "../../src/resolvers/apiKeys";
import { searchTextOf, type VehicleChanges } from "../../src/resolvers/vehicleInput";
import type { PlannedNetwork } from "./networkPlan";
import type { Random } from "./random";
import { vehicleRow, type Row } from "./tables";
import { vehicleValues } from "./vehicleValues";
import * as words from "./vocabulary";

const minute = 60_000;
const hour = 60 * minute;
const day = 24 * hour;
/** Dutytime and records spread over this window before the seed's "now". */
export const historyDays = 60;

export function networkRows(plan: PlannedNetwork[], random: Random, now: number): Row[] {
  return plan.map((network) => [
    network.id,
    `${random.pick(words.networkPlaces)} ${random.pick(words.networkKinds)} ${network.id}`,
    "steam",
    0,
    now - random.between(400, 900) * day,
  ]);
}

/** One key per network; the plain keys are returned for the keys file (only hashes are stored). */
export function apiKeyRows(plan: PlannedNetwork[], now: number): { rows: Row[]; keys: Map<number, string> } {
  const keys = new Map<number, string>();
  const rows = plan.map((network, index): Row => {
    const issued = generateApiKey();
    keys.set(network.id, issued.apiKey);
    return [index + 1, network.id, issued.prefix, issued.hash, now - 400 * day, null];
  });
  return { rows, keys };
}

/** The network of each vehicle id, shuffled: a network's vehicles interleave with the others' as in real use. */
export function rowNetworks(counts: Array<{ id: number; rows: number }>, random: Random): Int32Array {
  const total = counts.reduce((sum, c) => sum + c.rows, 0);
  const order = new Int32Array(total);
  let at = 0;
  for (const { id, rows } of counts) {
    order.fill(id, at, at + rows);
    at += rows;
  }
  return random.shuffle(order);
}

/** Vehicles created over two years, in id order; their field values from vehicleValues.ts. */
export function* vehicleRows(networkOf: Int32Array, random: Random, now: number): Generator<Row> {
  const span = 730 * day;
  const start = now - span;
  for (let i = 0; i < networkOf.length; i++) {
    const id = i + 1;
    const fields = vehicleValues(random, id, now);
    const createdAt = Math.min(now, Math.floor(start + (span * i) / networkOf.length + random.int(hour)));
    const updatedAt = random.chance(0.3) ? createdAt + random.int(now - createdAt + 1) : createdAt;
    yield vehicleRow({ id, networkId: networkOf[i], fields, searchText: searchTextOf(fields as VehicleChanges), createdAt, updatedAt });
  }
}

/** Officer ids are dense: network after network, `perNetwork` each. */
export const officerIdentifier = (officerId: number) => `steam:1100001${officerId.toString(16).padStart(8, "0")}`;

export function* officerRows(plan: PlannedNetwork[], perNetwork: number, random: Random, now: number): Generator<Row> {
  let id = 0;
  for (const network of plan) {
    for (let k = 0; k < perNetwork; k++) {
      id++;
      yield [id, network.id, officerIdentifier(id), words.personName(random), now - random.between(historyDays, 400) * day];
    }
  }
}

/**
 * Each officer's history, walking back from now: maybe one open entry (on duty now, at most one
 * per officer as the partial unique index demands), then `closed` finished shifts over 60 days.
 */
export function* dutytimeRows(
  plan: PlannedNetwork[],
  perNetwork: number,
  closed: number,
  onDutyShare: number,
  random: Random,
  now: number,
): Generator<Row> {
  const spacing = (historyDays * day) / Math.max(1, closed);
  let id = 0;
  let officerId = 0;
  for (const network of plan) {
    for (let k = 0; k < perNetwork; k++) {
      officerId++;
      let cursor = now;
      if (random.chance(onDutyShare)) {
        cursor = now - random.between(10 * minute, 8 * hour);
        yield [++id, network.id, officerId, cursor, null];
      }
      for (let n = 0; n < closed; n++) {
        const end = cursor - Math.floor(spacing * (0.1 + 0.4 * random.next()));
        const start = end - Math.max(5 * minute, Math.floor(spacing * (0.1 + 0.3 * random.next())));
        yield [++id, network.id, officerId, start, end];
        cursor = start;
      }
    }
  }
}

/** Records of one kind: created over the last 60 days, `unknownShare` of them with no creation time. */
export function* recordRows(
  networkOf: Int32Array,
  text: (random: Random) => string | null,
  unknownShare: number,
  random: Random,
  now: number,
): Generator<Row> {
  for (let i = 0; i < networkOf.length; i++) {
    const createdAt = random.chance(unknownShare) ? null : now - random.int(historyDays * day);
    yield [i + 1, networkOf[i], text(random), createdAt];
  }
}

export const missionTitle = (random: Random) => (random.chance(0.95) ? random.pick(words.missionTitles) : null);
export const recordPerson = (random: Random) => (random.chance(0.97) ? words.personName(random) : null);
