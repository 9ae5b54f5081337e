// Officers (issue: dashboards): lists, one officer, renames and removals, the dutytime history,
// the auto-stop rule for entries left open, and supervisors' corrections, over GraphQL and REST
// on a real server; each network sees only its own.
import { defaultFieldResolver, graphql, type GraphQLObjectType } from "graphql";
import { startService, type TestService } from "./support/service";
import { client, type Client } from "./support/http";
import { countingReads } from "./support/countingReads";
import { runAdmin } from "./support/process";
import { overPaths } from "../src/db/client";
import { schema } from "../src/schema";
import { operatorKey, type Context } from "../src/context";
import { withDuty } from "../src/resolvers/officerDuty";

let service: TestService;
beforeAll(async () => {
  service = await startService();
});
afterAll(() => service.close());
afterEach(() => service.clock.reset());

const T0 = "2026-11-20T08:00:00.000Z";
const hour = 3_600_000;
const at = (base: string, hours: number) => new Date(Date.parse(base) + hours * hour).toISOString();

async function setup(officers: Record<string, string> = {}) {
  const network = await service.network();
  const api = client(service.url, network.apiKey);
  for (const [value, name] of Object.entries(officers)) await network.officer(value, name);
  return { network, api };
}

/** Toggles the officer at the instant (the service's clock stopped there). */
async function toggleAt(api: Client, identifier: string, instant: string) {
  service.clock.set(instant);
  const response = await api.post(`/dutytime/${encodeURIComponent(identifier)}/toggle`);
  expect(response.status).toBe(200);
  return response.body.data;
}

async function gql(api: Client, query: string, variables?: Record<string, unknown>) {
  const response = await api.graphql(query, variables);
  return response.body as { data?: any; errors?: { message: string; extensions: { code: string; errors?: Record<string, string[]> } }[] };
}

const names = (page: { data: { name: string }[] }) => page.data.map((officer) => officer.name);

