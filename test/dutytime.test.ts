// SPEC 3.1 (dutytime state table), SPEC 4.3 (toggle and stop) and GET /statistics/active-users,
// end to end over REST on a real SQLite file, with the database checked directly.
import { startService, type TestService } from "./support/service";
import { indexDefinition } from "./support/database";
import { client, type ApiResponse, type Client } from "./support/http";
import { Prisma } from "../src/generated/prisma/client";
import { isUniqueViolation } from "../src/db/databaseErrors";

let service: TestService;
beforeAll(async () => {
  service = await startService();
});
afterAll(() => service.close());
afterEach(() => service.clock.reset());

const T0 = "2026-11-21T22:10:00.000Z";
const T1 = "2026-11-21T23:40:30.500Z";
const T2 = "2026-11-22T01:05:00.250Z";
const T3 = "2026-11-22T04:00:00.000Z";

let counter = 0;
/** A fresh steam network with one officer and a client on its key. */
async function setup(options: { identifierType?: string } = {}) {
  const network = await service.network(options);
  counter += 1;
  const value = `7656119${String(counter).padStart(10, "0")}`;
  const officer = await network.officer(value, `Officer ${counter}`);
  return { network, officer, api: client(service.url, network.apiKey) };
}

const toggle = (api: Client, identifier: string, body?: unknown) =>
  api.post(`/dutytime/${encodeURIComponent(identifier)}/toggle`, body);
const stop = (api: Client, identifier: string, body?: unknown) =>
  api.post(`/dutytime/${encodeURIComponent(identifier)}/stop`, body);

/** The officer's dutytime entries as stored, oldest first, times as ISO strings. */
async function entriesOf(officerId: number) {
  const rows = await service.db.prisma.dutytimeEntry.findMany({ where: { officerId }, orderBy: { id: "asc" } });
  return rows.map((row) => ({
    startedAt: row.startedAt.toISOString(),
    endedAt: row.endedAt ? row.endedAt.toISOString() : null,
  }));
}


function expectOk(response: ApiResponse, data: { identifier: string; onDuty: boolean; startedAt: string | null; stoppedEntries: number }) {
  expect({ status: response.status, body: response.body }).toEqual({ status: 200, body: { data } });
  expect(response.headers.get("content-type")).toMatch(/^application\/json/);
}

function expectIdentifierError(response: ApiResponse) {
  expect(response.status).toBe(422);
  expect(response.body).toEqual({ message: expect.any(String), errors: { identifier: [expect.any(String)] } });
  expect(response.body.message.length).toBeGreaterThan(0);
  expect(response.body.errors.identifier[0].length).toBeGreaterThan(0);
}

function expectNotFound(response: ApiResponse) {
  expect(response.status).toBe(404);
  expect(response.body).toEqual({ message: expect.any(String) });
}

