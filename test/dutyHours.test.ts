// The duty hours report (issue: dashboards): seconds on duty per officer and day, ISO week or
// month of a time zone, over GraphQL and REST on a real server. Entries are made by the public
// toggle at instants the test clock is set to; expected seconds are worked out by hand.
import { startService, type TestService } from "./support/service";
import { client, type Client } from "./support/http";

let service: TestService;
beforeAll(async () => {
  service = await startService();
});
afterAll(() => service.close());
afterEach(() => service.clock.reset());

const hour = 3600;

async function setup(officers: Record<string, string>, settings: { timeZone?: string } = {}) {
  const network = await service.network();
  if (settings.timeZone) await service.db.prisma.network.update({ where: { id: network.id }, data: { timeZone: settings.timeZone } });
  for (const [value, name] of Object.entries(officers)) await network.officer(value, name);
  return { network, api: client(service.url, network.apiKey) };
}

/** An entry from `start` to `end` (null: left open), made by two toggles at those instants. */
async function entry(api: Client, identifier: string, start: string, end: string | null) {
  for (const instant of end === null ? [start] : [start, end]) {
    service.clock.set(instant);
    expect((await api.post(`/dutytime/${encodeURIComponent(identifier)}/toggle`)).status).toBe(200);
  }
}

const reportQuery = `query ($from: DateTime!, $to: DateTime, $groupBy: DutyHoursGrouping, $timeZone: String, $identifiers: [String!]) {
  dutyHours(from: $from, to: $to, groupBy: $groupBy, timeZone: $timeZone, identifiers: $identifiers) {
    from to groupBy timeZone
    buckets { label start end seconds }
    officers { identifier name removed seconds totalSeconds shifts averageShiftSeconds longestShiftSeconds }
  }
}`;

async function report(api: Client, variables: Record<string, unknown>) {
  const response = await api.graphql(reportQuery, variables);
  expect(response.body.errors).toBeUndefined();
  return response.body.data.dutyHours;
}