describe("listing officers", () => {
  test("by name, with search (any case, any alphabet), onDuty and pages; the Laravel envelope over REST", async () => {
    const { api } = await setup({ "1": "Zoë Ölmann", "2": "anna Berg", "3": "Bernd Ahrens", "4": "ÖZIL Mesut" });
    await toggleAt(api, "steam:3", T0);
    service.clock.reset();

    const all = await api.get("/officers");
    expect(all.status).toBe(200);
    expect(names(all.body)).toEqual(["Bernd Ahrens", "Zoë Ölmann", "anna Berg", "ÖZIL Mesut"].sort((a, b) => (a < b ? -1 : 1)));
    expect(all.body.meta).toEqual(expect.objectContaining({ current_page: 1, per_page: 15, total: 4, from: 1, to: 4, last_page: 1 }));
    expect(all.body.data.find((officer: { name: string }) => officer.name === "Bernd Ahrens")).toEqual({
      id: expect.any(Number),
      identifier: "steam:3",
      name: "Bernd Ahrens",
      createdAt: expect.any(String),
      removedAt: null,
      onDuty: true,
      currentEntry: { id: expect.any(Number), startedAt: T0, endedAt: null, open: true, durationSeconds: expect.any(Number), autoStopped: false },
    });

    expect(names((await api.get("/officers?search=%C3%B6")).body).sort()).toEqual(["Zoë Ölmann", "ÖZIL Mesut"]);
    expect(names((await api.get("/officers?search=BERG")).body)).toEqual(["anna Berg"]);
    expect(names((await api.get("/officers?search=steam%3A2")).body)).toEqual(["anna Berg"]);
    expect(names((await api.get("/officers?on_duty=true")).body)).toEqual(["Bernd Ahrens"]);
    expect((await api.get("/officers?onDuty=false")).body.meta.total).toBe(3);

    const second = await api.get("/officers?per_page=2&page=2");
    expect(second.body.meta).toEqual(expect.objectContaining({ current_page: 2, per_page: 2, total: 4, from: 3, to: 4, last_page: 2 }));
    const searchedPage = await api.get("/officers?search=e&per_page=1&page=3");
    expect(searchedPage.body.meta).toEqual(expect.objectContaining({ current_page: 3, total: 4, from: 3, to: 3 }));

    const viaGraphql = await gql(api, `{ officers(onDuty: true) { data { identifier onDuty currentEntry { startedAt } } meta { total } } }`);
    expect(viaGraphql.data.officers).toEqual({ data: [{ identifier: "steam:3", onDuty: true, currentEntry: { startedAt: T0 } }], meta: { total: 1 } });
  });

  test("bad list arguments answer 422 under their REST names; nothing of another network is listed", async () => {
    const { api } = await setup({ "1": "Own Officer" });
    await (await setup({ "1": "Foreign Officer" })).network;
    for (const [query, field] of [
      ["per_page=0", "per_page"],
      ["per_page=101", "per_page"],
      ["page=0", "page"],
      ["on_duty=maybe", "on_duty"],
      ["search=" + "x".repeat(256), "search"],
      ["search=a%00b", "search"],
    ]) {
      const response = await api.get(`/officers?${query}`);
      expect({ query, status: response.status, fields: Object.keys(response.body.errors ?? {}) }).toEqual({ query, status: 422, fields: [field] });
    }
    expect(names((await api.get("/officers?search=officer")).body)).toEqual(["Own Officer"]);
  });

  test("a page of 100 officers with their open entries and hours takes the same statements as a page of 10", async () => {
    const { network, api } = await setup();
    for (let i = 0; i < 100; i++) await network.officer(String(5000 + i), `Officer ${String(i).padStart(3, "0")}`);
    for (let i = 0; i < 100; i += 3) await toggleAt(api, `steam:${5000 + i}`, at(T0, i / 10));
    service.clock.reset();
    const { read, statementsOf } = countingReads(service.db.read);
    const ctx: Context = { db: overPaths(service.db, { read }), network, key: operatorKey, now: () => new Date() };
    const query = `query ($perPage: Int) { officers(perPage: $perPage) { data { identifier onDuty currentEntry { id startedAt durationSeconds } dutySeconds(from: "${T0}") } } }`;
    const page = (perPage: number) => statementsOf(() => graphql({ schema, source: query, contextValue: ctx, variableValues: { perPage } }));
    const small = await page(10);
    const large = await page(100);
    expect(small.result.errors).toBeUndefined();
    expect(large.result.errors).toBeUndefined();
    const officers = (large.result.data as any).officers.data;
    expect(officers).toHaveLength(100);
    expect(officers.filter((officer: { onDuty: boolean }) => officer.onDuty)).toHaveLength(34);
    expect(officers.every((officer: { onDuty: boolean; dutySeconds: number }) => officer.onDuty === officer.dutySeconds > 0)).toBe(true);
    // count, page, open entries, entries in the range: 4, whatever the page's size.
    expect(large.statements.length).toBe(small.statements.length);
    expect(large.statements.length).toBeLessThanOrEqual(4);
  });

  test("officers carry their duty: open entries read in one statement for any number of officers, onDuty and currentEntry exposed", async () => {
    const { network, api } = await setup({ "6001": "On Duty", "6002": "Off Duty", "6003": "Also On Duty" });
    await toggleAt(api, "steam:6001", at(T0, 1));
    await toggleAt(api, "steam:6003", at(T0, 2));
    service.clock.reset();
    const { read, statementsOf } = countingReads(service.db.read);
    const ctx: Context = { db: overPaths(service.db, { read }), network, key: operatorKey, now: () => new Date() };
    const { data } = await service.db.officers.page(network.id, { onDuty: null, matches: null, limit: 3, offset: 0 });
    const one = await statementsOf(() => withDuty(ctx, data.slice(0, 1)));
    const three = await statementsOf(() => withDuty(ctx, data));
    expect(three.statements.length).toBe(one.statements.length);
    const byIdentifier = new Map(three.result.map((officer) => [officer.identifier, officer]));
    expect(byIdentifier.get("steam:6001")).toMatchObject({ name: "On Duty", onDuty: true, currentEntry: { startedAt: new Date(at(T0, 1)), endedAt: null } });
    expect(byIdentifier.get("steam:6002")).toMatchObject({ name: "Off Duty", onDuty: false, currentEntry: null });
    expect(byIdentifier.get("steam:6003")).toMatchObject({ onDuty: true, currentEntry: { startedAt: new Date(at(T0, 2)) } });
    // graphql-jit reads an exposed field as a property; a resolver there would be called per officer.
    const fields = (schema.getType("Officer") as GraphQLObjectType).getFields();
    for (const name of ["onDuty", "currentEntry"]) expect([undefined, defaultFieldResolver]).toContain(fields[name].resolve);
  });
});