describe("SPEC 3.1 state table", () => {
  test("not on duty + toggle: on duty, an entry starts at the clock time", async () => {
    const { officer, api } = await setup();
    service.clock.set(T0);
    const response = await toggle(api, officer.identifier);
    expectOk(response, { identifier: officer.identifier, onDuty: true, startedAt: T0, stoppedEntries: 0 });
    expect(await entriesOf(officer.id)).toEqual([{ startedAt: T0, endedAt: null }]);
  });

  test("on duty + toggle: not on duty, the open entry is stopped at the clock time", async () => {
    const { officer, api } = await setup();
    service.clock.set(T0);
    await toggle(api, officer.identifier);
    service.clock.set(T1);
    const response = await toggle(api, officer.identifier);
    expectOk(response, { identifier: officer.identifier, onDuty: false, startedAt: null, stoppedEntries: 1 });
    expect(await entriesOf(officer.id)).toEqual([{ startedAt: T0, endedAt: T1 }]);
  });

  test("toggle a third time starts a second, new entry", async () => {
    const { officer, api } = await setup();
    service.clock.set(T0);
    await toggle(api, officer.identifier);
    service.clock.set(T1);
    await toggle(api, officer.identifier);
    service.clock.set(T2);
    const response = await toggle(api, officer.identifier);
    expectOk(response, { identifier: officer.identifier, onDuty: true, startedAt: T2, stoppedEntries: 0 });
    expect(await entriesOf(officer.id)).toEqual([
      { startedAt: T0, endedAt: T1 },
      { startedAt: T2, endedAt: null },
    ]);
  });

  test("on duty + stop: not on duty, the open entry is stopped at the clock time", async () => {
    const { officer, api } = await setup();
    service.clock.set(T0);
    await toggle(api, officer.identifier);
    service.clock.set(T1);
    const response = await stop(api, officer.identifier);
    expectOk(response, { identifier: officer.identifier, onDuty: false, startedAt: null, stoppedEntries: 1 });
    expect(await entriesOf(officer.id)).toEqual([{ startedAt: T0, endedAt: T1 }]);
  });

  test("not on duty (never on duty) + stop: succeeds with 0 stopped, nothing is written", async () => {
    const { officer, api } = await setup();
    service.clock.set(T0);
    const response = await stop(api, officer.identifier);
    expectOk(response, { identifier: officer.identifier, onDuty: false, startedAt: null, stoppedEntries: 0 });
    expect(await entriesOf(officer.id)).toEqual([]);
  });

  test("not on duty (after a stopped entry) + stop: succeeds, the old entry keeps its end time", async () => {
    const { officer, api } = await setup();
    service.clock.set(T0);
    await toggle(api, officer.identifier);
    service.clock.set(T1);
    await toggle(api, officer.identifier);
    service.clock.set(T2);
    const response = await stop(api, officer.identifier);
    expectOk(response, { identifier: officer.identifier, onDuty: false, startedAt: null, stoppedEntries: 0 });
    expect(await entriesOf(officer.id)).toEqual([{ startedAt: T0, endedAt: T1 }]);
  });

  test("repeated stops: the first stops the entry, the following ones succeed and change nothing", async () => {
    const { officer, api } = await setup();
    service.clock.set(T0);
    await toggle(api, officer.identifier);
    service.clock.set(T1);
    expectOk(await stop(api, officer.identifier), { identifier: officer.identifier, onDuty: false, startedAt: null, stoppedEntries: 1 });
    service.clock.set(T2);
    expectOk(await stop(api, officer.identifier), { identifier: officer.identifier, onDuty: false, startedAt: null, stoppedEntries: 0 });
    service.clock.set(T3);
    expectOk(await stop(api, officer.identifier), { identifier: officer.identifier, onDuty: false, startedAt: null, stoppedEntries: 0 });
    expect(await entriesOf(officer.id)).toEqual([{ startedAt: T0, endedAt: T1 }]);
    // Still usable afterwards: a toggle starts a new entry.
    expectOk(await toggle(api, officer.identifier), { identifier: officer.identifier, onDuty: true, startedAt: T3, stoppedEntries: 0 });
  });

  test("only the called officer changes: another officer of the same network keeps its state", async () => {
    const { network, officer, api } = await setup();
    const other = await network.officer("99999", "Other Officer");
    service.clock.set(T0);
    await toggle(api, other.identifier);
    service.clock.set(T1);
    await toggle(api, officer.identifier);
    service.clock.set(T2);
    expectOk(await stop(api, officer.identifier), { identifier: officer.identifier, onDuty: false, startedAt: null, stoppedEntries: 1 });
    expect(await entriesOf(other.id)).toEqual([{ startedAt: T0, endedAt: null }]);
    expect(await entriesOf(officer.id)).toEqual([{ startedAt: T1, endedAt: T2 }]);
  });
});

