// The rules for vehicle fields, in the request field names of SPEC 2.1, from the field table.
import { vehicleFields, searchableVehicleFields, type VehicleChanges, type VehicleInput } from "../model/vehicleFields";
import { Validator, isCalendarDate, messages, textFault } from "./validation";

export type { VehicleChanges, VehicleInput };

/** What is wrong with one field's value as sent, or null; `value` is not undefined. */
function faultOf(field: (typeof vehicleFields)[number], value: unknown, required: boolean): string | null {
  const name = field.request;
  if (value === null) {
    if (field.kind === "plate") return required ? messages.required(name) : messages.string(name);
    if (field.kind === "flag") return messages.boolean(name);
    return null;
  }
  switch (field.kind) {
    case "plate": {
      const plate = (value as string).trim();
      return plate === "" ? messages.required(name) : textFault(name, plate, field.max);
    }
    case "text":
      return textFault(name, value as string, field.max);
    case "date":
      return isCalendarDate(value as string) ? null : messages.date(name);
    case "flag":
      return null;
  }
}

/**
 * Validates the fields that were sent and returns the columns to write. Fields left out stay
 * as they are; `required` makes `plate` mandatory (create). The values have the input's
 * GraphQL types already (strings and booleans).
 */
export function vehicleChanges(input: VehicleInput, { required }: { required: boolean }): VehicleChanges {
  const check = new Validator();
  const changes: Record<string, unknown> = {};
  for (const field of vehicleFields) {
    const value = input[field.request];
    if (value === undefined) {
      if (required && field.kind === "plate") check.fail(field.request, messages.required(field.request));
      continue;
    }
    const fault = faultOf(field, value, required);
    if (fault) check.fail(field.request, fault);
    else changes[field.response] = field.kind === "plate" ? (value as string).trim() : value;
  }
  check.throwIfInvalid();
  return changes as VehicleChanges;
}

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
    // The separator (a control character, on purpose) and the private-use stand-ins are dropped.
    // eslint-disable-next-line no-control-regex
    .replace(/[\u001f\ue000-\ue002]/g, "")
    .replace(/[%_\\]/g, (special) => likeSpecial[special]);

/** The search text of a vehicle's fields (those not given count as empty). */
export function searchTextOf(vehicle: VehicleChanges): string {
  return searchableVehicleFields.map((field) => searchable((vehicle[field.response] as string | null | undefined) ?? "")).join(searchSeparator);
}

/** The needle for a search term, spelled like the stored search text. */
export const searchNeedle = (term: string) => searchable(term);
