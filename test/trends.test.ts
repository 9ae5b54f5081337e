// Records per day of a time zone (SPEC 4.2's counting rules, per day): GraphQL missionsPerDay and
// filesPerDay and REST GET /statistics/{missions,files}/per-day, on a real server, with records
// written through the GraphQL mutations and a fixed clock. Days at UTC boundaries to the
// millisecond, Europe/Berlin across both daylight-saving changes, Asia/Kolkata (midnight at
// :30 of a UTC hour), unknown creation times, other networks, creation times that cannot be
// evaluated, and bad input.
import { startService, type TestNetwork, type TestService } from "./support/service";
import { columnsOf, dropCreatedAt as dropCreatedAtOf } from "./support/database";
import { client, type Client } from "./support/http";
import { missionsPerDay } from "../src/resolvers/trends";
import type { RecordTrendStore } from "../src/db/store";
import { operatorKey, type Context } from "../src/context";

const NOW = "2026-11-21T22:10:00.000Z";

type Kind = "mission" | "patient" | "offender";
const mutations: Record<Kind, { field: string; input: string; name: string }> = {
  mission: { field: "createMissionReport", input: "CreateMissionReportInput", name: "title" },
  patient: { field: "createPatientFile", input: "CreatePatientFileInput", name: "patientName" },
  offender: { field: "createOffenderFile", input: "CreateOffenderFileInput", name: "offenderName" },
};

/** Creates a record through its GraphQL mutation; createdAt null: unknown creation time. */
async function create(api: Client, kind: Kind, createdAt: string | null) {
  const { field, input, name } = mutations[kind];
  const response = await api.graphql(`mutation ($input: ${input}!) { ${field}(input: $input) { createdAt } }`, {
    input: { [name]: `${kind} record`, createdAt },
  });
  expect({ status: response.status, errors: response.body.errors, record: response.body.data?.[field] }).toEqual({
    status: 200,
    errors: undefined,
    record: { createdAt },
  });
}

async function createAll(api: Client, kind: Kind, instants: (string | null)[]) {
  for (const instant of instants) await create(api, kind, instant);
}

type Trend = "missions" | "files";
const operationOf: Record<Trend, string> = { missions: "missionsPerDay", files: "filesPerDay" };

interface Range {
  from?: string;
  to?: string;
  timeZone?: string;
}

/** The REST query string of a range: from, to, time_zone (snake_case, as the contract names them). */
function queryOf(range: Range, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams();
  if (range.from !== undefined) params.set("from", range.from);
  if (range.to !== undefined) params.set("to", range.to);
  if (range.timeZone !== undefined) params.set("time_zone", range.timeZone);
  for (const [name, value] of Object.entries(extra)) params.set(name, value);
  const text = params.toString();
  return text === "" ? "" : `?${text}`;
}

const rest = (api: Client, trend: Trend, query: string) => api.get(`/statistics/${trend}/per-day${query}`);

const trendQuery = (trend: Trend) => `query ($from: DateTime!, $to: DateTime, $timeZone: String) {
  ${operationOf[trend]}(from: $from, to: $to, timeZone: $timeZone) { timeZone timestampAvailable days { date start end count } unknown }
}`;

const graphql = (api: Client, trend: Trend, range: Range) => api.graphql(trendQuery(trend), { ...range });

interface Day {
  date: string;
  start: string;
  end: string;
  count: number;
}
const day = (date: string, start: string, end: string, count: number): Day => ({ date, start, end, count });

interface DailyCounts {
  timeZone: string;
  timestampAvailable: boolean;
  days: Day[] | null;
  unknown: number | null;
}
const available = (timeZone: string, days: Day[], unknown: number): DailyCounts => ({ timeZone, timestampAvailable: true, days, unknown });

