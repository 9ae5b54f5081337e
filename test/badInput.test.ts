// Bad input over HTTP: each case asserts the status, a JSON body of the contract's shape (and
// for 422 the exact `errors` keys), and that nothing was stored or changed.
import { startService, type TestService } from "./support/service";
import { vehicleResponseFields } from "./support/contract";
import { client, type ApiResponse, type Client } from "./support/http";

let service: TestService;
beforeAll(async () => {
  service = await startService();
});
afterAll(() => service.close());

const responseFields = [...vehicleResponseFields].sort();

/** The vehicle every case starts from: all fields set, so any change or clearing shows. */
const fixtureBody = {
  plate: "FIX-1",
  cartyp: "Vapid",
  car: "Stanier",
  owner: "Fixture Owner",
  tuv: "2027-07-07",
  comment: "fixture comment",
  color: "Gelb",
  wanted: true,
  wanted_reason: "fixture reason",
  synced: true,
  sync_id: "fixture-sync",
};

interface Setup {
  apiKey: string;
  api: Client;
  fixture: Record<string, any>;
}

/** A fresh network holding exactly one vehicle. */
async function setup(): Promise<Setup> {
  const network = await service.network();
  const api = client(service.url, network.apiKey);
  const created = await api.post("/vehicles", fixtureBody);
  expect(created.status).toBe(201);
  return { api, fixture: created.body.data, apiKey: network.apiKey };
}

/** Nothing was stored or changed: still exactly the fixture, byte for byte (updatedAt included). */
async function expectUnchanged({ api, fixture }: Setup) {
  const list = await api.get("/vehicles?per_page=100");
  expect(list.status).toBe(200);
  expect(list.body.meta.total).toBe(1);
  expect(list.body.data).toEqual([fixture]);
  const read = await api.get(`/vehicles/${fixture.id}`);
  expect(read.body).toEqual({ data: fixture });
}

function expectJson(response: ApiResponse) {
  expect(response.headers.get("content-type")).toMatch(/^application\/json/);
  expect(response.body).not.toBeUndefined();
  expect(typeof response.body).toBe("object");
}

function expectMessageOnly(response: ApiResponse) {
  expectJson(response);
  expect(Object.keys(response.body)).toEqual(["message"]);
  expect(typeof response.body.message).toBe("string");
  expect(response.body.message.length).toBeGreaterThan(0);
}

function expectValidation(response: ApiResponse, fields: string[]) {
  expect(response.status).toBe(422);
  expectJson(response);
  expect(Object.keys(response.body).sort()).toEqual(["errors", "message"]);
  expect(typeof response.body.message).toBe("string");
  expect(Object.keys(response.body.errors).sort()).toEqual([...fields].sort());
  for (const field of fields) {
    const messages = response.body.errors[field];
    expect(Array.isArray(messages)).toBe(true);
    expect(messages.length).toBeGreaterThan(0);
    for (const message of messages) expect(typeof message).toBe("string");
  }
  // The summary is the first message, with "(and N more error(s))" when there are more.
  const all: string[] = Object.values(response.body.errors as Record<string, string[]>).flat();
  const more = all.length - 1;
  if (more === 0) expect(all).toContain(response.body.message);
  else expect(response.body.message).toMatch(new RegExp(` \\(and ${more} more errors?\\)$`));
}

type Method = "POST" | "PUT" | "PATCH";

interface BadCase {
  name: string;
  method: Method;
  body?: unknown;
  rawBody?: string;
  contentType?: string;
  status: number;
  /** For 422: exactly these keys in `errors`. */
  errors?: string[];
}

const methods: Method[] = ["POST", "PUT", "PATCH"];
const show = (value: unknown) => {
  const text = JSON.stringify(value);
  return text.length > 24 ? `${text.slice(0, 12)}…(${text.length} chars)` : text;
};

const cases: BadCase[] = [];

