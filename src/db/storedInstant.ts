// Instants as the adapters read them: ISO text with a "+00:00" offset. Formatting a Date back to
// ISO text costs CPU, and a list page formats 30 of them (figures: docs/performance.md): an instant
// read in the canonical millisecond form keeps its text, so serializing it formats nothing. And
// how a statement compares an instant on each database (sameInstantOf).
import { Prisma } from "../generated/prisma/client";
import type { DatabaseProvider } from "../config/database";

/** `2026-11-21T22:32:09.003+00:00`: what Prisma's adapters write and read for an instant. */
const canonicalLength = "2026-11-21T22:32:09.003+00:00".length;

/** A Date that answers toISOString (and so toJSON) with the text it was read from. */
class StoredInstant extends Date {
  readonly #iso: string;

  constructor(iso: string) {
    super(iso);
    this.#iso = iso;
  }

  override toISOString(): string {
    return this.#iso;
  }
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
  if (typeof value === "string" && value.length === canonicalLength && value.endsWith("+00:00") && value[10] === "T") {
    const instant = new StoredInstant(`${value.slice(0, 23)}Z`);
    if (!Number.isNaN(instant.getTime())) return instant;
  }
  return new Date(value);
}