describe("SPEC 4.3 request bodies", () => {
  test.each([
    ["no body", undefined],
    ["an empty JSON object", {}],
    ["a JSON object with unknown fields (ignored)", { foo: 1, onDuty: false, identifier: "steam:other" }],
  ])("toggle and stop accept %s", async (_label, body) => {
    const { officer, api } = await setup();
    service.clock.set(T0);
    expectOk(await toggle(api, officer.identifier, body), { identifier: officer.identifier, onDuty: true, startedAt: T0, stoppedEntries: 0 });
    service.clock.set(T1);
    expectOk(await stop(api, officer.identifier, body), { identifier: officer.identifier, onDuty: false, startedAt: null, stoppedEntries: 1 });
    expect(await entriesOf(officer.id)).toEqual([{ startedAt: T0, endedAt: T1 }]);
  });

  test.each(["toggle", "stop"])("%s with malformed JSON: 400 {message}, nothing changes", async (action) => {
    const { officer, api } = await setup();
    service.clock.set(T0);
    await toggle(api, officer.identifier);
    const response = await api.request("POST", `/dutytime/${encodeURIComponent(officer.identifier)}/${action}`, {
      rawBody: '{"foo":',
      headers: { "Content-Type": "application/json" },
    });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ message: expect.any(String) });
    expect(await entriesOf(officer.id)).toEqual([{ startedAt: T0, endedAt: null }]);
  });

  test.each(["toggle", "stop"])("%s with a text/plain body: 415 {message}, nothing changes", async (action) => {
    const { officer, api } = await setup();
    service.clock.set(T0);
    await toggle(api, officer.identifier);
    const response = await api.request("POST", `/dutytime/${encodeURIComponent(officer.identifier)}/${action}`, {
      rawBody: "{}",
      headers: { "Content-Type": "text/plain" },
    });
    expect(response.status).toBe(415);
    expect(response.body).toEqual({ message: expect.any(String) });
    expect(await entriesOf(officer.id)).toEqual([{ startedAt: T0, endedAt: null }]);
  });
});

