// Request input checks the floor shares with the service: the value rules are the service's own
// functions (src/resolvers); the type checks SOFA and GraphQL do are written out here, in the
// same order and with the same messages, for the fields of the field table
// (src/model/vehicleFields.ts).
import type { IncomingMessage } from "node:http";
import { validationSummary } from "../../src/errors";
import { characterCount, messages, Validator } from "../../src/resolvers/validation";
import { vehicleFields } from "../../src/model/vehicleFields";
import { vehicleChanges, type VehicleChanges, type VehicleInput } from "../../src/resolvers/vehicleInput";
import { groupings, maxPeriods, type Grouping } from "../../src/resolvers/calendar";
import { sortFields, type SortField, type SortOrder } from "./store";
import { errorBody, HttpError, validationError } from "./respond";

const fail = (errors: Record<string, string[]>) => validationError(validationSummary(errors), errors);

export interface ListArgs {
  search: string | null;
  sortField: SortField | null;
  sortOrder: SortOrder;
  page: number;
  perPage: number;
}

const maxInt = 2 ** 31 - 1;

/** GET /vehicles parameters with their aliases; type errors first, then the resolver's range rules. */
export function listArgs(query: URLSearchParams): ListArgs {
  const check = new Validator();
  const param = (names: string[]) => {
    const name = names.find((candidate) => query.has(candidate));
    return name === undefined ? null : query.get(name)!;
  };
  const integer = (field: string, text: string | null) => {
    if (text === null) return null;
    const value = Number(text);
    if (!/^[+-]?\d{1,15}$/.test(text.trim()) || Math.abs(value) > maxInt) {
      check.fail(field, messages.integer(field));
      return null;
    }
    return value;
  };
  const oneOf = <T extends string>(field: string, text: string | null, values: readonly T[]) => {
    if (text === null) return null;
    if (!(values as readonly string[]).includes(text)) check.fail(field, messages.oneOf(field, values));
    return text as T;
  };
  const searchText = param(["search"]);
  const search = searchText === "" ? null : searchText;
  const sortField = oneOf("sort_field", param(["sort_field", "sortField"]), sortFields);
  const sortOrder = oneOf("sort_order", param(["sort_order", "sortOrder"]), ["asc", "desc"] as const);
  const page = integer("page", param(["page"]));
  const perPage = integer("per_page", param(["per_page", "perPage"]));
  if (Object.keys(check.errors).length > 0) throw fail(check.errors);

  const range = new Validator();
  const args = { search, sortField, sortOrder: sortOrder ?? "asc", page: page ?? 1, perPage: perPage ?? 15 };
  if (args.page < 1) range.fail("page", messages.min("page", 1));
  if (args.perPage < 1 || args.perPage > 100) range.fail("per_page", messages.between("perPage", 1, 100));
  if (search !== null && characterCount(search) > 255) range.fail("search", messages.maxLength("search", 255));
  if (Object.keys(range.errors).length > 0) throw fail(range.errors);
  return args;
}

/** GET /officers parameters (no search, no on_duty: the floor lists every officer): page and per_page as listArgs reads them. */
export function pageArgs(query: URLSearchParams): { page: number; perPage: number } {
  const { page, perPage } = listArgs(new URLSearchParams([...query].filter(([name]) => ["page", "per_page", "perPage"].includes(name))));
  return { page, perPage };
}

export interface DutyHoursArgs {
  from: Date;
  to: Date;
  groupBy: Grouping;
}

