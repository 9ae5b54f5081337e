// Records per period (the per-day trends, src/resolvers/trends.ts), the same SQL on SQLite and
// PostgreSQL: the kept counts per hour of creation (migration *_record_hour_counts) for whole
// hours, and the records themselves only for the hours a period boundary cuts.
import { Prisma } from "../generated/prisma/client";
import type { ReadSql } from "./adapterReads";
import type { RecordKind, RecordTrendStore } from "./store";
import { storedInstant } from "./storedInstant";

const tablesOf: Record<RecordKind, string[]> = {
  missions: ["mission_reports"],
  files: ["patient_files", "offender_files"],
};

export function recordTrendStore(read: ReadSql): RecordTrendStore {
  return {
    perHour: async (networkId, kind, from, to) => {
      const rows = await read<{ hour: Date | string; count: number | string }>(Prisma.sql`
        SELECT hour, SUM(count) AS count FROM record_hour_counts
        WHERE network_id = ${networkId} AND table_name IN (${Prisma.join(tablesOf[kind])}) AND hour >= ${from} AND hour < ${to}
        GROUP BY hour`);
      return rows.map((row) => ({ hour: storedInstant(row.hour), count: Number(row.count) }));
    },
    createdIn: async (networkId, kind, ranges) => {
      // Always one statement, also for no range: it is what finds out that creation times cannot be evaluated.
      const within = ranges.length === 0 ? Prisma.sql`1 = 0` : Prisma.join(ranges.map(({ from, to }) => Prisma.sql`(created_at >= ${from} AND created_at < ${to})`), " OR ");
      const rows = await read<{ created_at: Date | string }>(
        Prisma.join(
          tablesOf[kind].map((table) => Prisma.sql`SELECT created_at FROM ${Prisma.raw(`"${table}"`)} WHERE network_id = ${networkId} AND (${within})`),
          " UNION ALL ",
        ),
      );
      return rows.map((row) => storedInstant(row.created_at));
    },
    unknown: async (networkId, kind) => {
      const counts = tablesOf[kind].map((table) => Prisma.sql`(SELECT COUNT(*) FROM ${Prisma.raw(`"${table}"`)} WHERE network_id = ${networkId} AND created_at IS NULL)`);
      const row = await read.first<{ total: number | string }>(Prisma.sql`SELECT ${Prisma.join(counts, " + ")} AS total`);
      return Number(row?.total ?? 0);
    },
  };
}
