// Records per day of a time zone (mission reports; patient and offender files), following the
// rules of SPEC 4.2: a record of unknown creation time is in no day and is counted apart
// (`unknown`); when creation times cannot be evaluated, the days are null with
// timestampAvailable false, never zeros.
import type { Context } from "../context";
import type { RecordKind } from "../db/store";
import { checkTimeZone, periodsIn, type Period } from "./calendar";
import { isDatabaseUnavailable } from "../db/databaseErrors";
import { hourMs } from "../db/recordCounts";
import { Validator } from "./validation";

export interface DailyCount extends Period {
  count: number;
}

export interface DailyCounts {
  timeZone: string;
  timestampAvailable: boolean;
  /** null when creation times cannot be evaluated. */
  days: DailyCount[] | null;
  /** Records of the kind with no creation time (in no day); null when creation times cannot be evaluated. */
  unknown: number | null;
}

export interface TrendArgs {
  from: Date;
  /** Default: now. */
  to?: Date | null;
  /** Default: the network's time zone. */
  timeZone?: string | null;
}

const hourOf = (ms: number) => Math.floor(ms / hourMs) * hourMs;

/** The index of the day holding the instant (days in order, meeting end to start), or -1. */
function dayIndex(days: readonly Period[], ms: number): number {
  let low = 0;
  let high = days.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if (ms < days[middle].start.getTime()) high = middle - 1;
    else if (ms >= days[middle].end.getTime()) low = middle + 1;
    else return middle;
  }
  return -1;
}

/**
 * The hours a day's start or the range's end cuts (in zones whose midnight is no whole hour of
 * UTC, e.g. Asia/Kolkata, every day's), as the parts within the range: their records are counted
 * one by one; every other hour of the range lies in one day, and its kept count is taken whole.
 */
function cutHours(days: readonly Period[], from: Date, to: Date): { from: Date; to: Date }[] {
  const cut = new Set<number>();
  for (const bound of [from.getTime(), ...days.map((day) => day.end.getTime())]) if (bound % hourMs !== 0) cut.add(hourOf(bound));
  return [...cut]
    .sort((a, b) => a - b)
    .map((hour) => ({ from: new Date(Math.max(hour, from.getTime())), to: new Date(Math.min(hour + hourMs, to.getTime())) }));
}

async function countPerDay(ctx: Context, kind: RecordKind, from: Date, to: Date, days: DailyCount[]): Promise<number> {
  const store = ctx.db.recordTrends;
  const cut = cutHours(days, from, to);
  const cutStarts = new Set(cut.map((part) => hourOf(part.from.getTime())));
  const [unknown, hours, instants] = await Promise.all([
    store.unknown(ctx.network.id, kind),
    store.perHour(ctx.network.id, kind, new Date(hourOf(from.getTime())), to),
    store.createdIn(ctx.network.id, kind, cut),
  ]);
  for (const { hour, count } of hours) {
    if (cutStarts.has(hour.getTime())) continue;
    const day = dayIndex(days, hour.getTime());
    if (day >= 0) days[day].count += count;
  }
  for (const instant of instants) {
    const day = dayIndex(days, instant.getTime());
    if (day >= 0) days[day].count += 1;
  }
  return unknown;
}

export async function recordsPerDay(ctx: Context, kind: RecordKind, args: TrendArgs): Promise<DailyCounts> {
  const check = new Validator();
  const to = args.to ?? ctx.now();
  const timeZone = checkTimeZone(check, "timeZone", args.timeZone ?? ctx.network.timeZone);
  const periods = periodsIn(check, args.from, to, "DAY", timeZone);
  check.throwIfInvalid();
  const days = periods.map((day) => ({ ...day, count: 0 }));
  try {
    const unknown = await countPerDay(ctx, kind, args.from, to, days);
    return { timeZone, timestampAvailable: true, days, unknown };
  } catch (error) {
    // As the seven-day counts (./statistics.ts): an unreachable database is an outage, not a missing timestamp.
    if (isDatabaseUnavailable(error)) throw error;
    return { timeZone, timestampAvailable: false, days: null, unknown: null };
  }
}

export const missionsPerDay = (ctx: Context, args: TrendArgs) => recordsPerDay(ctx, "missions", args);
export const filesPerDay = (ctx: Context, args: TrendArgs) => recordsPerDay(ctx, "files", args);