/** GET /statistics/duty-hours parameters: from, to (default now), group_by (default DAY), time_zone UTC only. */
export function dutyHoursArgs(query: URLSearchParams, now: Date): DutyHoursArgs {
  const check = new Validator();
  const param = (names: string[]) => {
    const name = names.find((candidate) => query.has(candidate));
    return name === undefined ? null : query.get(name)!;
  };
  const instant = (field: string, text: string | null) => {
    const value = text === null ? NaN : Date.parse(text);
    if (text !== null && (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(text) || Number.isNaN(value))) check.fail(field, "DateTime must be an ISO-8601 date and time.");
    return text === null ? null : new Date(value);
  };
  const from = instant("from", param(["from"]));
  if (from === null) check.fail("from", messages.required("from"));
  const to = instant("to", param(["to"])) ?? now;
  const groupBy = (param(["group_by", "groupBy"]) ?? "DAY") as Grouping;
  if (!groupings.includes(groupBy)) check.fail("group_by", messages.oneOf("group_by", groupings));
  const timeZone = param(["time_zone", "timeZone"]);
  if (timeZone !== null && timeZone.toUpperCase() !== "UTC") check.fail("time_zone", "The floor answers time_zone=UTC only.");
  if (Object.keys(check.errors).length > 0) throw fail(check.errors);
  // The range: from before to, and no more periods than the service allows (roughly).
  const days = (to.getTime() - from!.getTime()) / 86_400_000;
  if (days <= 0) check.fail("to", "The to field must be a date after from.");
  else if (days / { DAY: 1, WEEK: 7, MONTH: 28 }[groupBy] > maxPeriods + 1) check.fail("to", `A report holds at most ${maxPeriods} periods.`);
  if (Object.keys(check.errors).length > 0) throw fail(check.errors);
  return { from: from!, to, groupBy };
}

/** The service's readJsonObject: 415 when not JSON, 400 when malformed or not an object. */
export async function readJsonObject(req: IncomingMessage): Promise<Record<string, unknown> | null> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  if (text.trim() === "") return null;
  if (!/^application\/([\w.+-]+\+)?json\s*(;|$)/i.test(req.headers["content-type"] ?? "")) {
    throw new HttpError(415, errorBody("The request body must be JSON (Content-Type: application/json)."));
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new HttpError(400, errorBody("The request body is not valid JSON."));
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new HttpError(400, errorBody("The request body must be a JSON object."));
  }
  return body as Record<string, unknown>;
}

/**
 * Input fields by request name, in the order of the GraphQL input types (both from the field
 * table), with the JSON type SOFA checks (flags are booleans, every other kind a string) and
 * whether a create requires them (plates, as CreateVehicleInput does).
 */
const inputFields = vehicleFields.map((field) => ({
  name: field.request,
  type: field.kind === "flag" ? "boolean" : "string",
  requiredOnCreate: field.kind === "plate",
}));

const networkKeys = ["network", "network_id", "networkId"];

/** A vehicle body: shape first (types, refused fields), then the service's value rules. */
export function vehicleBody(body: Record<string, unknown>, { create }: { create: boolean }): VehicleChanges {
  const check = new Validator();
  for (const key of Object.keys(body)) if (networkKeys.includes(key)) check.fail(key, messages.prohibited(key));
  const input: Record<string, unknown> = {};
  for (const { name: field, type, requiredOnCreate } of inputFields) {
    const required = create && requiredOnCreate;
    if (!Object.prototype.hasOwnProperty.call(body, field)) {
      if (required) check.fail(field, messages.required(field));
      continue;
    }
    let value = body[field];
    if (type === "boolean" && (value === 0 || value === 1)) value = value === 1;
    if (value === null) {
      if (required) check.fail(field, messages.required(field));
    } else if (typeof value !== type) {
      check.fail(field, type === "boolean" ? messages.boolean(field) : messages.string(field));
    }
    input[field] = value;
  }
  if (Object.keys(check.errors).length > 0) throw fail(check.errors);
  try {
    return vehicleChanges(input as VehicleInput, { required: create });
  } catch (error) {
    const errors = (error as { extensions?: { errors?: Record<string, string[]> } }).extensions?.errors;
    if (errors) throw validationError((error as Error).message, errors);
    throw error;
  }
}

/** The service's checkIdentifier (src/resolvers/officers.ts), whose module loads Prisma. */
export function checkIdentifier(identifierType: string, identifier: string): void {
  const colon = identifier.indexOf(":");
  const type = colon < 0 ? "" : identifier.slice(0, colon);
  const value = colon < 0 ? "" : identifier.slice(colon + 1);
  let message: string | null = null;
  if (colon < 0 || type === "" || value.trim() === "") {
    message = `The identifier must have the form type:value, e.g. ${identifierType}:12345.`;
  } else if (type !== identifierType) {
    message = `The identifier type must be ${identifierType}.`;
  } else if (characterCount(identifier) > 255) {
    message = messages.maxLength("identifier", 255);
  }
  if (message) throw validationError(message, { identifier: [message] });
}
