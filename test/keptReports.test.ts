// Duty hours reports kept per process (src/resolvers/keptReports.ts): a report asked again is
// answered from memory only while its network's dutytime_version is unchanged, so every writer
// (the toggle, a correction, a rename or removal through GraphQL, the admin command in its own
// process, plain SQL) shows in the next report; reports that later moments change (an open entry
// in a range reaching past now) are counted every time; the kept reports' size is bounded.
import { cacheCounts } from "../src/config/cacheCounts";
import { KeptReports, maxAskedOnce } from "../src/resolvers/keptReports";
import { client, type Client } from "./support/http";
import { runAdmin } from "./support/process";
import { startService, type TestService } from "./support/service";

describe("KeptReports", () => {
  /** Offered twice: counted a second time, so kept. */
  const keep = <Report>(kept: KeptReports<Report>, key: string, version: string, report: Report, bytes: number) => {
    kept.offer(key, version, report, bytes);
    kept.offer(key, version, report, bytes);
  };

  test("answers a report only at the version it was computed at, and counts hits and misses", () => {
    const kept = new KeptReports<string>(1_000);
    const before = { ...cacheCounts.dutyReports };
    expect(kept.get("a", "1")).toBeUndefined();
    keep(kept, "a", "1", "report at 1", 10);
    expect(kept.get("a", "1")).toBe("report at 1");
    expect(kept.get("a", "2")).toBeUndefined();
    expect(kept.get("b", "1")).toBeUndefined();
    expect({ hits: cacheCounts.dutyReports.hits - before.hits, misses: cacheCounts.dutyReports.misses - before.misses }).toEqual({ hits: 1, misses: 3 });
    // Counted again at a newer version: it replaces the kept one (it was counted before).
    kept.offer("a", "2", "report at 2", 10);
    expect([kept.get("a", "1"), kept.get("a", "2"), kept.keptBytes()]).toEqual([undefined, "report at 2", 10]);
  });

  test("requests of one report counted side by side leave it kept: one finishing at the kept version does not drop it", () => {
    const kept = new KeptReports<string>(1_000);
    kept.rememberAsked("a");
    // Two requests read version 1, both count the report; the first to finish keeps it.
    kept.offer("a", "1", "first", 10);
    kept.offer("a", "1", "second", 10);
    expect([kept.get("a", "1"), kept.keptBytes()]).toEqual(["first", 10]);
    // One that read an older version and finished last replaces it (harmless: readers of 2 count it again).
    kept.offer("a", "0", "older", 10);
    expect([kept.get("a", "1"), kept.get("a", "0"), kept.keptBytes()]).toEqual([undefined, "older", 10]);
  });

  test("keeps a report only when it is counted a second time, and forgets the reports asked once when too many are", () => {
    const kept = new KeptReports<number>(1_000);
    kept.offer("once", "v", 1, 10);
    expect(kept.get("once", "v")).toBeUndefined();
    for (let i = 0; i < maxAskedOnce; i++) kept.offer(`other ${i}`, "v", i, 10);
    // "once" was forgotten with the others when the remembered ones were full.
    kept.offer("once", "v", 1, 10);
    expect([kept.get("once", "v"), kept.keptBytes()]).toEqual([undefined, 0]);
    kept.offer("once", "v", 1, 10);
    expect(kept.get("once", "v")).toBe(1);
  });

  test("a key neither kept nor counted before is unknown (a miss, no version needed), known once remembered, then kept when offered", () => {
    const kept = new KeptReports<string>(1_000);
    const misses = cacheCounts.dutyReports.misses;
    expect(kept.known("new")).toBe(false);
    expect(cacheCounts.dutyReports.misses - misses).toBe(1);
    kept.rememberAsked("new");
    expect(kept.known("new")).toBe(true);
    kept.offer("new", "v", "report", 10);
    expect([kept.known("new"), kept.get("new", "v")]).toEqual([true, "report"]);
  });

  test("holds at most its bytes, dropping the least recently used first, and never keeps a report over a tenth of them", () => {
    const kept = new KeptReports<number>(100);
    for (let i = 0; i < 10; i++) keep(kept, `r${i}`, "v", i, 10);
    expect(kept.keptBytes()).toBe(100);
    expect(kept.get("r0", "v")).toBe(0); // now the most recently used
    keep(kept, "r10", "v", 10, 10);
    expect(kept.keptBytes()).toBe(100);
    expect([kept.get("r0", "v"), kept.get("r1", "v"), kept.get("r10", "v")]).toEqual([0, undefined, 10]);
    keep(kept, "big", "v", -1, 11);
    expect([kept.get("big", "v"), kept.keptBytes()]).toEqual([undefined, 100]);
  });
});

