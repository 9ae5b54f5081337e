// Counts for dashboards, following SPEC 4.2 rules 1-5 to the letter.
import type { Context } from "../context";
import { isDatabaseUnavailable } from "./databaseErrors";

export interface RecordCount {
  /** null means "cannot be evaluated", never zero. */
  count: number | null;
  timestampAvailable: boolean;
}

const sevenDaysMs = 7 * 24 * 60 * 60 * 1000;

/** A table of countable records: its total, and its records created at or after an instant. */
interface CountSource {
  total(networkId: number): Promise<number>;
  createdSince(networkId: number, since: Date): Promise<number>;
}

function sources(ctx: Context): { missions: CountSource[]; files: CountSource[] } {
  const { prisma } = ctx.db;
  // createdAt >= since never matches a null (unknown) creation time: rule 3.
  return {
    missions: [
      {
        total: (networkId) => prisma.missionReport.count({ where: { networkId } }),
        createdSince: (networkId, since) => prisma.missionReport.count({ where: { networkId, createdAt: { gte: since } } }),
      },
    ],
    files: [
      {
        total: (networkId) => prisma.patientFile.count({ where: { networkId } }),
        createdSince: (networkId, since) => prisma.patientFile.count({ where: { networkId, createdAt: { gte: since } } }),
      },
      {
        total: (networkId) => prisma.offenderFile.count({ where: { networkId } }),
        createdSince: (networkId, since) => prisma.offenderFile.count({ where: { networkId, createdAt: { gte: since } } }),
      },
    ],
  };
}

const sum = (counts: number[]) => counts.reduce((total, count) => total + count, 0);

/** Rule 5: totals count every record, known creation time or not. */
async function total(ctx: Context, from: CountSource[]): Promise<RecordCount> {
  const counts = await Promise.all(from.map((source) => source.total(ctx.network.id)));
  return { count: sum(counts), timestampAvailable: true };
}

/**
 * Rules 2-4: records created at or after the instant seven days before the request. When the
 * creation times cannot be evaluated, the answer is null with timestampAvailable false; an
 * unreachable database is an outage (503), not a missing timestamp.
 */
async function lastSevenDays(ctx: Context, from: CountSource[]): Promise<RecordCount> {
  const since = new Date(ctx.now().getTime() - sevenDaysMs);
  try {
    const counts = await Promise.all(from.map((source) => source.createdSince(ctx.network.id, since)));
    return { count: sum(counts), timestampAvailable: true };
  } catch (error) {
    if (isDatabaseUnavailable(error)) throw error;
    return { count: null, timestampAvailable: false };
  }
}

export const missionsTotal = (ctx: Context) => total(ctx, sources(ctx).missions);
export const missionsLastSevenDays = (ctx: Context) => lastSevenDays(ctx, sources(ctx).missions);
export const filesTotal = (ctx: Context) => total(ctx, sources(ctx).files);
export const filesLastSevenDays = (ctx: Context) => lastSevenDays(ctx, sources(ctx).files);
