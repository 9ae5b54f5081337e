// Seconds on duty, the same in every report: each officer's entries cut to the report's range
// and to now (an open entry counts up to now), overlapping entries of one officer merged, so no
// second is counted twice, then split at the periods' boundaries. Instants are whole seconds
// (an entry's start and end rounded down), so a report's periods add up to its total exactly.
import type { ReportEntry } from "../db/store";
import type { Period } from "./calendar";

/** A stretch on duty, in whole seconds since the epoch: [start, end). */
export interface Shift {
  start: number;
  end: number;
}

const seconds = (instant: Date) => Math.floor(instant.getTime() / 1000);

/** One officer's shifts within [from, to), up to now: cut, ordered, overlaps merged. */
export function shiftsOf(entries: readonly Pick<ReportEntry, "startedMs" | "endedMs">[], from: Date, to: Date, now: Date): Shift[] {
  const first = seconds(from);
  const last = Math.min(seconds(to), seconds(now));
  const nowSeconds = seconds(now);
  const cut = entries
    .map((entry) => ({
      start: Math.max(Math.floor(entry.startedMs / 1000), first),
      end: Math.min(entry.endedMs === null ? nowSeconds : Math.floor(entry.endedMs / 1000), last),
    }))
    .filter((shift) => shift.end > shift.start)
    .sort((a, b) => a.start - b.start);
  const merged: Shift[] = [];
  for (const shift of cut) {
    const previous = merged[merged.length - 1];
    if (previous && shift.start <= previous.end) previous.end = Math.max(previous.end, shift.end);
    else merged.push({ ...shift });
  }
  return merged;
}

export const totalSeconds = (shifts: readonly Shift[]) => shifts.reduce((sum, shift) => sum + shift.end - shift.start, 0);

/** The seconds of the shifts in each period (periods in order, not overlapping). */
export function secondsPerPeriod(shifts: readonly Shift[], periods: readonly Period[]): number[] {
  const bounds = periods.map((period) => ({ start: seconds(period.start), end: seconds(period.end) }));
  const sums = bounds.map(() => 0);
  let first = 0;
  for (const shift of shifts) {
    // Shifts are in order: a period that ended before this shift ended before every later one.
    while (first < bounds.length && bounds[first].end <= shift.start) first++;
    for (let i = first; i < bounds.length && bounds[i].start < shift.end; i++) {
      sums[i] += Math.max(0, Math.min(shift.end, bounds[i].end) - Math.max(shift.start, bounds[i].start));
    }
  }
  return sums;
}
