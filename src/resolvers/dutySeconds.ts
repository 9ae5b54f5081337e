// Seconds on duty, the same in every report: each officer's entries cut to the report's range
// and to now (an open entry counts up to now), overlapping entries of one officer merged, so no
// second is counted twice, then split at the periods' boundaries. Instants are whole seconds
// (an entry's start and end rounded down), so a report's periods add up to its total exactly.
import type { Period } from "./calendar";

/**
 * An officer's stretches on duty as one flat list of whole seconds since the epoch,
 * `[start, end, start, end, ...]`: each [start, end), in order, none overlapping. A year's report
 * cuts tens of thousands of entries; an object per shift was most of what it allocated.
 */
export type Shifts = number[];

const seconds = (instant: Date) => Math.floor(instant.getTime() / 1000);

/**
 * One officer's shifts within [from, to), up to now: cut, ordered, overlaps merged. `entries`:
 * `[start, end, ...]` in epoch ms, an open entry's end Infinity (src/db/store.ts, ReportEntries);
 * an open entry ends at the range's end or now, whichever is first.
 */
export function shiftsOf(entries: readonly number[], from: Date, to: Date, now: Date): Shifts {
  const first = seconds(from);
  const last = Math.min(seconds(to), seconds(now));
  const shifts: Shifts = [];
  // The statement reads an officer's entries mostly in order already: sorted only when they are not.
  let ordered = true;
  for (let i = 0; i + 1 < entries.length; i += 2) {
    const start = Math.max(Math.floor(entries[i] / 1000), first);
    const end = Math.min(Math.floor(entries[i + 1] / 1000), last);
    if (end <= start) continue;
    if (shifts.length > 0 && start < shifts[shifts.length - 2]) ordered = false;
    shifts.push(start, end);
  }
  if (!ordered) sortByStart(shifts);
  // Merged in place: each shift either extends the last one kept or is kept after it.
  let kept = 0;
  for (let i = 0; i < shifts.length; i += 2) {
    const start = shifts[i];
    const end = shifts[i + 1];
    if (kept > 0 && start <= shifts[kept - 1]) shifts[kept - 1] = Math.max(shifts[kept - 1], end);
    else {
      shifts[kept++] = start;
      shifts[kept++] = end;
    }
  }
  shifts.length = kept;
  return shifts;
}

function sortByStart(shifts: Shifts): void {
  const pairs: [number, number][] = [];
  for (let i = 0; i < shifts.length; i += 2) pairs.push([shifts[i], shifts[i + 1]]);
  pairs.sort((a, b) => a[0] - b[0]);
  pairs.forEach(([start, end], j) => {
    shifts[2 * j] = start;
    shifts[2 * j + 1] = end;
  });
}

export function totalSeconds(shifts: Shifts): number {
  let total = 0;
  for (let i = 0; i < shifts.length; i += 2) total += shifts[i + 1] - shifts[i];
  return total;
}

/** What a report says of an officer's shifts besides their seconds per period. */
export function shiftSummary(shifts: Shifts) {
  const total = totalSeconds(shifts);
  const count = shifts.length / 2;
  let longest = 0;
  for (let i = 0; i < shifts.length; i += 2) longest = Math.max(longest, shifts[i + 1] - shifts[i]);
  return { totalSeconds: total, shifts: count, averageShiftSeconds: count === 0 ? 0 : Math.round(total / count), longestShiftSeconds: longest };
}

/** A report's periods in whole seconds, made once per report: every officer's seconds are cut by them. */
export interface PeriodBounds {
  readonly start: number;
  readonly end: number;
}

export const periodBounds = (periods: readonly Period[]): readonly PeriodBounds[] =>
  periods.map((period) => ({ start: seconds(period.start), end: seconds(period.end) }));

/** The seconds of the shifts in each period (periods in order, not overlapping). */
export function secondsPerPeriod(shifts: Shifts, bounds: readonly PeriodBounds[]): number[] {
  const sums = new Array<number>(bounds.length).fill(0);
  let first = 0;
  for (let s = 0; s < shifts.length; s += 2) {
    const start = shifts[s];
    const end = shifts[s + 1];
    // Shifts are in order: a period that ended before this shift ended before every later one.
    while (first < bounds.length && bounds[first].end <= start) first++;
    for (let i = first; i < bounds.length && bounds[i].start < end; i++) {
      sums[i] += Math.max(0, Math.min(end, bounds[i].end) - Math.max(start, bounds[i].start));
    }
  }
  return sums;
}