describe("splitting at local boundaries", () => {
  test("an entry across midnight is split between the days; buckets add up to the total", async () => {
    const { api } = await setup({ "1": "Night Shift" });
    await entry(api, "steam:1", "2026-11-10T22:30:00Z", "2026-11-11T01:15:00Z");
    service.clock.set("2026-11-20T00:00:00Z");
    const days = await report(api, { from: "2026-11-10T00:00:00Z", to: "2026-11-12T00:00:00Z" });
    expect(days.buckets).toEqual([
      { label: "2026-11-10", start: "2026-11-10T00:00:00.000Z", end: "2026-11-11T00:00:00.000Z", seconds: 1.5 * hour },
      { label: "2026-11-11", start: "2026-11-11T00:00:00.000Z", end: "2026-11-12T00:00:00.000Z", seconds: 1.25 * hour },
    ]);
    expect(days.officers).toEqual([
      {
        identifier: "steam:1",
        name: "Night Shift",
        removed: false,
        seconds: [1.5 * hour, 1.25 * hour],
        totalSeconds: 2.75 * hour,
        shifts: 1,
        averageShiftSeconds: 2.75 * hour,
        longestShiftSeconds: 2.75 * hour,
      },
    ]);
    // In New York (UTC-5 in November) the whole entry is on the evening of the 10th.
    const newYork = await report(api, { from: "2026-11-10T05:00:00Z", to: "2026-11-12T05:00:00Z", timeZone: "America/New_York" });
    expect(newYork.buckets.map((bucket: { label: string; seconds: number }) => [bucket.label, bucket.seconds])).toEqual([
      ["2026-11-10", 2.75 * hour],
      ["2026-11-11", 0],
    ]);
  });

  test("Europe/Berlin: the last Sunday of March has 23 hours, of October 25; an entry over each whole day counts them", async () => {
    const { api } = await setup({ "1": "Spring", "2": "Autumn" }, { timeZone: "Europe/Berlin" });
    // Local 2026-03-28 22:00 to 2026-03-30 02:00 (CET, then CEST from 29 March 02:00).
    await entry(api, "steam:1", "2026-03-28T21:00:00Z", "2026-03-30T00:00:00Z");
    // Local 2026-10-24 22:00 to 2026-10-26 02:00 (CEST, then CET from 25 October 03:00).
    await entry(api, "steam:2", "2026-10-24T20:00:00Z", "2026-10-26T01:00:00Z");
    service.clock.set("2026-11-20T00:00:00Z");

    const march = await report(api, { from: "2026-03-28T00:00:00+01:00", to: "2026-03-31T00:00:00+02:00", identifiers: ["steam:1"] });
    expect(march.timeZone).toBe("Europe/Berlin");
    expect(march.buckets.map((bucket: { label: string; start: string; end: string }) => [bucket.label, bucket.start, bucket.end])).toEqual([
      ["2026-03-28", "2026-03-27T23:00:00.000Z", "2026-03-28T23:00:00.000Z"],
      ["2026-03-29", "2026-03-28T23:00:00.000Z", "2026-03-29T22:00:00.000Z"],
      ["2026-03-30", "2026-03-29T22:00:00.000Z", "2026-03-30T22:00:00.000Z"],
    ]);
    expect(march.officers[0].seconds).toEqual([2 * hour, 23 * hour, 2 * hour]);

    const october = await report(api, { from: "2026-10-24T00:00:00+02:00", to: "2026-10-27T00:00:00+01:00", identifiers: ["steam:2"] });
    expect(october.buckets.map((bucket: { label: string; start: string; end: string }) => [bucket.label, bucket.start, bucket.end])).toEqual([
      ["2026-10-24", "2026-10-23T22:00:00.000Z", "2026-10-24T22:00:00.000Z"],
      ["2026-10-25", "2026-10-24T22:00:00.000Z", "2026-10-25T23:00:00.000Z"],
      ["2026-10-26", "2026-10-25T23:00:00.000Z", "2026-10-26T23:00:00.000Z"],
    ]);
    expect(october.officers[0].seconds).toEqual([2 * hour, 25 * hour, 2 * hour]);
  });

  test("an entry over a whole week: ISO weeks start on Monday, months split where they end", async () => {
    const { api } = await setup({ "1": "Long Haul" });
    // Monday 2026-11-23 00:00 to Monday 2026-11-30 00:00 UTC, then on to 2026-12-01 06:00.
    await entry(api, "steam:1", "2026-11-23T00:00:00Z", "2026-12-01T06:00:00Z");
    service.clock.set("2026-12-10T00:00:00Z");
    const weeks = await report(api, { from: "2026-11-16T00:00:00Z", to: "2026-12-07T00:00:00Z", groupBy: "WEEK" });
    expect(weeks.buckets.map((bucket: { label: string; start: string; seconds: number }) => [bucket.label, bucket.start, bucket.seconds])).toEqual([
      ["2026-W47", "2026-11-16T00:00:00.000Z", 0],
      ["2026-W48", "2026-11-23T00:00:00.000Z", 7 * 24 * hour],
      ["2026-W49", "2026-11-30T00:00:00.000Z", 30 * hour],
    ]);
    const months = await report(api, { from: "2026-11-01T00:00:00Z", to: "2027-01-01T00:00:00Z", groupBy: "MONTH" });
    expect(months.buckets.map((bucket: { label: string; seconds: number }) => [bucket.label, bucket.seconds])).toEqual([
      ["2026-11", 8 * 24 * hour],
      ["2026-12", 6 * hour],
    ]);
    // A range starting mid-week: the first bucket is cut to it.
    const cut = await report(api, { from: "2026-11-25T12:00:00Z", to: "2026-12-01T00:00:00Z", groupBy: "WEEK" });
    expect(cut.buckets[0]).toEqual({ label: "2026-W48", start: "2026-11-25T12:00:00.000Z", end: "2026-11-30T00:00:00.000Z", seconds: 4.5 * 24 * hour });
  });
});