// --- Bodies that are not a JSON object -------------------------------------------------------
for (const method of methods) {
  for (const rawBody of ['{"plate": "X"', "{plate: 'X'}", '{"plate":"X",}', "{", "plate=X", '{"plate":"X"}}']) {
    cases.push({ name: `${method} malformed JSON ${rawBody}`, method, rawBody, contentType: "application/json", status: 400 });
  }
  for (const contentType of ["text/plain", "text/plain; charset=utf-8", "application/x-www-form-urlencoded", "application/xml"]) {
    cases.push({ name: `${method} valid JSON sent as ${contentType}`, method, rawBody: '{"plate":"CT-1"}', contentType, status: 415 });
  }
  cases.push({ name: `${method} valid JSON without a Content-Type of JSON (fetch default)`, method, rawBody: '{"plate":"CT-2"}', status: 415 });
  for (const body of [[], [{ plate: "ARR-1" }], "a string", 42, true, null]) {
    cases.push({ name: `${method} JSON ${show(body)} (not an object)`, method, body, status: 400 });
  }
}

// --- plate ---------------------------------------------------------------------------------
cases.push({ name: "POST without plate", method: "POST", body: { car: "No plate" }, status: 422, errors: ["plate"] });
cases.push({ name: "POST with an empty object", method: "POST", body: {}, status: 422, errors: ["plate"] });
cases.push({ name: "POST with no body at all", method: "POST", status: 422, errors: ["plate"] });
for (const method of methods) {
  for (const plate of [null, "", "   ", "\t\n", "P".repeat(33), `  ${"P".repeat(33)}  `, "Ä".repeat(33), 123, 0, true, { text: "X" }, ["X"]]) {
    cases.push({ name: `${method} plate=${show(plate)}`, method, body: { plate }, status: 422, errors: ["plate"] });
  }
}

// --- optional strings: over the maximum, wrong type ------------------------------------------
const stringLimits: Array<[string, number]> = [
  ["cartyp", 255],
  ["car", 255],
  ["owner", 255],
  ["color", 255],
  ["sync_id", 255],
  ["comment", 5000],
  ["wanted_reason", 1000],
];
for (const method of methods) {
  for (const [field, max] of stringLimits) {
    const body = (value: unknown) => (method === "POST" ? { plate: "OK-1", [field]: value } : { [field]: value });
    cases.push({ name: `${method} ${field} of ${max + 1} characters`, method, body: body("x".repeat(max + 1)), status: 422, errors: [field] });
    cases.push({ name: `${method} ${field} of ${max + 1} umlauts`, method, body: body("ü".repeat(max + 1)), status: 422, errors: [field] });
    for (const value of [7, true, false, { a: 1 }, ["x"], []]) {
      cases.push({ name: `${method} ${field}=${show(value)}`, method, body: body(value), status: 422, errors: [field] });
    }
  }
}

// --- tuv ----------------------------------------------------------------------------------
for (const method of methods) {
  for (const tuv of ["2026-02-30", "2026-02-29", "2026-13-01", "2026-00-10", "2026-04-31", "2026-1-5", "26-01-05", "05.01.2026", "2026/01/05", "2026-01-05T00:00:00Z", " 2026-01-05", "tomorrow", "", 20260101, true, { y: 2026 }]) {
    const body = method === "POST" ? { plate: "OK-1", tuv } : { tuv };
    cases.push({ name: `${method} tuv=${show(tuv)}`, method, body, status: 422, errors: ["tuv"] });
  }
}

// --- wanted / synced ----------------------------------------------------------------------
for (const method of methods) {
  for (const field of ["wanted", "synced"]) {
    for (const value of ["yes", "no", 2, -1, 0.5, "true", "false", "1", null, {}, []]) {
      const body = method === "POST" ? { plate: "OK-1", [field]: value } : { [field]: value };
      cases.push({ name: `${method} ${field}=${show(value)}`, method, body, status: 422, errors: [field] });
    }
  }
}

// --- network fields: refused even when the rest is valid ------------------------------------
for (const method of methods) {
  for (const key of ["network", "network_id", "networkId"]) {
    for (const value of [1, 999, "1", null, { id: 1 }]) {
      const body = method === "POST" ? { plate: "NET-1", [key]: value } : { owner: "Net Owner", [key]: value };
      cases.push({ name: `${method} body with ${key}=${show(value)}`, method, body, status: 422, errors: [key] });
    }
  }
  cases.push({
    name: `${method} body with network, network_id and networkId`,
    method,
    body: { plate: "NET-2", network: 1, network_id: 1, networkId: 1 },
    status: 422,
    errors: ["network", "network_id", "networkId"],
  });
}

