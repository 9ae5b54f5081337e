// The rules for vehicle fields, in the request field names of SPEC 2.1.
import { Validator, isCalendarDate, messages, textFault } from "./validation";

/** Vehicle fields as clients send them (create, PUT and PATCH alike). */
export interface VehicleInput {
  plate?: string | null;
  cartyp?: string | null;
  car?: string | null;
  owner?: string | null;
  tuv?: string | null;
  comment?: string | null;
  color?: string | null;
  wanted?: boolean | null;
  wanted_reason?: string | null;
  synced?: boolean | null;
  sync_id?: string | null;
}

/** The stored columns a request sets. */
export interface VehicleChanges {
  plate?: string;
  carType?: string | null;
  car?: string | null;
  owner?: string | null;
  generalInspection?: string | null;
  comment?: string | null;
  color?: string | null;
  wanted?: boolean;
  wantedReason?: string | null;
  synced?: boolean;
  syncId?: string | null;
}

const optionalTexts = [
  ["cartyp", "carType", 255],
  ["car", "car", 255],
  ["owner", "owner", 255],
  ["color", "color", 255],
  ["sync_id", "syncId", 255],
  ["comment", "comment", 5000],
  ["wanted_reason", "wantedReason", 1000],
] as const;

const flags = [
  ["wanted", "wanted"],
  ["synced", "synced"],
] as const;

/**
 * Validates the fields that were sent and returns the columns to write. Fields left out stay
 * as they are; `required` makes `plate` mandatory (create).
 */
export function vehicleChanges(input: VehicleInput, { required }: { required: boolean }): VehicleChanges {
  const check = new Validator();
  const changes: VehicleChanges = {};

  if (input.plate === undefined || input.plate === null) {
    if (required) check.fail("plate", messages.required("plate"));
    else if (input.plate === null) check.fail("plate", messages.string("plate"));
  } else {
    const plate = input.plate.trim();
    const fault = plate === "" ? messages.required("plate") : textFault("plate", plate, 32);
    if (fault) check.fail("plate", fault);
    else changes.plate = plate;
  }

  for (const [field, column, max] of optionalTexts) {
    const value = input[field];
    if (value === undefined) continue;
    const fault = value === null ? null : textFault(field, value, max);
    if (fault) check.fail(field, fault);
    else changes[column] = value;
  }

  if (input.tuv !== undefined) {
    if (input.tuv !== null && !isCalendarDate(input.tuv)) check.fail("tuv", messages.date("tuv"));
    else changes.generalInspection = input.tuv;
  }

  for (const [field, column] of flags) {
    const value = input[field];
    if (value === undefined) continue;
    if (value === null) check.fail(field, messages.boolean(field));
    else changes[column] = value;
  }

  check.throwIfInvalid();
  return changes;
}

type Searchable = Pick<VehicleChanges, "plate" | "car" | "carType" | "owner" | "color" | "wantedReason">;

/** Joins the searched fields with a separator no search term can contain. */
export const searchSeparator = "\u001f";

/**
 * Search runs as SQL LIKE '%needle%' (Prisma `contains`), where % and _ are wildcards and \ may
 * escape. Both the stored text and the needle spell those three characters as private-use
 * characters instead, so they match literally on every database; lower-casing in JavaScript
 * makes the match case-insensitive for every alphabet (SQLite's LOWER knows ASCII only).
 */
const likeSpecial: Record<string, string> = { "%": "\ue000", _: "\ue001", "\\": "\ue002" };
const searchable = (text: string) =>
  text
    .toLowerCase()
    .replace(/[\u001f\ue000-\ue002]/g, "")
    .replace(/[%_\\]/g, (special) => likeSpecial[special]);

export function searchTextOf(vehicle: Searchable): string {
  return [vehicle.plate, vehicle.car, vehicle.carType, vehicle.owner, vehicle.color, vehicle.wantedReason]
    .map((value) => searchable(value ?? ""))
    .join(searchSeparator);
}

/** The needle for a search term, spelled like the stored search text. */
export const searchNeedle = (term: string) => searchable(term);