describe("identifiers", () => {
  test("a URL-encoded colon (steam%3A...) and a raw colon address the same officer", async () => {
    const { officer, api } = await setup();
    const value = officer.identifier.slice("steam:".length);
    expect(officer.identifier).toBe(`steam:${value}`);
    service.clock.set(T0);
    expectOk(await api.post(`/dutytime/steam%3A${value}/toggle`), { identifier: officer.identifier, onDuty: true, startedAt: T0, stoppedEntries: 0 });
    service.clock.set(T1);
    expectOk(await api.post(`/dutytime/steam:${value}/toggle`), { identifier: officer.identifier, onDuty: false, startedAt: null, stoppedEntries: 1 });
    service.clock.set(T2);
    expectOk(await api.post(`/dutytime/steam:${value}/toggle`), { identifier: officer.identifier, onDuty: true, startedAt: T2, stoppedEntries: 0 });
    service.clock.set(T3);
    expectOk(await api.post(`/dutytime/steam%3a${value}/stop`), { identifier: officer.identifier, onDuty: false, startedAt: null, stoppedEntries: 1 });
    expect(await entriesOf(officer.id)).toEqual([
      { startedAt: T0, endedAt: T1 },
      { startedAt: T2, endedAt: T3 },
    ]);
  });

  test("a network with another connector type uses its own prefix", async () => {
    const { officer, api } = await setup({ identifierType: "discord" });
    expect(officer.identifier.startsWith("discord:")).toBe(true);
    service.clock.set(T0);
    expectOk(await toggle(api, officer.identifier), { identifier: officer.identifier, onDuty: true, startedAt: T0, stoppedEntries: 0 });
    const value = officer.identifier.slice("discord:".length);
    expectIdentifierError(await toggle(api, `steam:${value}`));
    expect(await entriesOf(officer.id)).toEqual([{ startedAt: T0, endedAt: null }]);
  });

  test.each([
    ["no colon", (value: string) => `steam${value}`],
    ["no colon, value only", (value: string) => value],
    ["an empty type", (value: string) => `:${value}`],
    ["an empty value", () => "steam:"],
    ["a blank value", () => "steam: "],
    ["a wrong type (discord on a steam network)", (value: string) => `discord:${value}`],
    ["a type differing only in case", (value: string) => `STEAM:${value}`],
  ])("%s: 422 with errors.identifier on toggle and stop, nothing is written", async (_label, make) => {
    const { officer, api } = await setup();
    const value = officer.identifier.slice("steam:".length);
    const bad = make(value);
    service.clock.set(T0);
    expectIdentifierError(await toggle(api, bad));
    expectIdentifierError(await stop(api, bad));
    expect(await entriesOf(officer.id)).toEqual([]);
  });

  test("a raw-path identifier with a wrong type: 422 (discord:1 on a steam network)", async () => {
    const { api } = await setup();
    expectIdentifierError(await api.post("/dutytime/discord:1/toggle"));
    expectIdentifierError(await api.post("/dutytime/discord%3A1/stop"));
  });

  test("an unknown officer: 404 {message} on toggle and stop, nothing is written", async () => {
    const { api } = await setup();
    const before = await service.db.prisma.dutytimeEntry.count();
    expectNotFound(await toggle(api, "steam:404404404"));
    expectNotFound(await stop(api, "steam:404404404"));
    expect(await service.db.prisma.dutytimeEntry.count()).toBe(before);
  });

  test("another network's officer: 404 with the other key, and the owning network's state is unchanged", async () => {
    const a = await setup();
    const b = await setup();
    // Same identifier type, and B has no officer with A's identifier.
    expect(a.network.identifierType).toBe(b.network.identifierType);
    expect(await service.db.prisma.officer.count({ where: { networkId: b.network.id, identifier: a.officer.identifier } })).toBe(0);

    service.clock.set(T0);
    expectOk(await toggle(a.api, a.officer.identifier), { identifier: a.officer.identifier, onDuty: true, startedAt: T0, stoppedEntries: 0 });
    service.clock.set(T1);
    const toggled = await toggle(b.api, a.officer.identifier);
    expectNotFound(toggled);
    const stopped = await stop(b.api, a.officer.identifier);
    expectNotFound(stopped);
    // Never reveals the other network's data.
    expect(toggled.text).not.toContain(a.officer.name);
    expect(stopped.text).not.toContain(a.officer.name);

    expect(await entriesOf(a.officer.id)).toEqual([{ startedAt: T0, endedAt: null }]);
    expect(await service.db.prisma.dutytimeEntry.count({ where: { networkId: b.network.id } })).toBe(0);
    const activeA = await a.api.get("/statistics/active-users");
    expect(activeA.body).toEqual({ data: [{ identifier: a.officer.identifier, name: a.officer.name, startedAt: T0 }], count: 1 });
  });

  test("the same identifier in two networks: each key reaches only its own officer", async () => {
    const a = await service.network();
    const b = await service.network();
    const officerA = await a.officer("555000555", "Alpha");
    const officerB = await b.officer("555000555", "Bravo");
    expect(officerA.identifier).toBe(officerB.identifier);
    const apiA = client(service.url, a.apiKey);
    const apiB = client(service.url, b.apiKey);
    service.clock.set(T0);
    expectOk(await toggle(apiA, officerA.identifier), { identifier: officerA.identifier, onDuty: true, startedAt: T0, stoppedEntries: 0 });
    service.clock.set(T1);
    // B's officer is not on duty: B's stop closes nothing, A's entry stays open.
    expectOk(await stop(apiB, officerB.identifier), { identifier: officerB.identifier, onDuty: false, startedAt: null, stoppedEntries: 0 });
    expect(await entriesOf(officerA.id)).toEqual([{ startedAt: T0, endedAt: null }]);
    expect(await entriesOf(officerB.id)).toEqual([]);
    // B's toggle starts B's officer, not A's.
    expectOk(await toggle(apiB, officerB.identifier), { identifier: officerB.identifier, onDuty: true, startedAt: T1, stoppedEntries: 0 });
    expect(await entriesOf(officerA.id)).toEqual([{ startedAt: T0, endedAt: null }]);
    expect(await entriesOf(officerB.id)).toEqual([{ startedAt: T1, endedAt: null }]);
  });
});

