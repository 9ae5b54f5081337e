// A seeded vehicle's values, for every field of the field table (src/model/vehicleFields.ts).
// The fields of today have realistic generators, looked up by response name (makes for carType,
// ...); a field the table gains gets values of its kind without an edit here, and every text
// stays within its field's max.
import { vehicleFields, type VehicleFieldKind, type VehicleFieldSpec, type VehicleField } from "../../src/model/vehicleFields";
import type { Random } from "./random";
import * as words from "./vocabulary";

type Value = string | boolean | null;

/** A vehicle's field values by response name. */
export type VehicleValues = Record<string, Value>;

/** What a generator may use: the PRNG, the values drawn before it, the vehicle's id, the seed's now. */
interface Draw {
  random: Random;
  values: VehicleValues;
  id: number;
  now: number;
}

type Generate = (draw: Draw) => Value;

const day = 24 * 60 * 60_000;
const isoDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);
/** A date from a year ago to two years ahead (an inspection date, say). */
const someDate = (random: Random, now: number) => isoDate(now + random.between(-365, 730) * day);

function plate(random: Random): string {
  const letters = words.plateLetters;
  const pair = letters[random.int(letters.length)] + (random.chance(0.8) ? letters[random.int(letters.length)] : "");
  const suffix = random.chance(0.02) ? random.pick(["E", "H"]) : "";
  return `${random.pick(words.plateCodes)}-${pair} ${random.between(1, 9999)}${suffix}`;
}

/**
 * Realistic values of the fields of today, by response name (a name the table drops fails to
 * compile here). They are drawn in this order, which is the order of the seed before the field
 * table: the same --seed still gives the same data set, so results stay comparable.
 */
const realistic: Partial<Record<VehicleField["response"], Generate>> = {
  plate: ({ random }) => plate(random),
  carType: ({ random }) => (random.chance(0.95) ? random.pick(words.makes) : null),
  car: ({ random }) => (random.chance(0.92) ? random.pick(words.models) : null),
  owner: ({ random }) => (random.chance(0.94) ? words.personName(random) : null),
  color: ({ random }) => (random.chance(0.88) ? random.pick(words.colors) : null),
  // ~2% wanted, most of them with a reason.
  wanted: ({ random }) => random.chance(0.02),
  wantedReason: ({ random, values }) => (values.wanted && random.chance(0.9) ? random.pick(words.wantedReasons) : null),
  generalInspection: ({ random, now }) => (random.chance(0.3) ? someDate(random, now) : null),
  comment: ({ random }) => (random.chance(0.15) ? random.pick(words.comments) : null),
  synced: ({ random }) => random.chance(0.4),
  syncId: ({ values, id }) => (values.synced ? `sync-${id.toString(36)}` : null),
};

/** Values of a field without a generator of its own, by its kind. */
const generic: Record<VehicleFieldKind, Generate> = {
  plate: ({ random }) => plate(random),
  text: ({ random }) => (random.chance(0.5) ? `${random.pick(words.anyWords)} ${random.pick(words.anyWords)}` : null),
  date: ({ random, now }) => (random.chance(0.3) ? someDate(random, now) : null),
  flag: ({ random }) => random.chance(0.1),
};

/** The first `max` characters (code points, as the service counts them) of a text. */
function within(max: number | undefined, text: string): string {
  if (max === undefined || text.length <= max) return text;
  return Array.from(text).slice(0, max).join("");
}

const hasRealistic = (field: VehicleField) => realistic[field.response] !== undefined;

/** Each field's draw: the realistic fields first, in their order, then the others in the table's. */
const draws = [
  ...Object.keys(realistic).flatMap((name) => vehicleFields.filter((field) => field.response === name)),
  ...vehicleFields.filter((field) => !hasRealistic(field)),
].map((field) => {
  const spec: VehicleFieldSpec = field;
  return { name: spec.response, kind: spec.kind, max: spec.max, generate: realistic[field.response] ?? generic[field.kind] };
});

/** The field values of the vehicle with id `id`. */
export function vehicleValues(random: Random, id: number, now: number): VehicleValues {
  const values: VehicleValues = {};
  const draw: Draw = { random, values, id, now };
  for (const { name, kind, max, generate } of draws) {
    let value = generate(draw);
    if (typeof value === "string") {
      value = within(max, value);
      // A plate is stored trimmed (the service's rule), also when cut short.
      if (kind === "plate") value = value.trim();
    }
    values[name] = value;
  }
  return values;
}