// --- several errors at once ----------------------------------------------------------------
for (const method of methods) {
  cases.push({
    name: `${method} with five value errors reports all five`,
    method,
    body: { plate: "", cartyp: "c".repeat(256), tuv: "2026-02-30", comment: "x".repeat(5001), wanted: null },
    status: 422,
    errors: ["plate", "cartyp", "tuv", "comment", "wanted"],
  });
  cases.push({
    name: `${method} with four type errors reports all four`,
    method,
    body: { plate: 1, car: true, wanted: "yes", tuv: 5 },
    status: 422,
    errors: ["plate", "car", "wanted", "tuv"],
  });
  cases.push({
    // The body's shape (types, refused fields) is checked before the value rules run.
    name: `${method} with a network key and a too-long plate reports the network key`,
    method,
    body: { plate: "P".repeat(33), network_id: 2 },
    status: 422,
    errors: ["network_id"],
  });
}

describe("bad input is refused and changes nothing", () => {
  test.each(cases)("$name -> $status", async (badCase) => {
    const state = await setup();
    const path = badCase.method === "POST" ? "/vehicles" : `/vehicles/${state.fixture.id}`;
    const headers = badCase.contentType ? { "Content-Type": badCase.contentType } : undefined;
    const response = await state.api.request(badCase.method, path, { body: badCase.body, rawBody: badCase.rawBody, headers });
    expect(response.status).toBe(badCase.status);
    if (badCase.errors) expectValidation(response, badCase.errors);
    else expectMessageOnly(response);
    expect(response.text).not.toMatch(/prisma|sqlite|stack|at .*\.ts:\d+/i);
    await expectUnchanged(state);
  });
});

describe("validation messages", () => {
  test("a PUT with 2 errors says '(and 1 more error)'", async () => {
    const state = await setup();
    const response = await state.api.put(`/vehicles/${state.fixture.id}`, { plate: "", tuv: "never" });
    expectValidation(response, ["plate", "tuv"]);
    const [first] = Object.values(response.body.errors as Record<string, string[]>).flat();
    expect(response.body.message).toBe(`${first} (and 1 more error)`);
    expect([response.body.errors.plate[0], response.body.errors.tuv[0]]).toContain(first);
    await expectUnchanged(state);
  });

  test("a POST with 3 errors says '(and 2 more errors)'", async () => {
    const state = await setup();
    const response = await state.api.post("/vehicles", { plate: "   ", owner: "o".repeat(256), synced: null });
    expectValidation(response, ["plate", "owner", "synced"]);
    const [first] = Object.values(response.body.errors as Record<string, string[]>).flat();
    expect(response.body.message).toBe(`${first} (and 2 more errors)`);
    await expectUnchanged(state);
  });

  test("a single error is the message itself", async () => {
    const state = await setup();
    const response = await state.api.patch(`/vehicles/${state.fixture.id}`, { tuv: "2026-02-30" });
    expectValidation(response, ["tuv"]);
    expect(response.body.message).toBe(response.body.errors.tuv[0]);
    expect(response.body.message).toMatch(/tuv/);
    await expectUnchanged(state);
  });
});

