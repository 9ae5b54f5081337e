// Row generators for every table, in column order of tables.ts. Bulk tables are generators so
// the seed streams them in chunks instead of holding millions of rows in memory.
import { scopesColumn } from "../../src/db/apiKeys";
import { generateApiKey } from "../../src/resolvers/apiKeys";
import { searchTextOf, type VehicleChanges } from "../../src/resolvers/vehicleInput";
import type { PlannedNetwork } from "./networkPlan";
import type { SeedOptions } from "./options";
import type { Random } from "./random";
import { vehicleRow, type Row } from "./tables";
import { vehicleValues } from "./vehicleValues";
import * as words from "./vocabulary";

const minute = 60_000;
const hour = 60 * minute;
const day = 24 * hour;
/** Records spread over this window before the seed's "now". */
export const recordDays = 60;
/** How much longer the history10x network's dutytime history is than every other network's. */
export const historyFactor = 10;

/** A network's dutytime history in days: the history10x network's is historyFactor times the others'. */
export const dutytimeDaysOf = (network: PlannedNetwork, days: number) => (network.role === "history10x" ? historyFactor * days : days);

export function networkRows(plan: PlannedNetwork[], dutytimeDays: number, random: Random, now: number): Row[] {
  return plan.map((network) => [
    network.id,
    `${random.pick(words.networkPlaces)} ${random.pick(words.networkKinds)} ${network.id}`,
    "steam",
    0,
    // Before its officers and their dutytime.
    now - (dutytimeDaysOf(network, dutytimeDays) + random.between(90, 500)) * day,
  ]);
}

/**
 * One key per network, as a connector's: it reads and writes (the bench's loads do both). The
 * plain keys are returned for the keys file (only hashes are stored).
 */
