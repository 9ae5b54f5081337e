// Instants as the adapters read them: ISO text with a "+00:00" offset. Formatting a Date back to
// ISO text costs CPU, and a list page formats 30 of them (figures: docs/performance.md): an instant
// read in its stored form (a fraction of up to three digits, as PostgreSQL drops its last zeros)
// keeps its text, so serializing it formats nothing. Its time is made from the text's digits
// (plain arithmetic), which costs less than Date's text parser. And how a statement compares an instant
// on each database (sameInstantOf).
import { Prisma } from "../generated/prisma/client";
import type { DatabaseProvider } from "../config/database";

/** `+00:00`: the offset of every instant Prisma's adapters write and read. */
const utc = "+00:00";

/**
 * How many digits of a second's fraction an instant's text carries, from its length (0 to 3):
 * `2026-11-21T22:32:09.003+00:00` as Prisma's adapters write it, and as PostgreSQL's TIMESTAMP(3)
 * spells it, without the zeros a fraction ends with (`...09.1+00:00`, `...09+00:00`); else -1.
 */
function fractionDigits(text: string): number {
  if (text.length === 25) return 0;
  if (text.length < 27 || text.length > 29 || text[19] !== ".") return -1;
  return text.length - 26;
}

/** A Date that answers toISOString (and so toJSON) with the text it was read from. */
class StoredInstant extends Date {
  readonly #iso: string;

  constructor(time: number, iso: string) {
    super(time);
    this.#iso = iso;
  }

  override toISOString(): string {
    return this.#iso;
  }
}

/** The number the digits of `text` from `start` to `end` spell, or -1 where one is no digit. */
function digitsAt(text: string, start: number, end: number): number {
  let value = 0;
  for (let at = start; at < end; at++) {
    const digit = text.charCodeAt(at) - 48;
    if (digit < 0 || digit > 9) return -1;
    value = value * 10 + digit;
  }
  return value;
}

const isLeapYear = (year: number) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;

function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** The milliseconds of a fraction of `digits` digits (`.1` is 100). */
const millisecondsOf = (fraction: number, digits: number) => (digits === 3 ? fraction : digits === 2 ? fraction * 10 : fraction * 100);

/**
 * The time of `text` if it is an instant in the stored form (`fractionDigits`) with every field
 * in its range, so that toISOString of that time spells the same instant; else NaN. Date's own
 * parser takes more (February 30th as March 2nd, 24:00 as the next day's midnight): such text
 * is not stored form, and is left to it. Years below 100 are too, as Date.UTC reads them as 19xx.
 */
function storedTime(text: string, digits: number): number {
  if (digits < 0 || !text.endsWith(utc)) return NaN;
  if (text.charCodeAt(4) !== dash || text.charCodeAt(7) !== dash || text.charCodeAt(10) !== letterT) return NaN;
  if (text.charCodeAt(13) !== colon || text.charCodeAt(16) !== colon) return NaN;
  const year = digitsAt(text, 0, 4);
  const month = digitsAt(text, 5, 7);
  const day = digitsAt(text, 8, 10);
  const hour = digitsAt(text, 11, 13);
  const minute = digitsAt(text, 14, 16);
  const second = digitsAt(text, 17, 19);
  const fraction = digits === 0 ? 0 : digitsAt(text, 20, 20 + digits);
  if (year < 100 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return NaN;
  if (hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59 || fraction < 0) return NaN;
  return ((daysSinceEpoch(year, month, day) * 24 + hour) * 60 + minute) * 60_000 + second * 1000 + millisecondsOf(fraction, digits);
}

const dash = 0x2d;
const colon = 0x3a;
const letterT = 0x54;

/**
 * Days from 1970-01-01 to a day of the proleptic Gregorian calendar, as Date.UTC counts them
 * (Howard Hinnant's days_from_civil): plain arithmetic, where Date.UTC is a call into V8's
 * runtime (figures: docs/performance.md).
 */
function daysSinceEpoch(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

/** toISOString's text of a stored-form instant: the fraction written with its three digits. */
function isoOf(text: string, digits: number): string {
  if (digits === 3) return `${text.slice(0, 23)}Z`;
  return `${text.slice(0, 19)}.${text.slice(20, 20 + digits)}${"000".slice(digits)}Z`;
}

/**
 * A condition that the column holds this instant. PostgreSQL compares timestamps as they are;
 * SQLite keeps instants as text, which a row written by another tool may spell otherwise
 * ("...Z" for "...+00:00"), so it compares them as instants.
 */
export function sameInstantOf(provider: DatabaseProvider): (column: string, instant: Date) => Prisma.Sql {
  return provider === "sqlite"
    ? (column, instant) => Prisma.sql`unixepoch(${Prisma.raw(column)}, 'subsec') = unixepoch(${instant}, 'subsec')`
    : (column, instant) => Prisma.sql`${Prisma.raw(column)} = ${instant}`;
}

/** The Date of an instant read from the database (ISO text, or a Date from some drivers). */
export function storedInstant(value: Date | string): Date {
  if (typeof value === "string") {
    const digits = fractionDigits(value);
    const time = storedTime(value, digits);
    if (!Number.isNaN(time)) return new StoredInstant(time, isoOf(value, digits));
  }
  return new Date(value);
}