describe("accepted edge values", () => {
  test.each([
    [0, false],
    [1, true],
    [false, false],
    [true, true],
  ])("wanted and synced accept %p as %p on create", async (sent, stored) => {
    const state = await setup();
    const response = await state.api.post("/vehicles", { plate: "BOOL-1", wanted: sent, synced: sent });
    expect(response.status).toBe(201);
    expect(response.body.data).toMatchObject({ plate: "BOOL-1", wanted: stored, synced: stored });
    expect((await state.api.get(`/vehicles/${response.body.data.id}`)).body.data).toEqual(response.body.data);
  });

  test.each(["PUT", "PATCH"] as const)("%s accepts 0 and 1 as false and true", async (method) => {
    const state = await setup();
    const off = await state.api.request(method, `/vehicles/${state.fixture.id}`, { body: { wanted: 0, synced: 0 } });
    expect(off.status).toBe(200);
    expect(off.body.data).toEqual({ ...state.fixture, wanted: false, synced: false, updatedAt: expect.any(String) });
    const on = await state.api.request(method, `/vehicles/${state.fixture.id}`, { body: { wanted: 1 } });
    expect(on.status).toBe(200);
    expect(on.body.data).toEqual({ ...state.fixture, wanted: true, synced: false, updatedAt: expect.any(String) });
  });

  test("a leap day, nulls and a plate of 32 characters with surrounding spaces are accepted", async () => {
    const state = await setup();
    const response = await state.api.post("/vehicles", { plate: `  ${"P".repeat(32)}  `, tuv: "2028-02-29", wanted_reason: null, car: null });
    expect(response.status).toBe(201);
    expect(response.body.data).toMatchObject({ generalInspection: "2028-02-29", wantedReason: null, car: null });
    expect(response.body.data.plate.trim()).toBe("P".repeat(32));
  });

  test("Content-Type application/json with a charset is JSON", async () => {
    const state = await setup();
    const response = await state.api.request("POST", "/vehicles", {
      rawBody: JSON.stringify({ plate: "CS-1" }),
      headers: { "Content-Type": "application/json; charset=utf-8" },
    });
    expect(response.status).toBe(201);
    expect(response.body.data.plate).toBe("CS-1");
  });

  test("unknown fields are ignored on create and update", async () => {
    const state = await setup();
    const created = await state.api.post("/vehicles", { plate: "UF-1", foo: "bar", Plate: "OTHER", wanted_reasons: "typo", carType: "Ignored", id: 1 });
    expect(created.status).toBe(201);
    expect(Object.keys(created.body.data).sort()).toEqual(responseFields);
    expect(created.body.data).toMatchObject({ plate: "UF-1", carType: null, wantedReason: null });
    expect(created.text).not.toContain("bar");
    expect(created.text).not.toContain("typo");

    const patched = await state.api.patch(`/vehicles/${state.fixture.id}`, { foo: 1, generalInspection: "2000-01-01", wantedReason: "x" });
    expect(patched.status).toBe(200);
    expect(patched.body.data).toEqual({ ...state.fixture, updatedAt: expect.any(String) });
  });
});

describe("prototype pollution keys are ignored safely", () => {
  afterEach(() => {
    // The service runs in this process: nothing may have reached Object.prototype.
    expect(({} as any).isAdmin).toBeUndefined();
    expect(({} as any).plate).toBeUndefined();
    expect(({} as any).wanted).toBeUndefined();
    expect(Object.prototype.hasOwnProperty.call(Object.prototype, "isAdmin")).toBe(false);
  });

  const pollutingBodies = [
    '{"plate":"PP-1","__proto__":{"isAdmin":true}}',
    '{"plate":"PP-2","constructor":{"prototype":{"isAdmin":true}}}',
    '{"plate":"PP-3","prototype":{"isAdmin":true}}',
    '{"plate":"PP-4","__proto__":{"isAdmin":true,"wanted":true,"owner":"Proto Owner","network":2}}',
    '{"plate":"PP-5","__proto__":null,"constructor":null,"prototype":"x"}',
    '{"plate":"PP-6","nested":{"__proto__":{"isAdmin":true}},"constructor":{"name":"Hacked"}}',
  ];

  test.each(pollutingBodies)("POST %s -> 201 with only the vehicle fields", async (rawBody) => {
    const state = await setup();
    const response = await state.api.request("POST", "/vehicles", { rawBody, headers: { "Content-Type": "application/json" } });
    expect(response.status).toBe(201);
    expectJson(response);
    const plate = (JSON.parse(rawBody) as { plate: string }).plate;
    expect(Object.keys(response.body)).toEqual(["data"]);
    expect(Object.keys(response.body.data).sort()).toEqual(responseFields);
    expect(response.body.data).toMatchObject({ plate, wanted: false, owner: null, synced: false });
    expect(response.text).not.toMatch(/isAdmin|Hacked|Proto Owner|__proto__|prototype/);
    const list = await state.api.get("/vehicles?per_page=100");
    expect(list.body.meta.total).toBe(2);
    expect(list.text).not.toMatch(/isAdmin|Hacked|Proto Owner/);
  });

  test.each(["PUT", "PATCH"] as const)("%s with __proto__/constructor/prototype keys changes only the real fields", async (method) => {
    const state = await setup();
    const response = await state.api.request(method, `/vehicles/${state.fixture.id}`, {
      rawBody: '{"color":"Lila","__proto__":{"isAdmin":true,"owner":"Proto Owner","wanted":false},"constructor":{"prototype":{"isAdmin":true}},"prototype":{"plate":"HACK"}}',
      headers: { "Content-Type": "application/json" },
    });
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({ ...state.fixture, color: "Lila", updatedAt: expect.any(String) });
    expect(response.text).not.toMatch(/isAdmin|Proto Owner|HACK/);
  });

  test("a plate only inside __proto__ is not a plate", async () => {
    const state = await setup();
    const response = await state.api.request("POST", "/vehicles", {
      rawBody: '{"__proto__":{"plate":"INJECTED"}}',
      headers: { "Content-Type": "application/json" },
    });
    expectValidation(response, ["plate"]);
    await expectUnchanged(state);
  });

  test("a network key inside __proto__ neither moves the vehicle nor leaks", async () => {
    const state = await setup();
    const other = await service.network();
    const response = await state.api.request("POST", "/vehicles", {
      rawBody: `{"plate":"PP-NET","__proto__":{"networkId":${other.id},"network_id":${other.id}}}`,
      headers: { "Content-Type": "application/json" },
    });
    // Either refused as a network key or ignored; never stored in the other network.
    expect([201, 422]).toContain(response.status);
    const otherList = await client(service.url, other.apiKey).get("/vehicles");
    expect(otherList.body.meta.total).toBe(0);
  });

  test("query parameters named like prototype keys are harmless", async () => {
    const state = await setup();
    const response = await state.api.get("/vehicles?__proto__[isAdmin]=true&constructor[prototype][isAdmin]=true&__proto__=x");
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual([state.fixture]);
  });
});