describe("one officer, renames and removals", () => {
  test("rename: trimmed, validated, 404 for an unknown or foreign officer", async () => {
    const { api } = await setup({ "7": "Old Name" });
    const { api: other } = await setup({ "8": "Foreign" });
    await toggleAt(api, "steam:7", T0);
    service.clock.set(at(T0, 1));
    // A renamed officer answers with its duty, as every Officer the graph gives (OfficerWithDuty).
    const renamed = await gql(api, `mutation { renameOfficer(identifier: "steam:7", name: "  New Name ") { identifier name onDuty currentEntry { startedAt durationSeconds } } }`);
    expect(renamed.data.renameOfficer).toEqual({ identifier: "steam:7", name: "New Name", onDuty: true, currentEntry: { startedAt: T0, durationSeconds: 3600 } });
    const unchanged = await gql(api, `mutation { renameOfficer(identifier: "steam:7", name: "New Name") { name onDuty } }`);
    expect(unchanged.data.renameOfficer).toEqual({ name: "New Name", onDuty: true });
    expect((await api.get("/officers/steam%3A7")).body.data.name).toBe("New Name");
    const empty = await gql(api, `mutation { renameOfficer(identifier: "steam:7", name: "  ") { name } }`);
    expect(empty.errors![0].extensions).toEqual(expect.objectContaining({ code: "BAD_USER_INPUT", errors: { name: ["The name field is required."] } }));
    const foreign = await gql(other, `mutation { renameOfficer(identifier: "steam:7", name: "Hijack") { name } }`);
    expect(foreign.errors![0].extensions.code).toBe("NOT_FOUND");
    expect((await api.get("/officers/steam%3A7")).body.data.name).toBe("New Name");
    expect((await other.get("/officers/steam%3A7")).status).toBe(404);
    expect((await api.get("/officers/discord%3A7")).status).toBe(422);
  });

  test("removal ends the open entry, hides the officer from lists and duty, keeps its hours; adding it again brings it back", async () => {
    const { api } = await setup({ "1": "Leaving Officer", "2": "Staying Officer" });
    await toggleAt(api, "steam:1", T0);
    service.clock.set(at(T0, 2));
    const removed = await gql(api, `mutation { removeOfficer(identifier: "steam:1") { identifier removedAt onDuty } }`);
    expect(removed.data.removeOfficer).toEqual({ identifier: "steam:1", removedAt: at(T0, 2), onDuty: false });

    expect(names((await api.get("/officers")).body)).toEqual(["Staying Officer"]);
    expect((await api.get("/statistics/active-users")).body).toEqual({ data: [], count: 0 });
    expect((await api.post("/dutytime/steam%3A1/toggle")).status).toBe(404);
    expect((await api.post("/dutytime/steam%3A1/stop")).status).toBe(404);
    const again = await gql(api, `mutation { removeOfficer(identifier: "steam:1") { identifier } }`);
    expect(again.errors![0].extensions.code).toBe("NOT_FOUND");

    // Still readable, with its history; and in last month's report.
    const one = await api.get("/officers/steam%3A1");
    expect(one.body.data).toEqual(expect.objectContaining({ removedAt: at(T0, 2), onDuty: false, currentEntry: null }));
    const history = await api.get("/officers/steam%3A1/dutytime");
    expect(history.body.data).toEqual([expect.objectContaining({ startedAt: T0, endedAt: at(T0, 2), durationSeconds: 7200 })]);
    service.clock.set(at(T0, 24 * 30));
    const report = await gql(api, `{ dutyHours(from: "${at(T0, -1)}", to: "${at(T0, 5)}") { officers { identifier removed totalSeconds } } }`);
    expect(report.data.dutyHours.officers).toEqual([{ identifier: "steam:1", removed: true, totalSeconds: 7200 }]);

    const back = await gql(api, `mutation { createOfficer(input: { identifier: "steam:1", name: "Returning Officer" }) { identifier name removedAt onDuty currentEntry { id } } }`);
    expect(back.data.createOfficer).toEqual({ identifier: "steam:1", name: "Returning Officer", removedAt: null, onDuty: false, currentEntry: null });
    expect((await api.get("/officers/steam%3A1/dutytime")).body.meta.total).toBe(1);
    const taken = await gql(api, `mutation { createOfficer(input: { identifier: "steam:1", name: "Twin" }) { name } }`);
    expect(taken.errors![0].extensions.code).toBe("CONFLICT");
  });
});

