// DateTime: an ISO-8601 instant, always written in UTC (2026-11-21T22:10:00.000Z).
import { GraphQLError, Kind } from "graphql";
import { builder } from "./builder";

const isoInstant = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-](\d{2}):?(\d{2}))$/i;

/** The instants both databases store alike: years 1 to 9999 in UTC. */
const earliest = Date.parse("0001-01-01T00:00:00.000Z");
const latest = Date.parse("9999-12-31T23:59:59.999Z");

const isLeapYear = (year: number) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
const daysInMonth = (year: number, month: number) => (month === 2 ? (isLeapYear(year) ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31);

/**
 * A real instant: each part in its range (no 30 February, no hour 24, an offset within ±23:59),
 * which JavaScript's Date would roll over into the next day or month instead of refusing.
 */
function parseInstant(value: unknown): Date {
  const parts = typeof value === "string" ? isoInstant.exec(value) : null;
  const [year, month, day, hour, minute, second = 0, offsetHours = 0, offsetMinutes = 0] = (parts?.slice(1) ?? []).map((part) =>
    part === undefined ? undefined : Number(part),
  ) as number[];
  const date = parts ? new Date(value as string) : null;
  const valid =
    date !== null &&
    month >= 1 && month <= 12 &&
    day >= 1 && day <= daysInMonth(year, month) &&
    hour <= 23 && minute <= 59 && second <= 59 && offsetHours <= 23 && offsetMinutes <= 59 &&
    date.getTime() >= earliest && date.getTime() <= latest;
  if (!valid) {
    throw new GraphQLError(
      "DateTime must be an ISO-8601 date and time with a time zone between the years 0001 and 9999, e.g. 2026-11-21T22:10:00Z.",
      { extensions: { code: "BAD_USER_INPUT" } },
    );
  }
  return date;
}

builder.scalarType("DateTime", {
  description: "An instant, as an ISO-8601 string in UTC, e.g. 2026-11-21T22:10:00.000Z.",
  serialize: (value) => (value instanceof Date ? value : new Date(value)).toISOString(),
  parseValue: parseInstant,
  parseLiteral: (ast) => parseInstant(ast.kind === Kind.STRING ? ast.value : null),
});
