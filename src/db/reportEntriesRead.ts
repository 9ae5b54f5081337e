// The entries of a duty hours report's range, read as one text (on SQLite as its bytes):
// `officer,start,end,...` in epoch milliseconds, an open entry's end empty. A year of a large network is tens of thousands of
// entries; handed over as rows, crossing from the driver to JavaScript row by row and parsing
// each instant's ISO text cost several times what the database spends finding and joining them
// (figures: docs/performance.md). The instants become numbers in the database's own functions.
import { Prisma } from "../generated/prisma/client";
import type { DatabaseProvider } from "../config/database";
import type { ReadSql } from "./adapterReads";
import { addReportEntry, type ReportEntries } from "./store";

/** Where the two databases spell the statement differently. */
interface Dialect {
  /** An instant column as whole epoch milliseconds (both databases keep milliseconds). */
  epochMs(column: Prisma.Sql): Prisma.Sql;
  /** A value as text, for `||`. */
  text(value: Prisma.Sql): Prisma.Sql;
  /** The aggregate that joins a text column's values with commas. */
  joined(value: Prisma.Sql): Prisma.Sql;
  /**
   * Whether the text comes as a row per officer. On PostgreSQL a year's text as one string
   * (~1 MB) is allocated in V8's large-object space, freed only by a full collection, which the
   * year report then ran every few requests; a row per officer makes strings of a few KB that die
   * young (docs/performance.md). SQLite's one text comes as bytes, off V8's heap, and grouping its
   * rows by officer would cost it a sort.
   */
  perOfficer: boolean;
}

// timestamp(3) holds UTC: its epoch is the instant's. date_part answers a double (EXTRACT's
// numeric costs more), as SQLite's julianday does of its ISO text: both with far less than a
// millisecond of error, so rounding to whole milliseconds (CAST AS BIGINT rounds) is exact.
const dialects: Record<DatabaseProvider, Dialect> = {
  postgresql: {
    epochMs: (column) => Prisma.sql`CAST(date_part('epoch', ${column}) * 1000 AS BIGINT)`,
    text: (value) => Prisma.sql`CAST(${value} AS TEXT)`,
    joined: (value) => Prisma.sql`string_agg(${value}, ',')`,
    perOfficer: true,
  },
  sqlite: {
    epochMs: (column) => Prisma.sql`CAST(ROUND((julianday(${column}) - 2440587.5) * 86400000) AS INTEGER)`,
    text: (value) => value,
    // As a BLOB: the driver hands over bytes (a Buffer, off V8's heap, freed once its small
    // handle dies young) instead of a string of a year's ~1 MB, which V8 keeps in its large-object
    // space until a full collection (the peak memory under the year report; docs/performance.md).
    joined: (value) => Prisma.sql`CAST(group_concat(${value}, ',') AS BLOB)`,
    perOfficer: false,
  },
};

/**
 * The network's entries that meet [from, to), with their officers (null: all of them). Two ranges
 * of the index (network_id, ended_at, started_at, officer_id, ...), which holds every column read:
 * the entries ended after `from`, and the open ones. Entries that ended before the range are
 * never read, so a report costs what its range holds, not the network's whole history.
 */
export function reportEntriesSql(provider: DatabaseProvider, networkId: number, from: Date, to: Date, officerIds: readonly number[] | null): Prisma.Sql {
  const officers = officerIds === null ? Prisma.empty : Prisma.sql` AND d.officer_id IN (${Prisma.join(officerIds.length > 0 ? officerIds : [-1])})`;
  const part = (ended: Prisma.Sql) => Prisma.sql`
    SELECT d.officer_id, d.started_at, d.ended_at FROM dutytime_entries d
    WHERE d.network_id = ${networkId} AND ${ended} AND d.started_at < ${to}${officers}`;
  const { epochMs, text, joined, perOfficer } = dialects[provider];
  const started = text(epochMs(Prisma.sql`e.started_at`));
  const ended = Prisma.sql`COALESCE(${text(epochMs(Prisma.sql`e.ended_at`))}, '')`;
  const officer = text(Prisma.sql`e.officer_id`);
  return Prisma.sql`
    SELECT ${joined(Prisma.sql`${officer} || ',' || ${started} || ',' || ${ended}`)} AS entries
    FROM (${part(Prisma.sql`d.ended_at > ${from}`)} UNION ALL ${part(Prisma.sql`d.ended_at IS NULL`)}) e${perOfficer ? Prisma.sql` GROUP BY e.officer_id` : Prisma.empty}`;
}

/** A row of reportEntriesSql's answer: text (PostgreSQL), its ASCII bytes (SQLite), or null for none. */
export type ReportEntriesText = string | Uint8Array | ArrayBuffer | null;

/** The report's entries from reportEntriesSql's rows (none, one, or one per officer). */
export function reportEntriesOf(answers: readonly ReportEntriesText[]): ReportEntries {
  const entries: ReportEntries = new Map();
  for (const answer of answers) addEntriesOf(entries, answer);
  return entries;
}

/**
 * Adds the entries of one row's text (null: none): whole non-negative numbers and empty fields,
 * read digit by digit in one pass (splitting a year's text made ~100,000 strings).
 */
function addEntriesOf(entries: ReportEntries, answer: ReportEntriesText): void {
  if (!answer) return;
  const text = typeof answer === "string" ? answer : null;
  const bytes = typeof answer === "string" ? null : answer instanceof Uint8Array ? answer : new Uint8Array(answer);
  const length = text ? text.length : bytes!.length;
  const comma = 44;
  const zero = 48;
  let officer = 0;
  let started = 0;
  let field = 0;
  let value = 0;
  let empty = true;
  for (let i = 0; i <= length; i++) {
    const code = i === length ? comma : text ? text.charCodeAt(i) : bytes![i];
    if (code !== comma) {
      value = value * 10 + (code - zero);
      empty = false;
      continue;
    }
    if (field === 0) officer = value;
    else if (field === 1) started = value;
    else addReportEntry(entries, officer, started, empty ? null : value);
    field = (field + 1) % 3;
    value = 0;
    empty = true;
  }
}

export async function readReportEntries(read: ReadSql, provider: DatabaseProvider, networkId: number, from: Date, to: Date, officerIds: readonly number[] | null): Promise<ReportEntries> {
  const rows = await read<{ entries: ReportEntriesText }>(reportEntriesSql(provider, networkId, from, to, officerIds));
  return reportEntriesOf(rows.map((row) => row.entries));
}
