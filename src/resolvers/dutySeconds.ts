// Seconds on duty, the same in every report: each officer's entries cut to the report's range
// and to now (an open entry counts up to now), overlapping entries of one officer merged, so no
// second is counted twice, then split at the periods' boundaries. Instants are whole seconds
// (an entry's start and end rounded down), so a report's periods add up to its total exactly.
import type { Period } from "./calendar";

/** A stretch on duty, in whole seconds since the epoch: [start, end). */
export interface Shift {
  start: number;
  end: number;
}

const seconds = (instant: Date) => Math.floor(instant.getTime() / 1000);

/**
 * One officer's shifts within [from, to), up to now: cut, ordered, overlaps merged. `entries`:
 * `[start, end, ...]` in epoch ms, an open entry's end Infinity (src/db/store.ts, ReportEntries);
 * an open entry ends at the range's end or now, whichever is first.
 */
export function shiftsOf(entries: readonly number[], from: Date, to: Date, now: Date): Shift[] {
  const first = seconds(from);
  const last = Math.min(seconds(to), seconds(now));
  const shifts: Shift[] = [];
  for (let i = 0; i + 1 < entries.length; i += 2) {
    const start = Math.max(Math.floor(entries[i] / 1000), first);
    const end = Math.min(Math.floor(entries[i + 1] / 1000), last);
    if (end > start) shifts.push({ start, end });
  }
  shifts.sort((a, b) => a.start - b.start);
  // Merged in place: each shift either extends the last one kept or is kept after it.
  let kept = 0;
  for (const shift of shifts) {
    const previous = kept > 0 ? shifts[kept - 1] : undefined;
    if (previous && shift.start <= previous.end) previous.end = Math.max(previous.end, shift.end);
    else shifts[kept++] = shift;
  }
  shifts.length = kept;
  return shifts;
}

export const totalSeconds = (shifts: readonly Shift[]) => shifts.reduce((sum, shift) => sum + shift.end - shift.start, 0);

/** A report's periods in whole seconds, made once per report: every officer's seconds are cut by them. */
export type PeriodBounds = readonly Shift[];

export const periodBounds = (periods: readonly Period[]): PeriodBounds =>
  periods.map((period) => ({ start: seconds(period.start), end: seconds(period.end) }));

/** The seconds of the shifts in each period (periods in order, not overlapping). */
export function secondsPerPeriod(shifts: readonly Shift[], bounds: PeriodBounds): number[] {
  const sums = new Array<number>(bounds.length).fill(0);
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
