// Windows of dutytime entries kept per process (src/resolvers/keptEntries.ts): a report of a range
// not asked before is counted from the network's kept window while its dutytime_version is
// unchanged, so every writer (the toggle, a correction, the admin command's process, plain SQL)
// shows in the next report of any range, also when writes race the reports; a range outside
// the window reads a new one; windows are bounded in bytes.
import { cacheCounts } from "../src/config/cacheCounts";
import type { ReportEntries } from "../src/db/store";
import { KeptEntries, windowAround, windowBytes } from "../src/resolvers/keptEntries";
import { client, type Client } from "./support/http";
import { startService, type TestService } from "./support/service";

describe("KeptEntries", () => {
  const at = (iso: string) => new Date(iso);
  const entries = (numbers: number): ReportEntries => new Map([[1, Array.from({ length: numbers }, (_, i) => i)]]);

  test("answers a window only at the version it was read at and for ranges inside it, and counts hits and misses", () => {
    const kept = new KeptEntries();
    const before = { ...cacheCounts.dutyEntries };
    const held = entries(4);
    kept.offer(1, "v1", at("2026-11-01T00:00:00Z"), at("2026-12-01T00:00:00Z"), held);
    expect(kept.get(1, "v1", at("2026-11-01T00:00:00Z"), at("2026-12-01T00:00:00Z"))).toBe(held);
    expect(kept.get(1, "v1", at("2026-11-10T00:00:00Z"), at("2026-11-11T00:00:00Z"))).toBe(held);
    // Another version, a range starting before the window or ending after it, another network.
    expect(kept.get(1, "v2", at("2026-11-10T00:00:00Z"), at("2026-11-11T00:00:00Z"))).toBeUndefined();
    expect(kept.get(1, "v1", at("2026-10-31T23:59:59.999Z"), at("2026-11-11T00:00:00Z"))).toBeUndefined();
    expect(kept.get(1, "v1", at("2026-11-10T00:00:00Z"), at("2026-12-01T00:00:00.001Z"))).toBeUndefined();
    expect(kept.get(2, "v1", at("2026-11-10T00:00:00Z"), at("2026-11-11T00:00:00Z"))).toBeUndefined();
    expect({ hits: cacheCounts.dutyEntries.hits - before.hits, misses: cacheCounts.dutyEntries.misses - before.misses }).toEqual({ hits: 2, misses: 4 });
  });

  test("a window reaches a quarter of its range beyond each side, an hour at least, within the instants a DateTime holds", () => {
    expect(windowAround(at("2026-11-01T00:00:00Z"), at("2026-11-05T00:00:00Z"))).toEqual({ from: at("2026-10-31T00:00:00Z"), to: at("2026-11-06T00:00:00Z") });
    expect(windowAround(at("2026-11-01T00:00:00Z"), at("2026-11-01T00:00:01Z"))).toEqual({ from: at("2026-10-31T23:00:00Z"), to: at("2026-11-01T01:00:01Z") });
    expect(windowAround(at("0001-01-01T00:10:00Z"), at("9999-12-31T23:50:00Z"))).toEqual({ from: at("0001-01-01T00:00:00Z"), to: at("9999-12-31T23:59:59.999Z") });
  });

  test("one window per network; at most its bytes, the least recently used dropped first; none over a quarter of them", () => {
    const one = windowBytes(entries(100));
    // Four windows of `one` fit; a window of `one` is a quarter of the bytes, the most kept.
    const kept = new KeptEntries(4 * one);
    const [from, to] = [at("2026-11-01T00:00:00Z"), at("2026-12-01T00:00:00Z")];
    for (const network of [1, 2, 3, 4]) kept.offer(network, "v", from, to, entries(100));
    expect(kept.heldBytes).toBe(4 * one);
    // The network's window is replaced, not added to.
    kept.offer(4, "w", from, to, entries(100));
    expect(kept.heldBytes).toBe(4 * one);
    expect(kept.get(4, "v", from, to)).toBeUndefined();
    expect(kept.get(4, "w", from, to)).toBeDefined();
    // Network 1 used since: network 2 goes when a fifth comes.
    expect(kept.get(1, "v", from, to)).toBeDefined();
    kept.offer(5, "v", from, to, entries(100));
    expect(kept.get(2, "v", from, to)).toBeUndefined();
    for (const network of [1, 3, 5]) expect(kept.get(network, "v", from, to)).toBeDefined();
    expect(kept.heldBytes).toBe(4 * one);
    // Over a quarter of the bytes: not kept, and the network's older window is gone too.
    kept.offer(5, "w", from, to, entries(101));
    expect(kept.get(5, "w", from, to)).toBeUndefined();
    expect(kept.get(5, "v", from, to)).toBeUndefined();
    expect(kept.heldBytes).toBe(3 * one);
  });
});

