// DateTime: an ISO-8601 instant, always written in UTC (2026-11-21T22:10:00.000Z).
import { GraphQLError, Kind } from "graphql";
import { builder } from "./builder";
import { parseIsoInstant } from "../model/isoInstant";

/**
 * A real instant (src/model/isoInstant.ts: each part in its range, no 30 February, no hour 24, an
 * offset within ±23:59), which JavaScript's Date would roll over instead of refusing.
 */
function parseInstant(value: unknown): Date {
  const date = typeof value === "string" ? parseIsoInstant(value) : null;
  if (date === null) {
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
