// Laravel-style validation messages, so existing REST clients read the errors they know.
import { invalidInput, type FieldErrors } from "../errors";

/** "wanted_reason" and "perPage" read as "wanted reason" and "per page", as Laravel writes them. */
const attribute = (field: string) =>
  field
    .replace(/_/g, " ")
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .toLowerCase();

export const messages = {
  required: (field: string) => `The ${attribute(field)} field is required.`,
  string: (field: string) => `The ${attribute(field)} field must be a string.`,
  boolean: (field: string) => `The ${attribute(field)} field must be true or false.`,
  integer: (field: string) => `The ${attribute(field)} field must be an integer.`,
  maxLength: (field: string, max: number) =>
    `The ${attribute(field)} field must not be greater than ${max} characters.`,
  between: (field: string, min: number, max: number) =>
    `The ${attribute(field)} field must be between ${min} and ${max}.`,
  min: (field: string, min: number) => `The ${attribute(field)} field must be at least ${min}.`,
  date: (field: string) => `The ${attribute(field)} field must be a valid date in the format YYYY-MM-DD.`,
  timeZone: (field: string) => `The ${attribute(field)} field must be an IANA time zone, e.g. Europe/Berlin or UTC.`,
  dateTime: (field: string) =>
    `The ${attribute(field)} field must be an ISO-8601 date and time with a time zone, e.g. 2026-11-21T22:10:00Z.`,
  oneOf: (field: string, values: readonly string[]) =>
    `The selected ${attribute(field)} is invalid. Allowed: ${values.join(", ")}.`,
  prohibited: (field: string) => `The ${attribute(field)} field is prohibited.`,
  noNul: (field: string) => `The ${attribute(field)} field must not contain NUL characters.`,
};

/** Collects messages per field and throws them all at once. */
export class Validator {
  readonly errors: FieldErrors = {};

  fail(field: string, message: string): void {
    (this.errors[field] ??= []).push(message);
  }

  throwIfInvalid(): void {
    if (Object.keys(this.errors).length > 0) throw invalidInput(this.errors);
  }
}

/** Length in characters (code points), as a person counts them, not UTF-16 units. */
export const characterCount = (value: string) => [...value].length;

/**
 * What is wrong with a text a client sends, or null: a NUL character (PostgreSQL refuses it and
 * SQLite's reads stop at it, so it could not be stored alike on both), or more than `max` characters.
 */
export function textFault(field: string, value: string, max: number): string | null {
  if (value.includes("\u0000")) return messages.noNul(field);
  if (characterCount(value) > max) return messages.maxLength(field, max);
  return null;
}

/** True for a real calendar date written YYYY-MM-DD (no 2026-02-30). */
export function isCalendarDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = match.slice(1).map(Number);
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}