describe("concurrency", () => {
  type Status = { identifier: string; onDuty: boolean; startedAt: string | null; stoppedEntries: number };

  /** Each response is a 200 with a consistent status; returns the statuses. */
  function checkResponses(responses: ApiResponse[], identifier: string, startedAt: string): Status[] {
    expect(responses.map((response) => response.status)).toEqual(responses.map(() => 200));
    return responses.map((response) => {
      const data = response.body.data as Status;
      if (data.onDuty) expect(data).toEqual({ identifier, onDuty: true, startedAt, stoppedEntries: 0 });
      else expect(data).toEqual({ identifier, onDuty: false, startedAt: null, stoppedEntries: expect.any(Number) });
      return data;
    });
  }

  const openEntries = (officerId: number) => service.db.prisma.dutytimeEntry.count({ where: { officerId, endedAt: null } });

  test("the database refuses a second open entry, as the refusal a toggle retries on", async () => {
    const { network, officer } = await setup();
    const open = Prisma.sql`INSERT INTO dutytime_entries (network_id, officer_id, started_at) VALUES (${network.id}, ${officer.id}, ${new Date(T0)})`;
    expect(await service.db.write.execute(open)).toBe(1);
    const refusal = await service.db.write.execute(open).then(
      () => null,
      (error: unknown) => error,
    );
    expect(refusal).not.toBeNull();
    expect(isUniqueViolation(refusal)).toBe(true);
    expect(isUniqueViolation(new Error("UNIQUE constraint failed"))).toBe(false);
    expect(await openEntries(officer.id)).toBe(1);
  });

  test("20 concurrent toggles then 10 concurrent stops on one officer: all 200, never two open entries, off duty after", async () => {
    const { officer, api } = await setup();
    service.clock.set(T0);
    const toggles = await Promise.all(Array.from({ length: 20 }, () => toggle(api, officer.identifier)));
    const toggled = checkResponses(toggles, officer.identifier, T0);
    for (const data of toggled) if (!data.onDuty) expect(data.stoppedEntries).toBe(1);

    const afterToggles = await service.db.prisma.dutytimeEntry.findMany({ where: { officerId: officer.id } });
    const open = afterToggles.filter((entry) => entry.endedAt === null);
    expect(open.length).toBeLessThanOrEqual(1);
    // Every closed entry was closed by exactly one call, which reported it.
    const closed = afterToggles.filter((entry) => entry.endedAt !== null);
    expect(toggled.reduce((sum, data) => sum + data.stoppedEntries, 0)).toBe(closed.length);
    expect(afterToggles.every((entry) => entry.startedAt.toISOString() === T0)).toBe(true);

    service.clock.set(T1);
    const stops = await Promise.all(Array.from({ length: 10 }, () => stop(api, officer.identifier)));
    const stopped = checkResponses(stops, officer.identifier, T0);
    expect(stopped.every((data) => data.onDuty === false)).toBe(true);
    expect(stopped.reduce((sum, data) => sum + data.stoppedEntries, 0)).toBe(open.length);
    expect(await openEntries(officer.id)).toBe(0);

    const afterStops = await service.db.prisma.dutytimeEntry.findMany({ where: { officerId: officer.id }, orderBy: { id: "asc" } });
    expect(afterStops.length).toBe(afterToggles.length);
    for (const entry of afterStops) {
      const before = afterToggles.find((candidate) => candidate.id === entry.id)!;
      // Entries closed by the toggles keep their end time; the open one ends at the stop.
      expect(entry.endedAt?.toISOString()).toBe(before.endedAt ? before.endedAt.toISOString() : T1);
    }
    const active = await api.get("/statistics/active-users");
    expect(active.body).toEqual({ data: [], count: 0 });
  });

  test("20 concurrent toggles across 2 officers: all 200, at most one open entry per officer", async () => {
    const { network, officer, api } = await setup();
    const second = await network.officer("424242", "Second Officer");
    const officers = [officer, second];
    service.clock.set(T0);
    const calls = Array.from({ length: 20 }, (_, index) => officers[index % 2]);
    const responses = await Promise.all(calls.map((target) => toggle(api, target.identifier)));
    expect(responses.map((response) => response.status)).toEqual(responses.map(() => 200));
    for (const target of officers) {
      const mine = responses.filter((_, index) => calls[index] === target);
      const statuses = checkResponses(mine, target.identifier, T0);
      const entries = await service.db.prisma.dutytimeEntry.findMany({ where: { officerId: target.id } });
      expect(entries.filter((entry) => entry.endedAt === null).length).toBeLessThanOrEqual(1);
      expect(statuses.reduce((sum, data) => sum + data.stoppedEntries, 0)).toBe(entries.filter((entry) => entry.endedAt !== null).length);
      expect(entries.every((entry) => entry.networkId === network.id)).toBe(true);
    }
    service.clock.set(T1);
    const stops = await Promise.all(officers.flatMap((target) => [stop(api, target.identifier), stop(api, target.identifier)]));
    expect(stops.map((response) => response.status)).toEqual([200, 200, 200, 200]);
    expect(await openEntries(officer.id)).toBe(0);
    expect(await openEntries(second.id)).toBe(0);
  });

  // On PostgreSQL the toggle is one statement (stop, or else start): its start meets the other
  // writer's entry at the unique index, waits for that transaction, fails when it commits, and the
  // toggle runs again. On SQLite the other writer holds the lock, and the toggle comes after it.
  test("a toggle racing an entry another writer opens and commits meanwhile stops that entry", async () => {
    const { network, officer, api } = await setup();
    service.clock.set(T1);
    let inserted!: () => void;
    const insertedNow = new Promise<void>((resolve) => (inserted = resolve));
    const otherWriter = service.db.transaction(async (write) => {
      await write.execute(Prisma.sql`INSERT INTO dutytime_entries (network_id, officer_id, started_at) VALUES (${network.id}, ${officer.id}, ${new Date(T0)})`);
      inserted();
      // Uncommitted while the toggle runs.
      await new Promise((resolve) => setTimeout(resolve, 300));
    });
    await insertedNow;
    const toggled = await toggle(api, officer.identifier);
    await otherWriter;
    expectOk(toggled, { identifier: officer.identifier, onDuty: false, startedAt: null, stoppedEntries: 1 });
    expect(await entriesOf(officer.id)).toEqual([{ startedAt: T0, endedAt: T1 }]);
  });

  test("concurrent toggle and stop calls mixed: all 200, never two open entries", async () => {
    const { officer, api } = await setup();
    service.clock.set(T0);
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, index) => (index % 3 === 2 ? stop(api, officer.identifier) : toggle(api, officer.identifier))),
    );
    checkResponses(responses, officer.identifier, T0);
    expect(await openEntries(officer.id)).toBeLessThanOrEqual(1);
  });
});