describe("reports over HTTP", () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startService();
  });
  afterAll(() => service.close());
  afterEach(() => service.clock.reset());

  const day = { from: "2026-11-10T00:00:00Z", to: "2026-11-11T00:00:00Z" };
  const reportQuery = `query ($from: DateTime!, $to: DateTime) {
    dutyHours(from: $from, to: $to) { buckets { seconds } officers { identifier name removed totalSeconds } }
  }`;

  async function report(api: Client, variables: Record<string, unknown> = day) {
    const response = await api.graphql(reportQuery, variables);
    expect(response.body.errors).toBeUndefined();
    return response.body.data.dutyHours as { buckets: { seconds: number }[]; officers: { identifier: string; name: string; removed: boolean; totalSeconds: number }[] };
  }

  const hits = () => cacheCounts.dutyReports.hits;

  async function toggleAt(api: Client, identifier: string, instant: string) {
    service.clock.set(instant);
    expect((await api.post(`/dutytime/${encodeURIComponent(identifier)}/toggle`)).status).toBe(200);
  }

  /** A new network with one officer, steam:1 of this name, and its API. */
  async function networkWith(name: string) {
    const network = await service.network();
    await network.officer("1", name);
    return { network, api: client(service.url, network.apiKey) };
  }

  /** A network whose officer steam:1 served 10:00 to 12:00 on this day (two toggles); the clock on 17 November. */
  async function twoHours(name = "First Name", day = "2026-11-10") {
    const { network, api } = await networkWith(name);
    await toggleAt(api, "steam:1", `${day}T10:00:00Z`);
    await toggleAt(api, "steam:1", `${day}T12:00:00Z`);
    service.clock.set("2026-11-17T00:00:00Z");
    return { network, api };
  }

  test("a report asked again is kept when counted a second time, then answered from memory, the same as counted", async () => {
    const { api } = await twoHours();
    const first = await report(api);
    expect(first.officers).toEqual([{ identifier: "steam:1", name: "First Name", removed: false, totalSeconds: 7200 }]);
    let before = hits();
    expect(await report(api)).toEqual(first);
    expect(hits() - before).toBe(0);
    before = hits();
    expect(await report(api)).toEqual(first);
    expect((await api.get(`/statistics/duty-hours?from=${day.from}&to=${day.to}`)).status).toBe(200);
    expect(hits() - before).toBe(2);
  });

  test("a report asked by several requests at once, round after round, stays kept and is answered from memory", async () => {
    const { api } = await twoHours();
    const first = await report(api);
    for (let round = 0; round < 3; round++) {
      const answers = await Promise.all(Array.from({ length: 4 }, () => report(api)));
      for (const answer of answers) expect(answer).toEqual(first);
    }
    const before = hits();
    expect(await report(api)).toEqual(first);
    expect(hits() - before).toBe(1);
  });

  test("every writer shows in the next report: toggle, correction, rename, removal, the admin command, plain SQL", async () => {
    const { network, api } = await twoHours();
    // Each report is asked twice, so that it is kept when the next write comes.
    const twice = async (api: Client) => {
      const first = await report(api);
      expect(await report(api)).toEqual(first);
      return first;
    };
    await twice(api);

    // A toggle in the range (the clock back in it: a connector's late stop and start).
    await toggleAt(api, "steam:1", "2026-11-10T20:00:00Z");
    await toggleAt(api, "steam:1", "2026-11-10T21:00:00Z");
    service.clock.set("2026-11-17T00:00:00Z");
    expect((await twice(api)).officers[0].totalSeconds).toBe(3 * 3600);

    const entries = (await api.get("/officers/steam%3A1/dutytime")).body.data as { id: number; startedAt: string }[];
    const morning = entries.find((entry) => entry.startedAt === "2026-11-10T10:00:00.000Z")!;
    const corrected = await api.graphql(`mutation ($id: ID!) { correctDutytimeEntry(id: $id, input: { endedAt: "2026-11-10T13:00:00Z" }) { id } }`, { id: morning.id });
    expect(corrected.body.errors).toBeUndefined();
    expect((await twice(api)).officers[0].totalSeconds).toBe(4 * 3600);

    expect((await api.graphql(`mutation { renameOfficer(identifier: "steam:1", name: "Second Name") { name } }`)).body.errors).toBeUndefined();
    expect((await twice(api)).officers[0].name).toBe("Second Name");

    const renamed = runAdmin(["officer", "rename", "--network", String(network.id), "--identifier", "steam:1", "--name", "Third Name"], { DATABASE_URL: service.databaseUrl });
    expect(renamed.status).toBe(0);
    expect((await twice(api)).officers[0].name).toBe("Third Name");

    await service.db.prisma.$executeRawUnsafe(`UPDATE dutytime_entries SET ended_at = started_at WHERE id = ${morning.id}`);
    expect((await twice(api)).officers[0].totalSeconds).toBe(3600);

    expect((await api.graphql(`mutation { removeOfficer(identifier: "steam:1") { identifier } }`)).body.errors).toBeUndefined();
    expect((await twice(api)).officers[0].removed).toBe(true);

    await service.db.prisma.$executeRawUnsafe(`DELETE FROM dutytime_entries WHERE network_id = ${network.id}`);
    expect((await twice(api)).officers).toEqual([]);
  });

  test("a range reaching past now with an open entry is counted every time, up to now", async () => {
    const { api } = await networkWith("Open Entry");
    await toggleAt(api, "steam:1", "2026-11-10T10:00:00Z");
    service.clock.set("2026-11-10T11:00:00Z");
    expect((await report(api)).officers[0].totalSeconds).toBe(3600);
    service.clock.set("2026-11-10T11:30:00Z");
    expect((await report(api)).officers[0].totalSeconds).toBe(5400);
    service.clock.set("2026-11-10T11:45:00Z");
    expect((await report(api)).officers[0].totalSeconds).toBe(6300);
    // Once the range has ended, the report is final: kept when counted again, and still right.
    service.clock.set("2026-11-12T00:00:00Z");
    expect((await report(api)).officers[0].totalSeconds).toBe(14 * 3600);
    expect((await report(api)).officers[0].totalSeconds).toBe(14 * 3600);
    const before = hits();
    expect((await report(api)).officers[0].totalSeconds).toBe(14 * 3600);
    expect(hits() - before).toBe(1);
  });

  // Two processes whose clocks differ are one service: the toggle below is written at the
  // writer's clock (3 s ahead, or the same instant), the reports are asked at the reader's.
  test.each([
    ["written by a process whose clock runs 3 s ahead", "2026-11-10T10:00:03Z", 7],
    ["started at the very instant the report is counted", "2026-11-10T10:00:00Z", 10],
  ])("an entry %s is counted as time goes on, never frozen", async (_, startedAt, seconds) => {
    const { api } = await networkWith("Clock Ahead");
    await toggleAt(api, "steam:1", startedAt);
    service.clock.set("2026-11-10T10:00:00Z");
    // Counted twice at the reader's now: kept if it were final.
    expect((await report(api)).officers).toEqual([]);
    expect((await report(api)).officers).toEqual([]);
    service.clock.set("2026-11-10T10:00:10Z");
    expect((await report(api)).officers[0].totalSeconds).toBe(seconds);
    service.clock.set("2026-11-10T10:01:00Z");
    expect((await report(api)).officers[0].totalSeconds).toBe(seconds + 50);
  });

  test("a range not begun yet is counted again once it has, with an entry opened before it", async () => {
    const { api } = await networkWith("Early Start");
    await toggleAt(api, "steam:1", "2026-11-09T23:00:00Z");
    expect(await report(api)).toEqual({ buckets: [{ seconds: 0 }], officers: [] });
    expect(await report(api)).toEqual({ buckets: [{ seconds: 0 }], officers: [] });
    service.clock.set("2026-11-10T02:00:00Z");
    expect((await report(api)).officers[0].totalSeconds).toBe(2 * 3600);
  });

  test("networks never share a report: the same arguments in another network answer its own hours", async () => {
    const { network, api } = await twoHours();
    await report(api);
    await report(api);
    // The other network's entry is outside the range, made by as many writes: its version is the same number.
    const { network: other, api: otherApi } = await twoHours("Other Network", "2026-11-01");
    const versions = await Promise.all([network.id, other.id].map((id) => service.db.dutytime.version(id)));
    expect(versions[1]).toBe(versions[0]);
    expect((await report(otherApi)).officers).toEqual([]);
  });
});