describe("reports of new ranges over HTTP", () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startService();
  });
  afterAll(() => service.close());
  afterEach(() => service.clock.reset());

  const reportQuery = `query ($from: DateTime!, $to: DateTime) {
    dutyHours(from: $from, to: $to) { officers { identifier name totalSeconds shifts } }
  }`;

  let asked = 0;
  /** Every report asks a range not asked before: from 2026-11-01, a second earlier each time, to 2026-12-01. */
  async function report(api: Client) {
    const from = new Date(Date.parse("2026-11-01T00:00:00Z") - ++asked * 1000).toISOString();
    const response = await api.graphql(reportQuery, { from, to: "2026-12-01T00:00:00Z" });
    expect(response.body.errors).toBeUndefined();
    return response.body.data.dutyHours.officers as { identifier: string; name: string; totalSeconds: number; shifts: number }[];
  }

  const windowHits = () => cacheCounts.dutyEntries.hits;
  const reportHits = () => cacheCounts.dutyReports.hits;

  async function toggleAt(api: Client, identifier: string, instant: string) {
    service.clock.set(instant);
    expect((await api.post(`/dutytime/${encodeURIComponent(identifier)}/toggle`)).status).toBe(200);
  }

  /** A network whose officer steam:1 served 10:00 to 12:00 on 10 November; the clock on 17 December. */
  async function twoHours() {
    const network = await service.network();
    const officer = await network.officer("1", "Window Officer");
    const api = client(service.url, network.apiKey);
    await toggleAt(api, "steam:1", "2026-11-10T10:00:00Z");
    await toggleAt(api, "steam:1", "2026-11-10T12:00:00Z");
    service.clock.set("2026-12-17T00:00:00Z");
    return { network, officer, api };
  }

  test("a new range inside the window is counted from memory, the same as read, and one outside it reads a new window", async () => {
    const { api } = await twoHours();
    const expected = [{ identifier: "steam:1", name: "Window Officer", totalSeconds: 7200, shifts: 1 }];
    expect(await report(api)).toEqual(expected);
    const [windows, reports] = [windowHits(), reportHits()];
    expect(await report(api)).toEqual(expected);
    expect(await report(api)).toEqual(expected);
    // Answered from the window, not from a kept report (each range is new).
    expect(windowHits() - windows).toBe(2);
    expect(reportHits() - reports).toBe(0);
    // A range reaching far beyond the window (a year) reads the entries again.
    const before = windowHits();
    const year = await api.graphql(reportQuery, { from: "2026-01-01T00:00:00Z", to: "2027-01-01T00:00:00Z" });
    expect(year.body.data.dutyHours.officers).toEqual(expected);
    expect(windowHits() - before).toBe(0);
    // A range inside the window with no entries of it: no officer, from memory.
    const empty = await api.graphql(reportQuery, { from: "2026-11-11T00:00:00Z", to: "2026-11-12T00:00:00Z" });
    expect(empty.body.data.dutyHours.officers).toEqual([]);
    expect(windowHits() - before).toBe(1);
  });

  test("every writer shows in the next report of a new range: toggle, correction, plain SQL, removal of entries", async () => {
    const { network, officer, api } = await twoHours();
    expect((await report(api))[0].totalSeconds).toBe(7200);
    expect((await report(api))[0].totalSeconds).toBe(7200);

    await toggleAt(api, "steam:1", "2026-11-10T20:00:00Z");
    await toggleAt(api, "steam:1", "2026-11-10T21:00:00Z");
    service.clock.set("2026-12-17T00:00:00Z");
    expect((await report(api))[0]).toMatchObject({ totalSeconds: 3 * 3600, shifts: 2 });

    const entries = (await api.get("/officers/steam%3A1/dutytime")).body.data as { id: number; startedAt: string }[];
    const morning = entries.find((entry) => entry.startedAt === "2026-11-10T10:00:00.000Z")!;
    const corrected = await api.graphql(`mutation ($id: ID!) { correctDutytimeEntry(id: $id, input: { endedAt: "2026-11-10T13:00:00Z" }) { id } }`, { id: morning.id });
    expect(corrected.body.errors).toBeUndefined();
    expect((await report(api))[0].totalSeconds).toBe(4 * 3600);

    await service.db.prisma.$executeRawUnsafe(`UPDATE dutytime_entries SET ended_at = started_at WHERE id = ${morning.id}`);
    expect((await report(api))[0].totalSeconds).toBe(3600);
    await service.db.prisma.$executeRawUnsafe(
      `INSERT INTO dutytime_entries (network_id, officer_id, started_at, ended_at) VALUES (${network.id}, ${officer.id}, '2026-11-20 08:00:00', '2026-11-20 10:00:00')`,
    );
    expect((await report(api))[0]).toMatchObject({ totalSeconds: 3 * 3600, shifts: 2 });

    await service.db.prisma.$executeRawUnsafe(`DELETE FROM dutytime_entries WHERE network_id = ${network.id}`);
    expect(await report(api)).toEqual([]);
  });

  test("an open entry in a window counts up to each report's now", async () => {
    const network = await service.network();
    await network.officer("1", "Open Window");
    const api = client(service.url, network.apiKey);
    await toggleAt(api, "steam:1", "2026-11-20T10:00:00Z");
    for (const [now, seconds] of [["2026-11-20T11:00:00Z", 3600], ["2026-11-20T11:30:00Z", 5400], ["2026-11-21T10:00:00Z", 24 * 3600]] as const) {
      service.clock.set(now);
      expect((await report(api))[0].totalSeconds).toBe(seconds);
    }
  });

  test("writes racing reports of new ranges: each report shows some whole set of the writes, and the next one after them shows all", async () => {
    const network = await service.network();
    const officer = await network.officer("1", "Racing Officer");
    const api = client(service.url, network.apiKey);
    service.clock.set("2026-12-17T00:00:00Z");
    expect(await report(api)).toEqual([]);
    // One hour on each of 20 days of November, written by plain SQL while reports of new ranges run.
    const hours = 20;
    const writes = Array.from({ length: hours }, (_, day) => {
      const date = `2026-11-${String(day + 5).padStart(2, "0")}`;
      return service.db.prisma.$executeRawUnsafe(
        `INSERT INTO dutytime_entries (network_id, officer_id, started_at, ended_at) VALUES (${network.id}, ${officer.id}, '${date} 08:00:00', '${date} 09:00:00')`,
      );
    });
    const reports = Array.from({ length: hours }, () => report(api));
    const [, answers] = await Promise.all([Promise.all(writes), Promise.all(reports)]);
    for (const answer of answers) {
      const seconds = answer[0]?.totalSeconds ?? 0;
      expect(seconds % 3600).toBe(0);
      expect(seconds).toBeLessThanOrEqual(hours * 3600);
    }
    // Every write has committed: the next report of any range shows all of them, twice (the second from memory).
    const windows = windowHits();
    expect((await report(api))[0]).toMatchObject({ totalSeconds: hours * 3600, shifts: hours });
    expect((await report(api))[0]).toMatchObject({ totalSeconds: hours * 3600, shifts: hours });
    expect(windowHits() - windows).toBeGreaterThanOrEqual(1);
  });

  test("networks never share a window: the same range in another network answers its own hours", async () => {
    const { api } = await twoHours();
    await report(api);
    const other = await service.network();
    await other.officer("1", "Other Officer");
    const otherApi = client(service.url, other.apiKey);
    expect(await report(otherApi)).toEqual([]);
    expect((await report(api))[0].totalSeconds).toBe(7200);
  });
});
