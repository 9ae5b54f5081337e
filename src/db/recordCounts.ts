// The counts of records the statistics need (src/resolvers/statistics.ts), the same SQL on SQLite
// and PostgreSQL.
import { Prisma } from "../generated/prisma/client";
import type { ReadSql } from "./adapterReads";
import { readBetweenCommits, type CommitEpoch } from "./betweenCommits";
import { fixedStatement } from "./fixedStatement";
import { adapterBound } from "./sqlite/libsqlValues";
import type { RecordCountStore, RecordKind } from "./store";

/** Tables of countable records, counted together: their total, and their records created at or after an instant. */
interface CountSource {
  total(networkId: number): Promise<number>;
  createdSince(networkId: number, since: Date): Promise<number>;
}

type RecordTable = "mission_reports" | "patient_files" | "offender_files";

/** Each table's number of records per network, kept on the network's row by triggers (migration *_network_record_counts). */
const countColumnOf: Record<RecordTable, string> = {
  mission_reports: "mission_report_count",
  patient_files: "patient_file_count",
  offender_files: "offender_file_count",
};

/** The length of the hours the kept counts are per (migration *_record_hour_counts). */
export const hourMs = 60 * 60 * 1000;

/** The first whole hour at or after `instant`. */
export const nextWholeHour = (instant: Date) => new Date(Math.ceil(instant.getTime() / hourMs) * hourMs);

/**
 * Counts of some tables together, each count in one statement on the read path
 * (src/db/adapterReads.ts): dashboards poll these, and the files' counts (patient and offender
 * files) are one statement, not one per table. The total is the kept counts, not a count over
 * the network's records. Records created since an instant are the kept counts of the whole hours
 * from the next whole hour on (migration *_record_hour_counts), plus the records of the partial
 * hour before it: at most ~170 kept rows per table and an hour's records, however many records
 * the window holds. `created_at >= since` never matches a null (unknown) creation time: rule 3.
 * Between commits (./betweenCommits.ts) a window's count answers for a later start too, up to
 * the oldest creation time in it: the same statement reads that time with the count.
 */
function countSource(read: ReadSql, tables: RecordTable[], commitEpoch: CommitEpoch | undefined): CountSource {
  const kept = Prisma.raw(tables.map((table) => `"${countColumnOf[table]}"`).join(" + "));
  const count = (row: { total: number | string } | undefined) => Number(row?.total ?? 0);
  const keptTotal = fixedStatement((networkId: number) => Prisma.sql`SELECT ${kept} AS total FROM networks WHERE id = ${networkId}`);
  // On the networks row: read again only after a commit, where an epoch is given (./betweenCommits.ts).
  const keptTotalOf = readBetweenCommits(async (from, networkId) => count(await from.byKey(keptTotal(networkId))));
  // Each table's oldest creation time in the window, only where a window can be kept (an epoch
  // given): without one the count is read every time, and the lookups would be for nothing.
  const oldestColumn = (at: number) => `oldest_${at}`;
  const oldestColumns = (networkId: number, since: Date) =>
    commitEpoch === undefined
      ? Prisma.empty
      : Prisma.sql`, ${Prisma.join(
          tables.map(
            (table, at) => Prisma.sql`(SELECT MIN(created_at) FROM ${Prisma.raw(`"${table}"`)}
                                       WHERE network_id = ${networkId} AND created_at >= ${since}) AS ${Prisma.raw(oldestColumn(at))}`,
          ),
        )}`;
  const createdSinceOf = fixedStatement(
    (networkId: number, since: Date, wholeHours: Date) => Prisma.sql`
      SELECT COALESCE((SELECT SUM(count) FROM record_hour_counts
                       WHERE network_id = ${networkId} AND table_name IN (${Prisma.join(tables)}) AND hour >= ${wholeHours}), 0)
           + ${Prisma.join(
             tables.map(
               (table) => Prisma.sql`(SELECT COUNT(*) FROM ${Prisma.raw(`"${table}"`)}
                                     WHERE network_id = ${networkId} AND created_at >= ${since} AND created_at < ${wholeHours})`,
             ),
             " + ",
           )} AS total${oldestColumns(networkId, since)}`,
  );
  const windowOf = readBetweenCommits(
    async (from, networkId, since: Date): Promise<WindowCount> => {
      const row = await from.first<Record<string, unknown>>(createdSinceOf(networkId, since, nextWholeHour(since)));
      const oldest = tables.map((_, at) => row?.[oldestColumn(at)]).filter((value) => value !== null && value !== undefined);
      return { since: adapterBound(since), count: count(row as { total: number | string } | undefined), oldest };
    },
    windowHolds,
  );
  return {
    total: (networkId) => keptTotalOf(read, networkId, commitEpoch),
    createdSince: async (networkId, since) => (await windowOf(read, networkId, commitEpoch, since)).count,
  };
}

/**
 * The records created at or after `since` (as the statement bound it), and each table's oldest
 * creation time among them (tables without one left out), for the count's own window only.
 */
interface WindowCount {
  since: unknown;
  count: number;
  oldest: unknown[];
}

/**
 * Whether a window's count is still the count from `since` on: a later start that no record's
 * creation time falls before. Compared as SQLite compares what its statement bound, as text
 * (src/db/sqlite/libsqlValues.ts): only SQLite keeps counts between commits (./betweenCommits.ts),
 * and any value that is not text (a driver's Date) holds for nothing, so it is read again.
 */
function windowHolds(window: WindowCount, since: Date): boolean {
  const bound = adapterBound(since);
  if (typeof bound !== "string" || typeof window.since !== "string" || bound < window.since) return false;
  return window.oldest.every((oldest) => typeof oldest === "string" && bound <= oldest);
}

/** `commitEpoch`: every commit's (SQLite: ./sqlite/commits.ts), for the kept totals between commits. */
export function recordCountStore(read: ReadSql, commitEpoch?: CommitEpoch): RecordCountStore {
  const sources: Record<RecordKind, CountSource> = {
    missions: countSource(read, ["mission_reports"], commitEpoch),
    files: countSource(read, ["patient_files", "offender_files"], commitEpoch),
  };
  return {
    total: (networkId, kind) => sources[kind].total(networkId),
    createdSince: (networkId, kind, since) => sources[kind].createdSince(networkId, since),
  };
}
