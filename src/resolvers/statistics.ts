// Counts for dashboards, following SPEC 4.2 rules 1-5 to the letter.
import type { Context } from "../context";
import { isDatabaseUnavailable } from "../db/databaseErrors";
import type { RecordKind } from "../db/store";

export interface RecordCount {
  /** null means "cannot be evaluated", never zero. */
  count: number | null;
  timestampAvailable: boolean;
}

const sevenDaysMs = 7 * 24 * 60 * 60 * 1000;

/** Rule 5: totals count every record, known creation time or not. */
async function total(ctx: Context, kind: RecordKind): Promise<RecordCount> {
  return { count: await ctx.db.recordCounts.total(ctx.network.id, kind), timestampAvailable: true };
}

/**
 * Rules 2-4: records created at or after the instant seven days before the request. When the
 * creation times cannot be evaluated, the answer is null with timestampAvailable false; an
 * unreachable database is an outage (503), not a missing timestamp.
 */
async function lastSevenDays(ctx: Context, kind: RecordKind): Promise<RecordCount> {
  const since = new Date(ctx.now().getTime() - sevenDaysMs);
  try {
    return { count: await ctx.db.recordCounts.createdSince(ctx.network.id, kind, since), timestampAvailable: true };
  } catch (error) {
    if (isDatabaseUnavailable(error)) throw error;
    return { count: null, timestampAvailable: false };
  }
}

export const missionsTotal = (ctx: Context) => total(ctx, "missions");
export const missionsLastSevenDays = (ctx: Context) => lastSevenDays(ctx, "missions");
export const filesTotal = (ctx: Context) => total(ctx, "files");
export const filesLastSevenDays = (ctx: Context) => lastSevenDays(ctx, "files");