describe("what is counted", () => {
  test("open entries count up to now, never into the future; overlapping entries count once", async () => {
    const { network, api } = await setup({ "1": "Still On", "2": "Double Booked" });
    await entry(api, "steam:1", "2026-11-24T20:00:00Z", null);
    await entry(api, "steam:2", "2026-11-24T08:00:00Z", "2026-11-24T12:00:00Z");
    // A second, overlapping entry of the same officer, as data imported from elsewhere might hold.
    const officer = await service.db.prisma.officer.findFirstOrThrow({ where: { networkId: network.id, identifier: "steam:2" } });
    await service.db.prisma.dutytimeEntry.create({
      data: { networkId: network.id, officerId: officer.id, startedAt: new Date("2026-11-24T10:00:00Z"), endedAt: new Date("2026-11-24T14:00:00Z") },
    });
    service.clock.set("2026-11-25T02:30:00Z");
    const days = await report(api, { from: "2026-11-24T00:00:00Z", to: "2026-11-26T00:00:00Z" });
    expect(days.officers.map((officer: { identifier: string; seconds: number[]; shifts: number }) => [officer.identifier, officer.seconds, officer.shifts])).toEqual([
      ["steam:1", [4 * hour, 2.5 * hour], 1],
      ["steam:2", [6 * hour, 0], 1],
    ]);
    expect(days.buckets.map((bucket: { seconds: number }) => bucket.seconds)).toEqual([10 * hour, 2.5 * hour]);
  });

  test("identifiers: only those officers, each listed even without hours; an unknown one is a 422", async () => {
    const { api } = await setup({ "1": "Worker", "2": "Idle" });
    await entry(api, "steam:1", "2026-11-24T08:00:00Z", "2026-11-24T09:00:00Z");
    service.clock.set("2026-11-25T00:00:00Z");
    const named = await report(api, { from: "2026-11-24T00:00:00Z", identifiers: ["steam:2"] });
    expect(named.officers).toEqual([expect.objectContaining({ identifier: "steam:2", totalSeconds: 0, shifts: 0, seconds: [0] })]);
    const unknown = await api.graphql(reportQuery, { from: "2026-11-24T00:00:00Z", identifiers: ["steam:2", "steam:999"] });
    expect(unknown.body.errors[0].extensions).toEqual(expect.objectContaining({ code: "BAD_USER_INPUT", errors: { identifiers: [expect.stringContaining("steam:999")] } }));
  });

  test("another network's officers and entries are never in the report", async () => {
    const { api } = await setup({ "1": "Ours" });
    const { api: theirs } = await setup({ "1": "Theirs" });
    await entry(api, "steam:1", "2026-11-24T08:00:00Z", "2026-11-24T09:00:00Z");
    await entry(theirs, "steam:1", "2026-11-24T08:00:00Z", "2026-11-24T12:00:00Z");
    service.clock.set("2026-11-25T00:00:00Z");
    const ours = await report(api, { from: "2026-11-24T00:00:00Z" });
    expect(ours.officers.map((officer: { name: string; totalSeconds: number }) => [officer.name, officer.totalSeconds])).toEqual([["Ours", hour]]);
  });
});

describe("REST", () => {
  test("GET /statistics/duty-hours answers the same report; bad input is a 422 under the parameters' names", async () => {
    const { api } = await setup({ "1": "Rest Officer", "2": "Other Officer" });
    await entry(api, "steam:1", "2026-11-24T08:00:00Z", "2026-11-24T09:30:00Z");
    await entry(api, "steam:2", "2026-11-24T10:00:00Z", "2026-11-24T10:30:00Z");
    service.clock.set("2026-11-25T00:00:00Z");
    const variables = { from: "2026-11-23T00:00:00Z", groupBy: "WEEK", timeZone: "Europe/Berlin", identifiers: ["steam:1", "steam:2"] };
    const rest = await api.get(
      "/statistics/duty-hours?from=2026-11-23T00%3A00%3A00Z&group_by=WEEK&time_zone=Europe%2FBerlin&identifiers=steam%3A1&identifiers[]=steam%3A2",
    );
    expect(rest.status).toBe(200);
    expect(rest.body).toEqual(await report(api, variables));
    expect(rest.body.officers.map((officer: { totalSeconds: number }) => officer.totalSeconds)).toEqual([1.5 * hour, 0.5 * hour]);

    const cases: [string, string][] = [
      ["", "from"],
      ["from=yesterday", "from"],
      ["from=2026-11-24T00%3A00%3A00Z&to=2026-11-23T00%3A00%3A00Z", "to"],
      ["from=2025-01-01T00%3A00%3A00Z", "to"],
      ["from=2026-11-24T00%3A00%3A00Z&time_zone=Mars%2FOlympus", "time_zone"],
      ["from=2026-11-24T00%3A00%3A00Z&group_by=day", "group_by"],
      ["from=2026-11-24T00%3A00%3A00Z&identifiers=discord%3A1", "identifiers"],
    ];
    for (const [query, field] of cases) {
      const response = await api.get(`/statistics/duty-hours?${query}`);
      expect({ query, status: response.status, fields: Object.keys(response.body.errors ?? {}) }).toEqual({ query, status: 422, fields: [field] });
    }
    expect((await client(service.url).get("/statistics/duty-hours?from=2026-11-24T00%3A00%3A00Z")).status).toBe(401);
  });
});