describe("dutytime history", () => {
  test("newest first, cut by from and to, an open entry's duration up to now; 404 elsewhere", async () => {
    const { api } = await setup({ "1": "Historic Officer" });
    await toggleAt(api, "steam:1", T0);
    await toggleAt(api, "steam:1", at(T0, 1));
    await toggleAt(api, "steam:1", at(T0, 24));
    await toggleAt(api, "steam:1", at(T0, 26));
    await toggleAt(api, "steam:1", at(T0, 48));
    service.clock.set(at(T0, 48.5));
    const all = await api.get("/officers/steam%3A1/dutytime");
    expect(all.body.data.map((entry: { startedAt: string; durationSeconds: number; open: boolean }) => [entry.startedAt, entry.durationSeconds, entry.open])).toEqual([
      [at(T0, 48), 1800, true],
      [at(T0, 24), 7200, false],
      [T0, 3600, false],
    ]);
    const cut = await api.get(`/officers/steam%3A1/dutytime?from=${encodeURIComponent(at(T0, 0.5))}&to=${encodeURIComponent(at(T0, 24))}`);
    expect(cut.body.data.map((entry: { startedAt: string }) => entry.startedAt)).toEqual([T0]);
    const paged = await api.get("/officers/steam%3A1/dutytime?per_page=1&page=2");
    expect(paged.body.meta).toEqual(expect.objectContaining({ total: 3, current_page: 2, from: 2, to: 2 }));
    expect((await api.get(`/officers/steam%3A1/dutytime?from=${encodeURIComponent(at(T0, 2))}&to=${encodeURIComponent(T0)}`)).status).toBe(422);
    expect((await api.get("/officers/steam%3A404/dutytime")).status).toBe(404);
    const { api: other } = await setup();
    expect((await other.get("/officers/steam%3A1/dutytime")).status).toBe(404);
  });
});

describe("the auto-stop rule", () => {
  test("an entry open longer than the network's limit ends at start + limit, in reports and in the stored data", async () => {
    const { network, api } = await setup({ "1": "Crashed Server", "2": "Fine Officer" });
    await service.db.prisma.network.update({ where: { id: network.id }, data: { autoStopAfterHours: 12 } });
    await toggleAt(api, "steam:1", T0);
    await toggleAt(api, "steam:2", at(T0, 20));
    service.clock.set(at(T0, 20.5));

    const active = await api.get("/statistics/active-users");
    expect(active.body.data.map((officer: { identifier: string }) => officer.identifier)).toEqual(["steam:2"]);
    const stored = await service.db.prisma.dutytimeEntry.findFirst({ where: { networkId: network.id, officer: { identifier: "steam:1" } } });
    expect({ endedAt: stored!.endedAt!.toISOString(), autoStopped: stored!.autoStopped }).toEqual({ endedAt: at(T0, 12), autoStopped: true });
    expect((await api.get("/officers/steam%3A1")).body.data).toEqual(expect.objectContaining({ onDuty: false, currentEntry: null }));
    const report = await gql(api, `{ dutyHours(from: "${T0}") { officers { identifier totalSeconds } } }`);
    expect(report.data.dutyHours.officers).toEqual([
      { identifier: "steam:1", totalSeconds: 12 * 3600 },
      { identifier: "steam:2", totalSeconds: 1800 },
    ]);
    // The officer is off duty: a toggle starts a new entry.
    expect(await toggleAt(api, "steam:1", at(T0, 21))).toEqual(expect.objectContaining({ onDuty: true, stoppedEntries: 0 }));
  });

  test("the admin command sets and clears the rule and the time zone", async () => {
    const { network } = await setup();
    const admin = (...args: string[]) => runAdmin(["network", "set", "--network", String(network.id), ...args], { DATABASE_URL: service.databaseUrl });
    const api = client(service.url, network.apiKey);
    const settings = async () => (await gql(api, "{ network { timeZone autoStopAfterHours } }")).data.network;
    // The key is admitted (and kept) before the change: the change must reach the kept scope.
    expect(await settings()).toEqual({ timeZone: "UTC", autoStopAfterHours: null });
    const set = admin("--time-zone", "Europe/Berlin", "--auto-stop-after", "10");
    expect({ status: set.status, stderr: set.stderr }).toEqual({ status: 0, stderr: "" });
    expect(JSON.parse(set.stdout).network).toEqual(expect.objectContaining({ timeZone: "Europe/Berlin", autoStopAfterHours: 10 }));
    // PostgreSQL announces the change asynchronously: it arrives within moments.
    let seen = await settings();
    for (let tries = 0; tries < 50 && seen.timeZone === "UTC"; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      seen = await settings();
    }
    expect(seen).toEqual({ timeZone: "Europe/Berlin", autoStopAfterHours: 10 });
    const off = admin("--auto-stop-after", "off");
    expect(JSON.parse(off.stdout).network.autoStopAfterHours).toBeNull();
    const bad = admin("--time-zone", "Mars/Olympus");
    expect({ status: bad.status, stderr: bad.stderr }).toEqual({ status: 2, stderr: expect.stringContaining("IANA time zone") });
  });
});

