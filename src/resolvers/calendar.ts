// Calendar periods of a time zone, for reports: days, ISO weeks (Monday first) and months as
// the instants they begin and end at. Luxon knows the IANA zones' rules, so a day of a
// daylight-saving change is 23 or 25 hours long and ends at the next local midnight.
import { DateTime, IANAZone } from "luxon";
import { messages, type Validator } from "./validation";

export const groupings = ["DAY", "WEEK", "MONTH"] as const;
export type Grouping = (typeof groupings)[number];

/** Most periods one report may hold: a year and a month of days, ~8 years of weeks, ~33 of months. */
export const maxPeriods = 400;

export interface Period {
  /** The period's local name: 2026-03-29 (day), 2026-W13 (ISO week), 2026-03 (month). */
  label: string;
  /** Where it begins and ends within the report's range (the first and last may be cut by it). */
  start: Date;
  end: Date;
}

/** Luxon's unit and label format of each grouping. */
export const unitOf = { DAY: "day", WEEK: "week", MONTH: "month" } as const;
export const labelFormat = { DAY: "yyyy-MM-dd", WEEK: "kkkk-'W'WW", MONTH: "yyyy-MM" } as const;

/** Most characters of a time zone's name (the longest IANA name has 32). */
const timeZoneMaxLength = 64;

/**
 * The names Luxon gives the zones found valid, by the name asked for. Luxon checks a zone by making
 * an Intl.DateTimeFormat for it, which cost a month's report more than its periods. Only valid
 * names are kept: the IANA database has a few hundred, but each spelling in other letter cases
 * is valid too, hence the bound (a few hundred KB at most, whatever clients send).
 */
const validZones = new Map<string, string>();
export const maxValidZones = 2_000;

/** How many zone names are kept (for tests). */
export const keptZoneNames = () => validZones.size;

/** The zone's name as Luxon gives it, or a failure on `field` (answering UTC). */
export function checkTimeZone(check: Validator, field: string, zone: string): string {
  const known = validZones.get(zone);
  if (known !== undefined) return known;
  if (zone.length <= timeZoneMaxLength && !zone.includes("\u0000") && IANAZone.isValidZone(zone)) {
    const name = IANAZone.create(zone).name;
    if (validZones.size < maxValidZones) validZones.set(zone, name);
    return name;
  }
  check.fail(field, messages.timeZone(field));
  return "UTC";
}

/**
 * The periods of the grouping in the zone that meet [from, to), in order, cut to the range;
 * checked into `check`: from before to, and at most maxPeriods periods (a rough bound first, so
 * a range of centuries costs nothing to refuse).
 */
export function periodsIn(check: Validator, from: Date, to: Date, grouping: Grouping, zone: string): Period[] {
  if (to.getTime() <= from.getTime()) {
    check.fail("to", "The to field must be a date after from.");
    return [];
  }
  const days = (to.getTime() - from.getTime()) / 86_400_000;
  const roughPeriods = grouping === "DAY" ? days : grouping === "WEEK" ? days / 7 : days / 31;
  const periods = roughPeriods > maxPeriods + 1 ? null : periodsOf(from, to, grouping, zone);
  if (periods === null || periods.length > maxPeriods) {
    check.fail("to", `The to field must be closer to from: a report holds at most ${maxPeriods} ${unitOf[grouping]}s.`);
    return [];
  }
  return periods;
}

/** A whole period of a zone's calendar: its label and the instant the next one begins (epoch ms). */
interface CalendarPeriod {
  label: string;
  next: number;
}

/**
 * Whole periods already walked, by zone and grouping, then by the instant they begin. They never
 * go stale: a zone's rules are those of the process's time zone data, fixed while it runs. Luxon
 * made every period of every report again (most of a month report's allocation besides its
 * entries: docs/performance.md); a dashboard's ranges share their periods whatever their bounds.
 * When this many are kept, they are forgotten.
 */
const keptPeriods = new Map<string, Map<number, CalendarPeriod>>();
let keptPeriodCount = 0;
export const maxKeptPeriods = 10_000;

/** How many whole periods are kept (for tests). */
export const keptPeriodsCount = () => keptPeriodCount;

/** The whole period of the zone's calendar that begins at `start` (the start of a local day, ISO week or month). */
function periodAt(kept: Map<number, CalendarPeriod>, start: number, grouping: Grouping, zone: string): CalendarPeriod {
  const known = kept.get(start);
  if (known) return known;
  const unit = unitOf[grouping];
  const begins = DateTime.fromMillis(start, { zone });
  // Adding a calendar unit keeps the local time: the next local midnight, whatever the day's length.
  const period = { label: begins.toFormat(labelFormat[grouping]), next: begins.plus({ [unit]: 1 }).startOf(unit).toMillis() };
  if (keptPeriodCount >= maxKeptPeriods) {
    for (const periods of keptPeriods.values()) periods.clear();
    keptPeriodCount = 0;
  }
  kept.set(start, period);
  keptPeriodCount += 1;
  return period;
}

/** The periods that meet [from, to), however many (callers bound the range first). */
function periodsOf(from: Date, to: Date, grouping: Grouping, zone: string): Period[] {
  const zoneKey = `${grouping} ${zone}`;
  let kept = keptPeriods.get(zoneKey);
  if (!kept) keptPeriods.set(zoneKey, (kept = new Map()));
  const periods: Period[] = [];
  // startOf("week") is Monday: Luxon's weeks are ISO weeks unless locale weeks are asked for.
  let start = DateTime.fromJSDate(from, { zone }).startOf(unitOf[grouping]).toMillis();
  while (start < to.getTime()) {
    const { label, next } = periodAt(kept, start, grouping, zone);
    periods.push({ label, start: new Date(Math.max(start, from.getTime())), end: new Date(Math.min(next, to.getTime())) });
    start = next;
  }
  return periods;
}
