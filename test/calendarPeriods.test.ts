// A report's periods come from the whole periods kept per zone and grouping
// (src/resolvers/calendar.ts): whatever was kept before, they must be the periods Luxon walks for
// the range, across daylight-saving changes, cut to the range; and at most maxKeptPeriods are kept.
import { DateTime } from "luxon";
import { groupings, keptPeriodsCount, labelFormat, maxKeptPeriods, periodsIn, unitOf, type Grouping, type Period } from "../src/resolvers/calendar";
import { Validator } from "../src/resolvers/validation";

/** The periods as Luxon walks them, one by one: what the kept periods must answer. */
function walked(from: Date, to: Date, grouping: Grouping, zone: string): Period[] {
  const unit = unitOf[grouping];
  const periods: Period[] = [];
  let start = DateTime.fromJSDate(from, { zone }).startOf(unit);
  while (start.toMillis() < to.getTime()) {
    const next = start.plus({ [unit]: 1 }).startOf(unit);
    periods.push({
      label: start.toFormat(labelFormat[grouping]),
      start: new Date(Math.max(start.toMillis(), from.getTime())),
      end: new Date(Math.min(next.toMillis(), to.getTime())),
    });
    start = next;
  }
  return periods;
}

const periods = (from: Date, to: Date, grouping: Grouping, zone: string) => {
  const check = new Validator();
  const answer = periodsIn(check, from, to, grouping, zone);
  expect(check.errors).toEqual({});
  return answer;
};

const zones = ["UTC", "Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Asia/Kathmandu", "Pacific/Apia"];

test.each(zones)("%s: every grouping's periods, asked again and with shifted bounds, are the ones Luxon walks", (zone) => {
  const hour = 3_600_000;
  for (const grouping of groupings) {
    const days = grouping === "DAY" ? 120 : grouping === "WEEK" ? 400 : 800;
    // Ranges over the changes of 2026 (and Samoa's skipped day of 2011), starting at odd instants.
    for (const first of ["2026-02-10T13:17:00Z", "2026-09-20T00:00:00Z", "2011-12-01T10:00:00Z"]) {
      for (let shift = 0; shift < 3; shift++) {
        const from = new Date(Date.parse(first) + shift * 7 * hour);
        const to = new Date(from.getTime() + days * 24 * hour - shift * 5 * hour);
        expect(periods(from, to, grouping, zone)).toEqual(walked(from, to, grouping, zone));
      }
    }
  }
});

test("at most maxKeptPeriods whole periods are kept, and periods asked after they are forgotten are still right", () => {
  const from = new Date("1990-01-01T00:00:00Z");
  const day = 86_400_000;
  // 390 days at a time, through more days than the bound.
  for (let start = from.getTime(); start < from.getTime() + (maxKeptPeriods + 2_000) * day; start += 390 * day) {
    const range = [new Date(start), new Date(start + 390 * day)] as const;
    expect(periods(...range, "DAY", "Europe/Berlin")).toEqual(walked(...range, "DAY", "Europe/Berlin"));
    expect(keptPeriodsCount()).toBeLessThanOrEqual(maxKeptPeriods);
  }
  expect(keptPeriodsCount()).toBeGreaterThan(0);
});