/** REST (plain JSON, no `data` around it) and GraphQL answer exactly `expected`. */
async function expectPerDay(api: Client, trend: Trend, range: Range, expected: DailyCounts) {
  const viaRest = await rest(api, trend, queryOf(range));
  expect({ trend, range, status: viaRest.status, type: viaRest.headers.get("content-type"), body: viaRest.body }).toEqual({
    trend,
    range,
    status: 200,
    type: expect.stringMatching(/^application\/json/),
    body: expected,
  });
  const viaGraphql = await graphql(api, trend, range);
  expect({ trend, range, status: viaGraphql.status, body: viaGraphql.body }).toEqual({
    trend,
    range,
    status: 200,
    body: { data: { [operationOf[trend]]: expected } },
  });
}

describe("records per day", () => {
  let service: TestService;
  let networkA: TestNetwork;
  let api: Client;
  let otherApi: Client;
  let berlinApi: Client;
  let emptyApi: Client;

  beforeAll(async () => {
    service = await startService();
    service.clock.set(NOW);
    networkA = await service.network();
    api = client(service.url, networkA.apiKey);
    otherApi = client(service.url, (await service.network()).apiKey);
    emptyApi = client(service.url, (await service.network()).apiKey);
    // The network's time zone, set before its key is first used (so no process holds the network yet).
    const berlin = await service.network();
    await service.db.prisma.network.update({ where: { id: berlin.id }, data: { timeZone: "Europe/Berlin" } });
    berlinApi = client(service.url, berlin.apiKey);

    // Network A (UTC). Missions: UTC day boundaries to the millisecond, around NOW, unknown.
    await createAll(api, "mission", [
      "2026-11-17T23:59:59.999Z", // before from=2026-11-18T00:00Z
      "2026-11-18T23:59:59.999Z", // last instant of 11-18
      "2026-11-19T00:00:00.000Z", // first instant of 11-19
      "2026-11-19T12:00:00.000Z",
      "2026-11-21T22:09:59.999Z", // 1 ms before NOW: counted up to NOW
      NOW, // at `to` (default now): not counted
      "2026-11-21T23:30:00.000Z", // in the future
      null,
      null,
    ]);
    // Network A, files: both tables together.
    await createAll(api, "patient", ["2026-11-20T05:00:00.000Z", null]);
    await createAll(api, "offender", ["2026-11-19T23:59:59.999Z", "2026-11-20T05:30:00.000Z", null, null]);
    // Network A, missions for Asia/Kolkata (UTC+5:30): local midnight is 18:30Z.
    await createAll(api, "mission", [
      "2026-06-14T18:29:59.999Z", // 06-14 23:59:59.999 IST
      "2026-06-14T18:30:00.000Z", // 06-15 00:00 IST
      "2026-06-15T10:00:00.000Z", // three in one whole hour, inside 06-15 IST
      "2026-06-15T10:15:00.000Z",
      "2026-06-15T10:59:59.999Z",
      "2026-06-15T18:00:00.000Z", // the hour 18:00Z is cut by midnight IST: 06-15
      "2026-06-15T18:29:59.000Z", // 06-15 23:59:59 IST
      "2026-06-15T18:30:00.000Z", // 06-16 00:00 IST
      "2026-06-15T18:59:59.999Z", // 06-16
    ]);

    // Network "Berlin" (Europe/Berlin). Missions around 2026-03-29 (clocks go 02:00 CET -> 03:00 CEST).
    await createAll(berlinApi, "mission", [
      "2026-03-28T22:59:59.999Z", // 03-28 23:59:59.999 CET
      "2026-03-28T23:00:00.000Z", // 03-29 00:00 CET
      "2026-03-29T00:59:59.999Z", // 03-29 01:59:59.999 CET
      "2026-03-29T01:00:00.000Z", // 03-29 03:00 CEST
      "2026-03-29T21:59:59.999Z", // 03-29 23:59:59.999 CEST
      "2026-03-29T22:00:00.000Z", // 03-30 00:00 CEST
      null,
    ]);
    // Files around 2026-10-25 (clocks go 03:00 CEST -> 02:00 CET): patient and offender files mixed.
    await createAll(berlinApi, "patient", [
      "2026-10-24T21:59:59.999Z", // 10-24 23:59:59.999 CEST
      "2026-10-25T00:30:00.000Z", // 10-25 02:30 CEST (the first 02:30)
      "2026-10-25T23:00:00.000Z", // 10-26 00:00 CET
    ]);
    await createAll(berlinApi, "offender", [
      "2026-10-24T22:00:00.000Z", // 10-25 00:00 CEST
      "2026-10-25T01:30:00.000Z", // 10-25 02:30 CET (the second 02:30)
      "2026-10-25T22:59:59.999Z", // 10-25 23:59:59.999 CET
    ]);

    // Another network: records in the same hours (and cut hours) as A's and Berlin's, never theirs.
    await createAll(otherApi, "mission", [
      "2026-11-18T23:59:59.999Z",
      "2026-11-19T00:00:00.000Z",
      "2026-11-19T00:00:00.000Z",
      "2026-11-19T12:30:00.000Z",
      "2026-11-21T22:05:00.000Z",
      "2026-06-14T18:29:59.999Z",
      "2026-06-15T10:20:00.000Z",
      "2026-06-15T18:45:00.000Z",
      "2026-03-29T01:00:00.000Z",
      null,
    ]);
    await createAll(otherApi, "patient", ["2026-11-20T05:10:00.000Z", "2026-10-25T00:30:00.000Z"]);
    await createAll(otherApi, "offender", ["2026-11-19T23:59:59.999Z", null]);
  });
  afterAll(() => service.close());
  beforeEach(() => service.clock.set(NOW));

  describe("UTC", () => {
    test("days of the network's zone (UTC) from `from` to now: first and last cut, empty days 0, unknown apart", async () => {
      const from = "2026-11-18T00:00:00.000Z";
      await expectPerDay(
        api,
        "missions",
        { from },
        available(
          "UTC",
          [
            day("2026-11-18", "2026-11-18T00:00:00.000Z", "2026-11-19T00:00:00.000Z", 1),
            day("2026-11-19", "2026-11-19T00:00:00.000Z", "2026-11-20T00:00:00.000Z", 2),
            day("2026-11-20", "2026-11-20T00:00:00.000Z", "2026-11-21T00:00:00.000Z", 0),
            day("2026-11-21", "2026-11-21T00:00:00.000Z", NOW, 1),
          ],
          2,
        ),
      );
      await expectPerDay(
        api,
        "files",
        { from },
        available(
          "UTC",
          [
            day("2026-11-18", "2026-11-18T00:00:00.000Z", "2026-11-19T00:00:00.000Z", 0),
            day("2026-11-19", "2026-11-19T00:00:00.000Z", "2026-11-20T00:00:00.000Z", 1),
            day("2026-11-20", "2026-11-20T00:00:00.000Z", "2026-11-21T00:00:00.000Z", 2),
            day("2026-11-21", "2026-11-21T00:00:00.000Z", NOW, 0),
          ],
          3,
        ),
      );
    });

    test("23:59:59.999 and 00:00:00.000 fall in different days; the range is [from, to) to the millisecond", async () => {
      // Both instants, each in its own day cut to one millisecond.
      await expectPerDay(
        api,
        "missions",
        { from: "2026-11-18T23:59:59.999Z", to: "2026-11-19T00:00:00.001Z" },
        available(
          "UTC",
          [
            day("2026-11-18", "2026-11-18T23:59:59.999Z", "2026-11-19T00:00:00.000Z", 1),
            day("2026-11-19", "2026-11-19T00:00:00.000Z", "2026-11-19T00:00:00.001Z", 1),
          ],
          2,
        ),
      );
      // A record at `to` is not counted; one at `from` is.
      await expectPerDay(
        api,
        "missions",
        { from: "2026-11-18T00:00:00.000Z", to: "2026-11-19T00:00:00.000Z" },
        available("UTC", [day("2026-11-18", "2026-11-18T00:00:00.000Z", "2026-11-19T00:00:00.000Z", 1)], 2),
      );
      // A record 1 ms before `from` is not counted.
      await expectPerDay(
        api,
        "missions",
        { from: "2026-11-19T00:00:00.001Z", to: "2026-11-19T12:00:00.001Z" },
        available("UTC", [day("2026-11-19", "2026-11-19T00:00:00.001Z", "2026-11-19T12:00:00.001Z", 1)], 2),
      );
      // An explicit `to` in the future counts the future record; the one at NOW is counted now.
      await expectPerDay(
        api,
        "missions",
        { from: "2026-11-21T00:00:00.000Z", to: "2026-11-22T00:00:00.000Z" },
        available("UTC", [day("2026-11-21", "2026-11-21T00:00:00.000Z", "2026-11-22T00:00:00.000Z", 3)], 2),
      );
    });

    test("`to` defaults to the request's now: 1 ms later the record at NOW is counted", async () => {
      service.clock.set("2026-11-21T22:10:00.001Z");
      await expectPerDay(
        api,
        "missions",
        { from: "2026-11-21T00:00:00.000Z" },
        available("UTC", [day("2026-11-21", "2026-11-21T00:00:00.000Z", "2026-11-21T22:10:00.001Z", 2)], 2),
      );
    });

    test("offsets in from and to are instants; the GraphQL name timeZone is an alias of time_zone", async () => {
      const response = await rest(api, "missions", `?from=${encodeURIComponent("2026-11-19T01:00:00+01:00")}&to=${encodeURIComponent("2026-11-19T13:00:00+01:00")}&timeZone=UTC`);
      expect({ status: response.status, body: response.body }).toEqual({
        status: 200,
        body: available("UTC", [day("2026-11-19", "2026-11-19T00:00:00.000Z", "2026-11-19T12:00:00.000Z", 1)], 2),
      });
    });
  });

  describe("Europe/Berlin across the daylight-saving changes", () => {
    test("2026-03-29 has 23 hours (2026-03-28T23:00Z to 2026-03-29T22:00Z); the network's zone is the default", async () => {
      await expectPerDay(
        berlinApi,
        "missions",
        { from: "2026-03-27T23:00:00.000Z", to: "2026-03-30T22:00:00.000Z" },
        available(
          "Europe/Berlin",
          [
            day("2026-03-28", "2026-03-27T23:00:00.000Z", "2026-03-28T23:00:00.000Z", 1),
            day("2026-03-29", "2026-03-28T23:00:00.000Z", "2026-03-29T22:00:00.000Z", 4),
            day("2026-03-30", "2026-03-29T22:00:00.000Z", "2026-03-30T22:00:00.000Z", 1),
          ],
          1,
        ),
      );
    });

    test("2026-10-25 has 25 hours (2026-10-24T22:00Z to 2026-10-25T23:00Z), both 02:30s in it", async () => {
      await expectPerDay(
        berlinApi,
        "files",
        { from: "2026-10-23T22:00:00.000Z", to: "2026-10-26T23:00:00.000Z" },
        available(
          "Europe/Berlin",
          [
            day("2026-10-24", "2026-10-23T22:00:00.000Z", "2026-10-24T22:00:00.000Z", 1),
            day("2026-10-25", "2026-10-24T22:00:00.000Z", "2026-10-25T23:00:00.000Z", 4),
            day("2026-10-26", "2026-10-25T23:00:00.000Z", "2026-10-26T23:00:00.000Z", 1),
          ],
          0,
        ),
      );
    });

    test("a range not at local midnights: the first and last local days are cut to it", async () => {
      await expectPerDay(
        berlinApi,
        "missions",
        { from: "2026-03-29T00:00:00.000Z", to: "2026-03-29T22:00:00.001Z" },
        available(
          "Europe/Berlin",
          [
            day("2026-03-29", "2026-03-29T00:00:00.000Z", "2026-03-29T22:00:00.000Z", 3),
            day("2026-03-30", "2026-03-29T22:00:00.000Z", "2026-03-29T22:00:00.001Z", 1),
          ],
          1,
        ),
      );
    });

    test("time_zone overrides the network's: the same records in UTC days", async () => {
      await expectPerDay(
        berlinApi,
        "missions",
        { from: "2026-03-27T23:00:00.000Z", to: "2026-03-30T22:00:00.000Z", timeZone: "UTC" },
        available(
          "UTC",
          [
            day("2026-03-27", "2026-03-27T23:00:00.000Z", "2026-03-28T00:00:00.000Z", 0),
            day("2026-03-28", "2026-03-28T00:00:00.000Z", "2026-03-29T00:00:00.000Z", 2),
            day("2026-03-29", "2026-03-29T00:00:00.000Z", "2026-03-30T00:00:00.000Z", 4),
            day("2026-03-30", "2026-03-30T00:00:00.000Z", "2026-03-30T22:00:00.000Z", 0),
          ],
          1,
        ),
      );
      // And network A (UTC) asked for Berlin's days.
      await expectPerDay(
        api,
        "missions",
        { from: "2026-11-18T23:00:00.000Z", to: "2026-11-19T23:00:00.000Z", timeZone: "Europe/Berlin" },
        available("Europe/Berlin", [day("2026-11-19", "2026-11-18T23:00:00.000Z", "2026-11-19T23:00:00.000Z", 3)], 2),
      );
    });
  });

  describe("Asia/Kolkata: local midnight at 18:30Z", () => {
    const kolkata = { from: "2026-06-13T18:30:00.000Z", to: "2026-06-16T18:30:00.000Z", timeZone: "Asia/Kolkata" };
    const kolkataDays = available(
      "Asia/Kolkata",
      [
        day("2026-06-14", "2026-06-13T18:30:00.000Z", "2026-06-14T18:30:00.000Z", 1),
        day("2026-06-15", "2026-06-14T18:30:00.000Z", "2026-06-15T18:30:00.000Z", 6),
        day("2026-06-16", "2026-06-15T18:30:00.000Z", "2026-06-16T18:30:00.000Z", 2),
      ],
      2,
    );

    test("18:29:59Z and 18:30:00Z fall in different local days; a whole hour's records all count", async () => {
      await expectPerDay(api, "missions", kolkata, kolkataDays);
    });

    test("whole hours come from the hour counts, only the hours a boundary cuts are read record by record", async () => {
      const calls: { createdIn: string[][]; read: number; perHour: { hour: string; count: number }[] } = { createdIn: [], read: 0, perHour: [] };
      const store = service.db.recordTrends;
      const spy: RecordTrendStore = {
        ...store,
        perHour: async (...args) => {
          const hours = await store.perHour(...args);
          calls.perHour.push(...hours.map(({ hour, count }) => ({ hour: hour.toISOString(), count })));
          return hours;
        },
        createdIn: async (networkId, kind, ranges) => {
          calls.createdIn.push(...ranges.map((range) => [range.from.toISOString(), range.to.toISOString()]));
          const instants = await store.createdIn(networkId, kind, ranges);
          calls.read += instants.length;
          return instants;
        },
      };
      const ctx: Context = { db: { ...service.db, recordTrends: spy }, network: networkA, key: operatorKey, now: () => new Date(NOW) };
      const result = await missionsPerDay(ctx, { from: new Date(kolkata.from), to: new Date(kolkata.to), timeZone: kolkata.timeZone });
      // The resolver's days name the date `label` (the schema exposes it as `date`).
      const days = result.days!.map(({ label, start, end, count }) => day(label, start.toISOString(), end.toISOString(), count));
      expect({ ...result, days }).toEqual(kolkataDays);
      expect(calls.createdIn).toEqual([
        ["2026-06-13T18:30:00.000Z", "2026-06-13T19:00:00.000Z"],
        ["2026-06-14T18:00:00.000Z", "2026-06-14T19:00:00.000Z"],
        ["2026-06-15T18:00:00.000Z", "2026-06-15T19:00:00.000Z"],
        ["2026-06-16T18:00:00.000Z", "2026-06-16T18:30:00.000Z"],
      ]);
      // The six records of the cut hours one by one; the three of 10:00Z as one hour's count.
      expect(calls.read).toBe(6);
      expect(calls.perHour).toContainEqual({ hour: "2026-06-15T10:00:00.000Z", count: 3 });
    });

    test("a range inside one hour: from and to both mid-hour", async () => {
      await expectPerDay(
        api,
        "missions",
        { from: "2026-06-15T10:15:00.000Z", to: "2026-06-15T10:59:59.999Z", timeZone: "Asia/Kolkata" },
        available("Asia/Kolkata", [day("2026-06-15", "2026-06-15T10:15:00.000Z", "2026-06-15T10:59:59.999Z", 1)], 2),
      );
    });
  });

  describe("networks", () => {
    test("another network's key counts only its own records, in the same hours", async () => {
      await expectPerDay(
        otherApi,
        "missions",
        { from: "2026-11-18T00:00:00.000Z" },
        available(
          "UTC",
          [
            day("2026-11-18", "2026-11-18T00:00:00.000Z", "2026-11-19T00:00:00.000Z", 1),
            day("2026-11-19", "2026-11-19T00:00:00.000Z", "2026-11-20T00:00:00.000Z", 3),
            day("2026-11-20", "2026-11-20T00:00:00.000Z", "2026-11-21T00:00:00.000Z", 0),
            day("2026-11-21", "2026-11-21T00:00:00.000Z", NOW, 1),
          ],
          1,
        ),
      );
      await expectPerDay(
        otherApi,
        "files",
        { from: "2026-11-18T00:00:00.000Z" },
        available(
          "UTC",
          [
            day("2026-11-18", "2026-11-18T00:00:00.000Z", "2026-11-19T00:00:00.000Z", 0),
            day("2026-11-19", "2026-11-19T00:00:00.000Z", "2026-11-20T00:00:00.000Z", 1),
            day("2026-11-20", "2026-11-20T00:00:00.000Z", "2026-11-21T00:00:00.000Z", 1),
            day("2026-11-21", "2026-11-21T00:00:00.000Z", NOW, 0),
          ],
          1,
        ),
      );
      await expectPerDay(
        otherApi,
        "missions",
        { from: "2026-06-13T18:30:00.000Z", to: "2026-06-16T18:30:00.000Z", timeZone: "Asia/Kolkata" },
        available(
          "Asia/Kolkata",
          [
            day("2026-06-14", "2026-06-13T18:30:00.000Z", "2026-06-14T18:30:00.000Z", 1),
            day("2026-06-15", "2026-06-14T18:30:00.000Z", "2026-06-15T18:30:00.000Z", 1),
            day("2026-06-16", "2026-06-15T18:30:00.000Z", "2026-06-16T18:30:00.000Z", 1),
          ],
          1,
        ),
      );
    });

    test("a network without records: zeros with timestampAvailable true (not null)", async () => {
      await expectPerDay(
        emptyApi,
        "files",
        { from: "2026-11-20T12:00:00.000Z" },
        available(
          "UTC",
          [day("2026-11-20", "2026-11-20T12:00:00.000Z", "2026-11-21T00:00:00.000Z", 0), day("2026-11-21", "2026-11-21T00:00:00.000Z", NOW, 0)],
          0,
        ),
      );
    });
  });

  describe("bad input", () => {
    const messages = {
      dateTime: (field: string) => `The ${field} field must be an ISO-8601 date and time with a time zone, e.g. 2026-11-21T22:10:00Z.`,
      after: "The to field must be a date after from.",
      zone: "The time zone field must be an IANA time zone, e.g. Europe/Berlin or UTC.",
      tooLong: "The to field must be closer to from: a report holds at most 400 days.",
    };

    /** REST answers 422 with `{message, errors}`, errors keyed by the parameters' snake_case names. */
    async function expectInvalid(query: string, errors: Record<string, unknown[]>) {
      for (const trend of ["missions", "files"] as const) {
        const response = await rest(api, trend, query);
        expect({ trend, query, status: response.status, body: response.body }).toEqual({
          trend,
          query,
          status: 422,
          body: { message: expect.any(String), errors },
        });
        // Laravel's summary: the first message, and how many more follow.
        const all = Object.values(response.body.errors as Record<string, string[]>).flat();
        const more = all.length - 1;
        expect(response.body.message).toBe(more === 0 ? all[0] : `${all[0]} (and ${more} more error${more === 1 ? "" : "s"})`);
      }
    }

    test("missing from", async () => {
      await expectInvalid("", { from: ["The from field is required."] });
      await expectInvalid(queryOf({ to: NOW }), { from: ["The from field is required."] });
    });

    test("from or to that is no instant", async () => {
      await expectInvalid(queryOf({ from: "garbage" }), { from: [messages.dateTime("from")] });
      await expectInvalid(queryOf({ from: "2026-11-20" }), { from: [messages.dateTime("from")] });
      await expectInvalid(queryOf({ from: "2026-11-20T00:00:00Z", to: "2026-02-30T00:00:00Z" }), { to: [messages.dateTime("to")] });
    });

    test("to at or before from", async () => {
      await expectInvalid(queryOf({ from: "2026-11-20T00:00:00Z", to: "2026-11-19T00:00:00Z" }), { to: [messages.after] });
      await expectInvalid(queryOf({ from: "2026-11-20T00:00:00Z", to: "2026-11-20T00:00:00Z" }), { to: [messages.after] });
      // `to` defaulting to now: a `from` after now.
      await expectInvalid(queryOf({ from: "2026-11-22T00:00:00Z" }), { to: [messages.after] });
    });

    test("an unknown time zone", async () => {
      await expectInvalid(queryOf({ from: "2026-11-20T00:00:00Z", timeZone: "Mars/Olympus" }), { time_zone: [messages.zone] });
      await expectInvalid(queryOf({ from: "2026-11-20T00:00:00Z" }, { timeZone: "Mars/Olympus" }), { time_zone: [messages.zone] });
      await expectInvalid(queryOf({ from: "2026-11-20T00:00:00Z", timeZone: "" }), { time_zone: [messages.zone] });
    });

    test("several errors at once, each under its parameter", async () => {
      await expectInvalid(queryOf({ from: "2026-11-20T00:00:00Z", to: "2026-11-19T00:00:00Z", timeZone: "Mars/Olympus" }), {
        to: [messages.after],
        time_zone: [messages.zone],
      });
    });

    test("a range over 400 days", async () => {
      await expectInvalid(queryOf({ from: "2025-01-01T00:00:00Z", to: "2026-02-07T00:00:00Z" }), { to: [messages.tooLong] });
      await expectInvalid(queryOf({ from: "1970-01-01T00:00:00Z" }), { to: [messages.tooLong] });
      // 400 days is a report.
      const response = await rest(api, "missions", queryOf({ from: "2025-10-17T00:00:00Z", to: "2026-11-21T00:00:00Z" }));
      expect({ status: response.status, days: response.body.days?.length }).toEqual({ status: 200, days: 400 });
    });

    // A range of 401 days from mid-day meets 402 dates: it is refused, or answered whole, never
    // with its last days silently dropped (as a cap on the days once did).
    test("a range the check lets through is never cut short: its days run from `from` to `to`", async () => {
      const ranges: Range[] = [
        { from: "2025-10-16T12:00:00.000Z", to: "2026-11-21T12:00:00.000Z" }, // 401 days from mid-day: 402 dates
        { from: "2025-10-16T12:00:00.000Z", to: "2026-11-21T11:00:00.000Z", timeZone: "Asia/Kolkata" }, // 402 local dates
      ];
      const answers: object[] = [];
      for (const range of ranges) {
        const response = await rest(api, "missions", queryOf(range));
        const days: Day[] | undefined = response.body.days;
        answers.push(
          response.status === 422
            ? { range, refused: true }
            : {
                range,
                status: response.status,
                first: days?.[0].start,
                last: days?.[days.length - 1].end,
                gaps: days?.filter((d, i) => i > 0 && d.start !== days[i - 1].end).length,
              },
        );
      }
      const wanted = ranges.map((range, i) => ("refused" in answers[i] ? answers[i] : { range, status: 200, first: range.from, last: range.to, gaps: 0 }));
      expect(answers).toEqual(wanted);
    });

    test("GraphQL: BAD_USER_INPUT", async () => {
      const cases: { range: Range; field?: string }[] = [
        { range: { from: "garbage" } },
        { range: { from: "2026-11-20T00:00:00Z", to: "2026-11-19T00:00:00Z" }, field: "to" },
        { range: { from: "2026-11-20T00:00:00Z", timeZone: "Mars/Olympus" }, field: "timeZone" },
        { range: { from: "2025-01-01T00:00:00Z", to: "2026-02-07T00:00:00Z" }, field: "to" },
      ];
      for (const { range, field } of cases) {
        for (const trend of ["missions", "files"] as const) {
          const response = await graphql(api, trend, range);
          const error = response.body.errors?.[0];
          expect({ trend, range, code: error?.extensions?.code, data: response.body.data ?? null }).toEqual({ trend, range, code: "BAD_USER_INPUT", data: null });
          if (field) expect({ trend, range, fields: Object.keys(error.extensions.errors) }).toEqual({ trend, range, fields: [field] });
        }
      }
      // A missing from is refused by GraphQL's validation.
      const missing = await api.graphql(`{ missionsPerDay { unknown } }`);
      expect(missing.body.errors?.[0]?.message).toMatch(/argument "from" of type "DateTime!" is required/);
    });

    test("no key: 401", async () => {
      const anonymous = client(service.url);
      for (const trend of ["missions", "files"] as const) {
        const response = await rest(anonymous, trend, queryOf({ from: "2026-11-20T00:00:00Z" }));
        expect({ trend, status: response.status, body: response.body }).toEqual({ trend, status: 401, body: { message: "Unauthenticated." } });
        const viaGraphql = await graphql(anonymous, trend, { from: "2026-11-20T00:00:00Z" });
        expect({ trend, status: viaGraphql.status }).toEqual({ trend, status: 401 });
      }
    });
  });
});