describe("the database enforces one open entry per officer", () => {
  test("the partial unique index exists", async () => {
    expect(await indexDefinition(service.db.prisma, "dutytime_entries_one_open_per_officer")).toBe(
      "create unique index dutytime_entries_one_open_per_officer on dutytime_entries (officer_id) where ended_at is null",
    );
  });

  test("a second open entry inserted directly is rejected; closed entries are not limited", async () => {
    const { network, officer } = await setup();
    const base = { networkId: network.id, officerId: officer.id };
    await service.db.prisma.dutytimeEntry.create({ data: { ...base, startedAt: new Date(T0) } });
    await expect(
      service.db.prisma.dutytimeEntry.create({ data: { ...base, startedAt: new Date(T1) } }),
    ).rejects.toMatchObject({ code: "P2002" });
    // Closed entries (any number) are allowed beside the open one.
    await service.db.prisma.dutytimeEntry.create({ data: { ...base, startedAt: new Date(T1), endedAt: new Date(T2) } });
    await service.db.prisma.dutytimeEntry.create({ data: { ...base, startedAt: new Date(T2), endedAt: new Date(T3) } });
    // Another officer may have its own open entry.
    const other = await network.officer("31337", "Other");
    await service.db.prisma.dutytimeEntry.create({ data: { networkId: network.id, officerId: other.id, startedAt: new Date(T0) } });
    expect(await service.db.prisma.dutytimeEntry.count({ where: { officerId: officer.id, endedAt: null } })).toBe(1);
    expect(await service.db.prisma.dutytimeEntry.count({ where: { officerId: officer.id } })).toBe(3);
  });
});

