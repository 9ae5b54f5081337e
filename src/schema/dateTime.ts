// DateTime: an ISO-8601 instant, always written in UTC (2026-11-21T22:10:00.000Z).
import { GraphQLError, Kind } from "graphql";
import { builder } from "./builder";

const isoInstant = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i;

function parseInstant(value: unknown): Date {
  const date = typeof value === "string" && isoInstant.test(value) ? new Date(value) : null;
  if (!date || Number.isNaN(date.getTime())) {
    throw new GraphQLError("DateTime must be an ISO-8601 date and time with a time zone, e.g. 2026-11-21T22:10:00Z.", {
      extensions: { code: "BAD_USER_INPUT" },
    });
  }
  return date;
}

builder.scalarType("DateTime", {
  description: "An instant, as an ISO-8601 string in UTC, e.g. 2026-11-21T22:10:00.000Z.",
  serialize: (value) => (value instanceof Date ? value : new Date(value)).toISOString(),
  parseValue: parseInstant,
  parseLiteral: (ast) => parseInstant(ast.kind === Kind.STRING ? ast.value : null),
});