describe("creation times that cannot be evaluated (destructive, own database)", () => {
  let service: TestService;
  afterAll(() => service.close());

  async function dropCreatedAt(table: string) {
    await dropCreatedAtOf(service.db, table);
    expect(await columnsOf(service.db.prisma, table)).not.toContain("created_at");
  }

  test("days and unknown null with timestampAvailable false (200, never zeros); the other kind still counts", async () => {
    service = await startService();
    service.clock.set(NOW);
    const api = client(service.url, (await service.network()).apiKey);
    await createAll(api, "mission", ["2026-11-20T10:00:00.000Z", "2026-11-21T10:30:00.000Z", null]);
    await createAll(api, "patient", ["2026-11-20T10:00:00.000Z", null]);
    await createAll(api, "offender", ["2026-11-21T10:30:00.000Z"]);
    const range = { from: "2026-11-20T00:00:00.000Z" };
    const days = (first: number, second: number) => [
      day("2026-11-20", "2026-11-20T00:00:00.000Z", "2026-11-21T00:00:00.000Z", first),
      day("2026-11-21", "2026-11-21T00:00:00.000Z", NOW, second),
    ];
    await expectPerDay(api, "missions", range, available("UTC", days(1, 1), 1));
    await expectPerDay(api, "files", range, available("UTC", days(1, 1), 1));

    const unavailable = { timeZone: "UTC", timestampAvailable: false, days: null, unknown: null };
    await dropCreatedAt("mission_reports");
    await expectPerDay(api, "missions", range, unavailable);
    // Also with a range no boundary cuts (no hour read record by record).
    await expectPerDay(api, "missions", { from: "2026-11-20T00:00:00.000Z", to: "2026-11-21T00:00:00.000Z" }, unavailable);
    await expectPerDay(api, "files", range, available("UTC", days(1, 1), 1));

    // One of the files' two tables without the column: files unavailable too.
    await dropCreatedAt("offender_files");
    await expectPerDay(api, "files", range, unavailable);
    // Bad input is still bad input.
    expect((await rest(api, "missions", queryOf({ from: "garbage" }))).status).toBe(422);
  });
});