describe("GET /statistics/active-users", () => {
  test("lists only open entries of the key's network, ordered by startedAt, with count", async () => {
    const network = await service.network();
    const api = client(service.url, network.apiKey);
    const late = await network.officer("1001", "Late Starter");
    const early = await network.officer("1002", "Early Starter");
    const middle = await network.officer("1003", "Middle Starter");
    const stopped = await network.officer("1004", "Stopped Officer");
    const never = await network.officer("1005", "Never On Duty");

    const empty = await api.get("/statistics/active-users");
    expect({ status: empty.status, body: empty.body }).toEqual({ status: 200, body: { data: [], count: 0 } });

    // Start order differs from creation and from the order of startedAt.
    service.clock.set(T2);
    await toggle(api, late.identifier);
    service.clock.set(T0);
    await toggle(api, early.identifier);
    await toggle(api, stopped.identifier);
    service.clock.set(T1);
    await toggle(api, middle.identifier);
    await stop(api, stopped.identifier);

    // Another network with an officer on duty earlier than everyone: never listed.
    const other = await service.network();
    const otherApi = client(service.url, other.apiKey);
    const foreign = await other.officer("1002", "Foreign Officer");
    service.clock.set("2026-01-01T00:00:00.000Z");
    await toggle(otherApi, foreign.identifier);

    const response = await api.get("/statistics/active-users");
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      data: [
        { identifier: early.identifier, name: "Early Starter", startedAt: T0 },
        { identifier: middle.identifier, name: "Middle Starter", startedAt: T1 },
        { identifier: late.identifier, name: "Late Starter", startedAt: T2 },
      ],
      count: 3,
    });
    expect(response.text).not.toContain(never.name);
    expect(response.text).not.toContain("Foreign Officer");

    const foreignView = await otherApi.get("/statistics/active-users");
    expect(foreignView.body).toEqual({
      data: [{ identifier: foreign.identifier, name: "Foreign Officer", startedAt: "2026-01-01T00:00:00.000Z" }],
      count: 1,
    });

    // A stop removes the officer; a new start lists them with the new start time.
    service.clock.set(T3);
    await stop(api, early.identifier);
    await toggle(api, stopped.identifier);
    const after = await api.get("/statistics/active-users");
    expect(after.body).toEqual({
      data: [
        { identifier: middle.identifier, name: "Middle Starter", startedAt: T1 },
        { identifier: late.identifier, name: "Late Starter", startedAt: T2 },
        { identifier: stopped.identifier, name: "Stopped Officer", startedAt: T3 },
      ],
      count: 3,
    });
  });

  test("requires a key", async () => {
    const response = await client(service.url).get("/statistics/active-users");
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ message: "Unauthenticated." });
  });
});