describe("oversized body", () => {
  test("a 10 MB JSON body answers 4xx JSON, not 500, and stores nothing", async () => {
    const state = await setup();
    const rawBody = JSON.stringify({ plate: "BIG-1", comment: "x".repeat(10 * 1024 * 1024) });
    const response = await state.api.request("POST", "/vehicles", { rawBody, headers: { "Content-Type": "application/json" } });
    expect(response.status).toBe(413);
    expectJson(response);
    expect(typeof response.body.message).toBe("string");
    expect(response.text.length).toBeLessThan(100_000);
    await expectUnchanged(state);
  });

  test("a 10 MB body of garbage answers 4xx JSON", async () => {
    const state = await setup();
    const response = await state.api.request("PATCH", `/vehicles/${state.fixture.id}`, {
      rawBody: "{".repeat(10 * 1024 * 1024),
      headers: { "Content-Type": "application/json" },
    });
    expect(response.status).toBe(413);
    expectMessageOnly(response);
    await expectUnchanged(state);
  });

  test("a chunked body (no Content-Length) is cut off at the limit too", async () => {
    const state = await setup();
    const chunk = new TextEncoder().encode(" ".repeat(256 * 1024));
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 40) controller.enqueue(chunk);
        else controller.close();
      },
    });
    const response = await fetch(`${service.url}/vehicles`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-API-Key": state.apiKey },
      body,
      duplex: "half",
    } as RequestInit);
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ message: expect.any(String) });
    await expectUnchanged(state);
  });

  test("chunked bodies within the limit are read whole, over it refused: REST and GraphQL", async () => {
    const state = await setup();
    const chunked = (text: string, pieces: number) => {
      const bytes = new TextEncoder().encode(text);
      const size = Math.ceil(bytes.length / pieces);
      let at = 0;
      return new ReadableStream<Uint8Array>({
        pull(controller) {
          if (at >= bytes.length) return controller.close();
          controller.enqueue(bytes.slice(at, (at += size)));
        },
      });
    };
    const send = (path: string, text: string, pieces: number) =>
      fetch(`${service.url}${path}`, {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-API-Key": state.apiKey },
        body: chunked(text, pieces),
        duplex: "half",
      } as RequestInit);
    const created = await send("/vehicles", JSON.stringify({ plate: "CHUNK-1", comment: "ü".repeat(2000) }), 7);
    expect(created.status).toBe(201);
    expect((await created.json()).data).toMatchObject({ plate: "CHUNK-1", comment: "ü".repeat(2000) });
    const query = JSON.stringify({ query: `{ vehicles(search: "chunk-1") { meta { total } } }` });
    const answered = await send("/graphql", query, 5);
    expect(answered.status).toBe(200);
    expect(await answered.json()).toEqual({ data: { vehicles: { meta: { total: 1 } } } });
    const big = JSON.stringify({ query: `mutation { createVehicle(input: {plate: "GQL-BIG", comment: "${"x".repeat(2 * 1024 * 1024)}"}) { id } }` });
    const refused = await send("/graphql", big, 16);
    expect(refused.status).toBe(413);
    expect((await refused.json()).errors[0].extensions.code).toBe("BAD_USER_INPUT");
  });

  test("a GraphQL request over the limit answers 413 with a GraphQL error and runs nothing", async () => {
    const state = await setup();
    const query = `mutation { createVehicle(input: {plate: "GQL-BIG", comment: "${"x".repeat(2 * 1024 * 1024)}"}) { id } }`;
    const response = await state.api.graphql(query);
    expect(response.status).toBe(413);
    expect(response.body.errors[0].extensions.code).toBe("BAD_USER_INPUT");
    await expectUnchanged(state);
  });

  test("a body just under the limit is read (unknown padding ignored)", async () => {
    const state = await setup();
    const rawBody = JSON.stringify({ plate: "NEAR-1", padding: "p".repeat(1000 * 1000) });
    const response = await state.api.request("POST", "/vehicles", { rawBody, headers: { "Content-Type": "application/json" } });
    expect(response.status).toBe(201);
    expect(response.body.data.plate).toBe("NEAR-1");
  });
});