describe("corrections", () => {
  const correct = (api: Client, id: number, input: Record<string, unknown>) =>
    gql(api, `mutation ($id: ID!, $input: CorrectDutytimeEntryInput!) { correctDutytimeEntry(id: $id, input: $input) { id startedAt endedAt open autoStopped } }`, {
      id,
      input,
    });
  const fieldErrors = (body: Awaited<ReturnType<typeof gql>>) => body.errors![0].extensions;

  async function twoEntries() {
    const { network, api } = await setup({ "1": "Corrected Officer" });
    await toggleAt(api, "steam:1", T0);
    await toggleAt(api, "steam:1", at(T0, 2));
    await toggleAt(api, "steam:1", at(T0, 4));
    await toggleAt(api, "steam:1", at(T0, 6));
    service.clock.set(at(T0, 10));
    const entries = (await api.get("/officers/steam%3A1/dutytime")).body.data as { id: number }[];
    return { network, api, later: entries[0].id, earlier: entries[1].id };
  }

  test("sets the end or the start; the history and reports follow", async () => {
    const { api, earlier } = await twoEntries();
    const done = await correct(api, earlier, { endedAt: at(T0, 3) });
    expect(done.data.correctDutytimeEntry).toEqual({ id: earlier, startedAt: T0, endedAt: at(T0, 3), open: false, autoStopped: false });
    expect((await correct(api, earlier, { startedAt: at(T0, -1) })).data.correctDutytimeEntry.startedAt).toBe(at(T0, -1));
    const report = await gql(api, `{ dutyHours(from: "${at(T0, -2)}") { officers { totalSeconds shifts longestShiftSeconds } } }`);
    expect(report.data.dutyHours.officers).toEqual([{ totalSeconds: 6 * 3600, shifts: 2, longestShiftSeconds: 4 * 3600 }]);
  });

  test("refuses an end before the start, the future, an overlap and a second open entry with 422; changes nothing", async () => {
    const { network, api, earlier, later } = await twoEntries();
    const before = await service.db.prisma.dutytimeEntry.findMany({ where: { networkId: network.id }, orderBy: { id: "asc" } });
    const cases: [number, Record<string, unknown>, string][] = [
      [earlier, { endedAt: T0 }, "endedAt"],
      [earlier, { endedAt: at(T0, -1) }, "endedAt"],
      [earlier, { endedAt: at(T0, 11) }, "endedAt"],
      [earlier, { startedAt: at(T0, 11) }, "startedAt"],
      [earlier, { endedAt: at(T0, 5) }, "endedAt"],
      [later, { startedAt: at(T0, 1) }, "startedAt"],
      [earlier, { endedAt: null }, "endedAt"],
      [earlier, {}, "input"],
    ];
    for (const [id, input, field] of cases) {
      const refused = await correct(api, id, input);
      expect({ input, code: fieldErrors(refused).code, fields: Object.keys(fieldErrors(refused).errors ?? {}) }).toEqual({ input, code: "BAD_USER_INPUT", fields: [field] });
    }
    expect(fieldErrors(await correct(api, earlier, { endedAt: at(T0, 5) })).errors!.endedAt[0]).toMatch(/overlap the officer's entry \d+/);
    expect(await service.db.prisma.dutytimeEntry.findMany({ where: { networkId: network.id }, orderBy: { id: "asc" } })).toEqual(before);
  });

  test("another network's entry, and ids that are no ids, are not found", async () => {
    const { earlier } = await twoEntries();
    const { api: other } = await setup();
    expect(fieldErrors(await correct(other, earlier, { endedAt: at(T0, 1) })).code).toBe("NOT_FOUND");
    const garbage = await gql(other, `mutation { correctDutytimeEntry(id: "x1", input: { endedAt: "${T0}" }) { id } }`);
    expect(garbage.errors![0].extensions.code).toBe("NOT_FOUND");
  });
});
