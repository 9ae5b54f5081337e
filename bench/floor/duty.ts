// The officers page and the duty hours report as the service answers them, from the store's rows.
// The rules of counting are the service's own functions (src/resolvers/dutySeconds.ts); the
// periods are UTC days, ISO weeks and months in plain JavaScript (the service's are any IANA
// zone's, through Luxon: the floor answers UTC only).
import type { Grouping, Period } from "../../src/resolvers/calendar";
import { periodBounds, secondsPerPeriod, shiftsOf, shiftSummary } from "../../src/resolvers/dutySeconds";
import type { ReportEntries, ReportOfficer } from "../../src/db/store";
import type { EntryRecord, OfficerRecord } from "./store";

const entryJson = (entry: EntryRecord, now: number) => ({
  id: entry.id,
  startedAt: entry.startedAt,
  endedAt: entry.endedAt,
  open: entry.endedAt === null,
  durationSeconds: Math.max(0, Math.floor(((entry.endedAt === null ? now : Date.parse(entry.endedAt)) - Date.parse(entry.startedAt)) / 1000)),
  autoStopped: entry.autoStopped,
});

/** An officer of a page in the Officer type's order and REST fields, with its open entry. */
export function officerJson(officer: OfficerRecord, open: EntryRecord | undefined, now: number) {
  return {
    id: officer.id,
    identifier: officer.identifier,
    name: officer.name,
    createdAt: officer.createdAt,
    removedAt: officer.removedAt,
    onDuty: open !== undefined,
    currentEntry: open === undefined ? null : entryJson(open, now),
  };
}

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/** The ISO week-year and week of a UTC day (Monday first; week 1 holds the year's first Thursday). */
function isoWeek(day: Date): string {
  const thursday = new Date(day.getTime() + (3 - ((day.getUTCDay() + 6) % 7)) * 86_400_000);
  const year = thursday.getUTCFullYear();
  const week = 1 + Math.floor((thursday.getTime() - Date.UTC(year, 0, 1)) / (7 * 86_400_000));
  return `${year}-W${pad(week)}`;
}

/** The UTC periods of the grouping that meet [from, to), cut to it (the service's periodsOf in UTC). */
export function utcPeriods(from: Date, to: Date, grouping: Grouping, maxPeriods: number): Period[] {
  const f = new Date(from);
  let start =
    grouping === "MONTH"
      ? new Date(Date.UTC(f.getUTCFullYear(), f.getUTCMonth(), 1))
      : new Date(Date.UTC(f.getUTCFullYear(), f.getUTCMonth(), f.getUTCDate() - (grouping === "WEEK" ? (f.getUTCDay() + 6) % 7 : 0)));
  const periods: Period[] = [];
  while (start.getTime() < to.getTime() && periods.length <= maxPeriods) {
    const y = start.getUTCFullYear();
    const m = start.getUTCMonth();
    const d = start.getUTCDate();
    const next = new Date(grouping === "MONTH" ? Date.UTC(y, m + 1, 1) : Date.UTC(y, m, d + (grouping === "WEEK" ? 7 : 1)));
    const label = grouping === "DAY" ? `${y}-${pad(m + 1)}-${pad(d)}` : grouping === "WEEK" ? isoWeek(start) : `${y}-${pad(m + 1)}`;
    periods.push({ label, start: new Date(Math.max(start.getTime(), from.getTime())), end: new Date(Math.min(next.getTime(), to.getTime())) });
    start = next;
  }
  return periods;
}

/** The service's dutyHours report (src/resolvers/dutyHours.ts) for every officer with hours, from the range's entries. */
export function dutyHoursJson(from: Date, to: Date, groupBy: Grouping, periods: Period[], byOfficer: ReportEntries, reported: ReportOfficer[], now: Date) {
  const officers: Array<{
    identifier: string;
    name: string;
    removed: boolean;
    seconds: number[];
    totalSeconds: number;
    shifts: number;
    averageShiftSeconds: number;
    longestShiftSeconds: number;
  }> = [];
  const bounds = periodBounds(periods);
  for (const officer of reported) {
    const shifts = shiftsOf(byOfficer.get(officer.id) ?? [], from, to, now);
    const summary = shiftSummary(shifts);
    if (summary.totalSeconds === 0) continue;
    officers.push({
      identifier: officer.identifier,
      name: officer.name,
      removed: officer.removed,
      seconds: secondsPerPeriod(shifts, bounds),
      ...summary,
    });
  }
  officers.sort((a, b) => b.totalSeconds - a.totalSeconds || a.name.localeCompare(b.name) || a.identifier.localeCompare(b.identifier));
  return {
    from: from.toISOString(),
    to: to.toISOString(),
    groupBy,
    timeZone: "UTC",
    buckets: periods.map((period, i) => ({
      label: period.label,
      start: period.start.toISOString(),
      end: period.end.toISOString(),
      seconds: officers.reduce((sum, officer) => sum + officer.seconds[i], 0),
    })),
    officers,
  };
}