describe("unknown paths and wrong methods", () => {
  test.each([
    ["GET", "/nope"],
    ["GET", "/api/vehicles"],
    ["GET", "/vehicle"],
    ["POST", "/vehicle"],
    ["GET", "/vehicles/1/extra"],
    ["DELETE", "/vehicles/1/2"],
    ["GET", "/statistics"],
    ["GET", "/statistics/missions"],
    ["GET", "/statistics/missions/last-30-days"],
    ["POST", "/dutytime/steam:1"],
    ["POST", "/dutytime/steam:1/start"],
  ])("%s %s -> 404 JSON", async (method, path) => {
    const state = await setup();
    const response = await state.api.request(method, path, method === "POST" ? { body: { plate: "NOPE" } } : {});
    expect(response.status).toBe(404);
    expectMessageOnly(response);
    await expectUnchanged(state);
  });

  test.each([
    ["PUT", "/vehicles", ["GET", "POST"]],
    ["PATCH", "/vehicles", ["GET", "POST"]],
    ["DELETE", "/vehicles", ["GET", "POST"]],
    ["POST", "/vehicles/1", ["DELETE", "GET", "PATCH", "PUT"]],
    ["DELETE", "/statistics/missions/total", ["GET"]],
    ["POST", "/statistics/active-users", ["GET"]],
    ["PUT", "/statistics/files/last-7-days", ["GET"]],
    ["GET", "/dutytime/steam:1/toggle", ["POST"]],
    ["DELETE", "/dutytime/steam:1/stop", ["POST"]],
  ])("%s %s -> 405 JSON with Allow %p", async (method, path, allowed) => {
    const state = await setup();
    const body = ["POST", "PUT", "PATCH"].includes(method) ? { body: { plate: "WRONG" } } : {};
    const response = await state.api.request(method, path, body);
    expect(response.status).toBe(405);
    expectMessageOnly(response);
    const allow = response.headers.get("allow");
    expect(allow).not.toBeNull();
    const listed = allow!
      .split(",")
      .map((name) => name.trim().toUpperCase())
      .filter((name) => name !== "" && name !== "HEAD" && name !== "OPTIONS")
      .sort();
    expect(listed).toEqual([...allowed].sort());
    await expectUnchanged(state);
  });

  test("405 does not depend on the vehicle id existing (a known path template)", async () => {
    const state = await setup();
    const response = await state.api.request("POST", `/vehicles/${state.fixture.id}`, { body: { plate: "WRONG" } });
    expect(response.status).toBe(405);
    expectMessageOnly(response);
    await expectUnchanged(state);
  });
});