export function apiKeyRows(plan: PlannedNetwork[], now: number): { rows: Row[]; keys: Map<number, string> } {
  const keys = new Map<number, string>();
  const rows = plan.map((network, index): Row => {
    const issued = generateApiKey();
    keys.set(network.id, issued.apiKey);
    return [index + 1, network.id, "bench", issued.prefix, issued.hash, scopesColumn(["read", "write"]), "", now - 400 * day, null, null, null];
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

/** An officer's connector identifier, from its id. */
export const officerIdentifier = (officerId: number) => `steam:1100001${officerId.toString(16).padStart(8, "0")}`;

/** An officer as the seed plans it before writing its row and its dutytime. */
export interface PlannedOfficer {
  id: number;
  networkId: number;
  name: string;
  createdAt: number;
  removedAt: number | null;
  /** Its rate of shifts, as a factor of --shifts-per-week. */
  activity: number;
  /** Its dutytime history begins this many days before now (its network's). */
  historyDays: number;
}

/** Officers of a network of `vehicles` vehicles (options.ts, `officers`). */
export const officersOf = (vehicles: number, options: Pick<SeedOptions, "officers" | "maxOfficers" | "referenceSize">) =>
  Math.min(options.maxOfficers, Math.max(1, Math.round(options.officers * Math.sqrt(vehicles / options.referenceSize))));

/**
 * Every network's officers, ids dense network after network in plan order. The history10x
 * network gets the largest network's number of officers and their rates of shifts, one for one,
 * so both hold alike many entries in any recent range.
 */
export function planOfficers(plan: PlannedNetwork[], options: SeedOptions, random: Random, now: number): PlannedOfficer[] {
  const largest = plan.find((network) => network.role === "largest")!;
  const largestCount = officersOf(largest.vehicles, options);
  const activities = Array.from({ length: largestCount }, () => 0.25 + 1.5 * random.next());
  const officers: PlannedOfficer[] = [];
  for (const network of plan) {
    const historyDays = dutytimeDaysOf(network, options.dutytimeDays);
    const count = network.role === "history10x" ? largestCount : officersOf(network.vehicles, options);
    for (let k = 0; k < count; k++) {
      const activity = network.role === "largest" || network.role === "history10x" ? activities[k] : 0.25 + 1.5 * random.next();
      // Removed some time within the history, at least a day ago.
      const removedAt = random.chance(options.removedShare) ? now - day - random.int((historyDays - 1) * day) : null;
      officers.push({
        id: officers.length + 1,
        networkId: network.id,
        name: words.personName(random),
        createdAt: now - (historyDays + random.between(1, 60)) * day,
        removedAt,
        activity,
        historyDays,
      });
    }
  }
  return officers;
}

export function* officerRows(officers: PlannedOfficer[]): Generator<Row> {
  for (const officer of officers) yield [officer.id, officer.networkId, officerIdentifier(officer.id), officer.name, officer.createdAt, officer.removedAt];
}

/**
 * Each officer's history, walking back from now (or its removal): maybe one open entry (on duty
 * now, at most one per officer as the partial unique index demands), then closed shifts of 1 to
 * 10 hours (4 on average), one per `7 days / (shiftsPerWeek * activity)` on average, back to the
 * start of its history. Returned in the order of their start, ids ascending, as a service writes
 * them: a range of time is one stretch of the table, as in real use.
 */
export function dutytimeRows(officers: PlannedOfficer[], options: SeedOptions, random: Random, now: number): { count: number; rows: Iterable<Row> } {
  let capacity = 1 << 16;
  let count = 0;
  let officerOf = new Int32Array(capacity);
  let starts = new Float64Array(capacity);
  let ends = new Float64Array(capacity);
  const push = (officer: number, start: number, end: number) => {
    if (count === capacity) {
      capacity *= 2;
      const grow = <T extends Int32Array | Float64Array>(old: T, next: T) => (next.set(old), next);
      officerOf = grow(officerOf, new Int32Array(capacity));
      starts = grow(starts, new Float64Array(capacity));
      ends = grow(ends, new Float64Array(capacity));
    }
    officerOf[count] = officer;
    starts[count] = start;
    ends[count] = end;
    count++;
  };
  const open = -1;
  for (const officer of officers) {
    const first = now - officer.historyDays * day;
    let cursor = officer.removedAt ?? now;
    if (officer.removedAt === null && random.chance(options.onDutyShare)) {
      cursor = now - random.between(10 * minute, 8 * hour);
      push(officer.id, cursor, open);
    }
    if (options.shiftsPerWeek <= 0) continue;
    const cycle = (7 * day) / (options.shiftsPerWeek * officer.activity);
    // The first closed shift ended anywhere within a cycle before the cursor.
    let gap = Math.max(minute, random.next() * cycle);
    for (;;) {
      const length = Math.floor(hour + 9 * hour * random.next() ** 2);
      const end = Math.floor(cursor - gap);
      const start = end - length;
      if (start < first) break;
      push(officer.id, start, end);
      cursor = start;
      // The next cycle (0.2x to 1.8x the mean) less this shift's length, at least 30 minutes.
      gap = Math.max(30 * minute, cycle * (0.2 + 1.6 * random.next()) - length);
    }
  }
  const order = new Uint32Array(count);
  for (let i = 0; i < count; i++) order[i] = i;
  order.sort((a, b) => starts[a] - starts[b] || a - b);
  const networkOf = new Map(officers.map((officer) => [officer.id, officer.networkId]));
  const rows = (function* () {
    for (let i = 0; i < count; i++) {
      const at = order[i];
      yield [i + 1, networkOf.get(officerOf[at])!, officerOf[at], starts[at], ends[at] === open ? null : ends[at]] as Row;
    }
  })();
  return { count, rows };
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
    const createdAt = random.chance(unknownShare) ? null : now - random.int(recordDays * day);
    yield [i + 1, networkOf[i], text(random), createdAt];
  }
}

export const missionTitle = (random: Random) => (random.chance(0.95) ? random.pick(words.missionTitles) : null);
export const recordPerson = (random: Random) => (random.chance(0.97) ? words.personName(random) : null);
