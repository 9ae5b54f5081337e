// Authentication end to end (CONTRACT: Authentication, Transport, GraphQL): how a key is sent,
// what a missing or bad key gets on every route, how keys are stored, key regeneration with and
// without a grace period, the public endpoints, GraphQL without a key, and the rate limit.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { startService, type TestService, type TestNetwork } from "./support/service";
import { client, type ApiResponse } from "./support/http";
import { createNetwork, regenerateNetworkKey } from "../src/admin/networks";

let service: TestService;
beforeAll(async () => {
  service = await startService();
});
afterAll(() => service.close());
afterEach(() => service.clock.reset());

const unauthenticatedBody = { message: "Unauthenticated." };

function expectUnauthenticated(response: ApiResponse, what: string) {
  // The label shows up in the failure message, so a failing route is named.
  expect({ what, status: response.status }).toEqual({ what, status: 401 });
  expect(response.headers.get("content-type")).toMatch(/^application\/json/);
  expect({ what, body: response.body }).toEqual({ what, body: unauthenticatedBody });
}

/** A well-formed key that no network has. */
const unknownKey = () => "vrd_" + crypto.randomBytes(32).toString("base64url");

/** The 13 routes of SPEC 4, each with a request that succeeds given a valid key. */
function routes(vehicleId: number, identifier: string) {
  const id = encodeURIComponent(identifier);
  return [
    { method: "GET", path: "/vehicles", ok: 200 },
    { method: "POST", path: "/vehicles", body: { plate: "AUTH-1" }, ok: 201 },
    { method: "GET", path: `/vehicles/${vehicleId}`, ok: 200 },
    { method: "PUT", path: `/vehicles/${vehicleId}`, body: { owner: "Put Owner" }, ok: 200 },
    { method: "PATCH", path: `/vehicles/${vehicleId}`, body: { color: "red" }, ok: 200 },
    { method: "POST", path: `/dutytime/${id}/toggle`, ok: 200 },
    { method: "POST", path: `/dutytime/${id}/stop`, ok: 200 },
    { method: "GET", path: "/statistics/active-users", ok: 200 },
    { method: "GET", path: "/statistics/missions/last-7-days", ok: 200 },
    { method: "GET", path: "/statistics/missions/total", ok: 200 },
    { method: "GET", path: "/statistics/files/last-7-days", ok: 200 },
    { method: "GET", path: "/statistics/files/total", ok: 200 },
    // Last, so the vehicle exists for the routes before it.
    { method: "DELETE", path: `/vehicles/${vehicleId}`, ok: 204 },
  ] as { method: string; path: string; body?: unknown; ok: number }[];
}

async function vehicleAndOfficer(network: TestNetwork) {
  const api = client(service.url, network.apiKey);
  const created = await api.post("/vehicles", { plate: "AUTH-0" });
  expect(created.status).toBe(201);
  const officer = await network.officer("76561198000000001");
  return { vehicleId: created.body.data.id as number, identifier: officer.identifier };
}

describe("sending the key", () => {
  test("X-API-Key is accepted and scopes the request to its network", async () => {
    const network = await service.network();
    const response = await client(service.url).get("/vehicles", { headers: { "X-API-Key": network.apiKey } });
    expect(response.status).toBe(200);
    expect(response.body.meta.total).toBe(0);
    const gql = await client(service.url, network.apiKey).graphql("{ network { id name identifierType } }");
    expect(gql.body).toEqual({ data: { network: { id: network.id, name: network.name, identifierType: "steam" } } });
  });

  test("Authorization: Bearer <key> is accepted, on REST and GraphQL", async () => {
    const network = await service.network();
    const api = client(service.url, null);
    const bearer = { Authorization: `Bearer ${network.apiKey}` };
    const created = await api.post("/vehicles", { plate: "BEAR-1" }, { headers: bearer });
    expect(created.status).toBe(201);
    const read = await api.get(`/vehicles/${created.body.data.id}`, { headers: bearer });
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created.body);
    const gql = await api.graphql("{ network { id } }", undefined, { headers: bearer });
    expect(gql.status).toBe(200);
    expect(gql.body).toEqual({ data: { network: { id: network.id } } });
  });

  test("both headers with the same key are accepted", async () => {
    const network = await service.network();
    const response = await client(service.url).get("/vehicles", {
      headers: { "X-API-Key": network.apiKey, Authorization: `Bearer ${network.apiKey}` },
    });
    expect(response.status).toBe(200);
    expect(response.body.meta.total).toBe(0);
  });

  test("both headers with different keys are refused, even when each key is valid", async () => {
    const first = await service.network();
    const second = await service.network();
    const api = client(service.url);
    const twoValid = { "X-API-Key": first.apiKey, Authorization: `Bearer ${second.apiKey}` };
    expectUnauthenticated(await api.get("/vehicles", { headers: twoValid }), "two valid keys");
    const validAndUnknown = { "X-API-Key": first.apiKey, Authorization: `Bearer ${unknownKey()}` };
    expectUnauthenticated(await api.get("/vehicles", { headers: validAndUnknown }), "valid header, unknown bearer");
    const unknownAndValid = { "X-API-Key": unknownKey(), Authorization: `Bearer ${first.apiKey}` };
    expectUnauthenticated(await api.get("/vehicles", { headers: unknownAndValid }), "unknown header, valid bearer");

    const gql = await api.graphql("{ network { id } }", undefined, { headers: twoValid });
    expect(gql.status).toBe(401);
    expect(gql.body.errors[0].extensions.code).toBe("UNAUTHENTICATED");
    expect(gql.body.data).toBeUndefined();
  });
});

describe("missing, unknown and malformed keys", () => {
  test("every REST route answers 401 {message: Unauthenticated.} as JSON, and nothing changes", async () => {
    const network = await service.network();
    const { vehicleId, identifier } = await vehicleAndOfficer(network);
    const before = await client(service.url, network.apiKey).get(`/vehicles/${vehicleId}`);
    const all = routes(vehicleId, identifier);
    expect(all).toHaveLength(13);

    const badKeys: [string, Record<string, string>][] = [
      ["missing", {}],
      ["unknown", { "X-API-Key": unknownKey() }],
      ["malformed", { "X-API-Key": "not-a-key" }],
      ["unknown bearer", { Authorization: `Bearer ${unknownKey()}` }],
    ];
    const api = client(service.url, null);
    for (const route of all) {
      for (const [label, headers] of badKeys) {
        const response = await api.request(route.method, route.path, { headers, body: route.body });
        expectUnauthenticated(response, `${label} key: ${route.method} ${route.path}`);
      }
    }

    // Nothing was written by the refused requests.
    const owner = client(service.url, network.apiKey);
    expect(await owner.get(`/vehicles/${vehicleId}`)).toMatchObject({ status: 200, body: before.body });
    expect((await owner.get("/vehicles")).body.meta.total).toBe(1);
    expect((await owner.get("/statistics/active-users")).body).toEqual({ data: [], count: 0 });

    // The same requests with the key succeed: the 401s above came from the key alone.
    for (const route of all) {
      const response = await owner.request(route.method, route.path, { body: route.body });
      expect({ route: `${route.method} ${route.path}`, status: response.status }).toEqual({
        route: `${route.method} ${route.path}`,
        status: route.ok,
      });
    }
  });

  test("malformed variants of a key are refused", async () => {
    const network = await service.network();
    const api = client(service.url, null);
    const swappedCase = [...network.apiKey.slice(4)]
      .map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase()))
      .join("");
    const variants: [string, Record<string, string>][] = [
      ["empty X-API-Key", { "X-API-Key": "" }],
      ["prefix only", { "X-API-Key": "vrd_" }],
      ["key with a character changed", { "X-API-Key": network.apiKey.slice(0, -1) + (network.apiKey.endsWith("A") ? "B" : "A") }],
      ["key in other case", { "X-API-Key": "vrd_" + swappedCase }],
      ["key truncated", { "X-API-Key": network.apiKey.slice(0, 20) }],
      ["key with extra characters", { "X-API-Key": network.apiKey + "x" }],
      ["very long key", { "X-API-Key": "vrd_" + "a".repeat(5000) }],
      ["Bearer without token", { Authorization: "Bearer" }],
      ["Bearer with two tokens", { Authorization: `Bearer ${network.apiKey} ${network.apiKey}` }],
      ["Basic credentials", { Authorization: "Basic " + Buffer.from(`user:${network.apiKey}`).toString("base64") }],
      ["key without scheme", { Authorization: network.apiKey }],
    ];
    for (const [label, headers] of variants) {
      expectUnauthenticated(await api.get("/vehicles", { headers }), label);
    }
  });
});

describe("key storage", () => {
  test("keys are high-entropy, distinct, and stored only as hashes", async () => {
    const first = await service.network();
    const second = await service.network();
    const regenerated = await regenerateNetworkKey(service.db, first.id, 3600, new Date());
    const keys = [first.apiKey, second.apiKey, regenerated.apiKey];
    expect(new Set(keys).size).toBe(3);
    for (const key of keys) expect(key.length).toBeGreaterThanOrEqual(32);

    const rows = (await service.db.prisma.$queryRawUnsafe("SELECT * FROM api_keys")) as Record<string, unknown>[];
    // At least first's two keys and second's key.
    expect(rows.length).toBeGreaterThanOrEqual(3);
    const stored = rows.flatMap((row) => Object.values(row).map((value) => String(value)));
    for (const key of keys) {
      // The secret part (everything after a short recognisable prefix) appears nowhere,
      // neither as is nor in an obvious reversible encoding.
      const secret = key.slice(10);
      const encodings = [
        secret,
        Buffer.from(key).toString("hex"),
        Buffer.from(key).toString("base64"),
        Buffer.from(key).toString("base64url"),
      ];
      for (const value of stored) {
        for (const encoded of encodings) expect(value.includes(encoded)).toBe(false);
      }
    }
    // The same through the Prisma model.
    const models = await service.db.prisma.apiKey.findMany();
    for (const model of models) {
      for (const value of Object.values(model)) {
        for (const key of keys) expect(String(value).includes(key.slice(10))).toBe(false);
      }
    }
    // Nor anywhere in the database files (main file and WAL), where the database is a file.
    const files = fs.existsSync(service.dataDir) ? fs.readdirSync(service.dataDir) : [];
    for (const file of files) {
      const bytes = fs.readFileSync(path.join(service.dataDir, file));
      for (const key of keys) expect({ file, found: bytes.includes(key.slice(10)) }).toEqual({ file, found: false });
    }
  });
});

describe("regenerating a key", () => {
  test("without grace the old key is refused at once and the new one accepted", async () => {
    const network = await service.network();
    const other = await service.network();
    const api = client(service.url, null);
    expect((await api.get("/vehicles", { key: network.apiKey })).status).toBe(200);

    const { apiKey } = await regenerateNetworkKey(service.db, network.id, 0, new Date());
    expect(apiKey).not.toBe(network.apiKey);
    expectUnauthenticated(await api.get("/vehicles", { key: network.apiKey }), "old key, REST");
    expectUnauthenticated(
      await api.get("/vehicles", { headers: { Authorization: `Bearer ${network.apiKey}` } }),
      "old key as Bearer",
    );
    const oldGql = await api.graphql("{ network { id } }", undefined, { key: network.apiKey });
    expect(oldGql.status).toBe(401);
    expect(oldGql.body.errors[0].extensions.code).toBe("UNAUTHENTICATED");

    const fresh = await api.get("/vehicles", { key: apiKey });
    expect(fresh.status).toBe(200);
    const gql = await api.graphql("{ network { id name } }", undefined, { key: apiKey });
    expect(gql.body).toEqual({ data: { network: { id: network.id, name: network.name } } });
    // Another network's key is untouched.
    expect((await api.get("/vehicles", { key: other.apiKey })).status).toBe(200);
  });

  test("with a grace period the old key stays valid until the grace ends, then 401", async () => {
    const network = await service.network();
    const api = client(service.url, null);
    const t0 = new Date("2031-05-01T12:00:00.000Z");
    service.clock.set(t0);
    const { apiKey } = await regenerateNetworkKey(service.db, network.id, 600, t0);
    const at = (seconds: number) => service.clock.set(new Date(t0.getTime() + seconds * 1000));

    at(0);
    expect((await api.get("/vehicles", { key: network.apiKey })).status).toBe(200);
    expect((await api.get("/vehicles", { key: apiKey })).status).toBe(200);
    at(599);
    expect((await api.get("/vehicles", { key: network.apiKey })).status).toBe(200);
    expect((await api.graphql("{ network { id } }", undefined, { key: network.apiKey })).body).toEqual({
      data: { network: { id: network.id } },
    });
    at(601);
    expectUnauthenticated(await api.get("/vehicles", { key: network.apiKey }), "old key after the grace");
    expect((await api.get("/vehicles", { key: apiKey })).status).toBe(200);
    at(86400);
    expectUnauthenticated(await api.get("/vehicles", { key: network.apiKey }), "old key a day later");
    expect((await api.get("/vehicles", { key: apiKey })).status).toBe(200);
  });

  test("the network's default grace applies without --grace; a later regeneration with grace 0 revokes all older keys at once", async () => {
    const t0 = new Date("2032-01-01T00:00:00.000Z");
    service.clock.set(t0);
    const created = await createNetwork(service.db,
      { name: "Grace by default", identifierType: "steam", graceSeconds: 300 },
      t0,
    );
    const first = created.apiKey;
    const api = client(service.url, null);
    const status = async (key: string) => (await api.get("/vehicles", { key })).status;

    const { apiKey: second } = await regenerateNetworkKey(service.db, created.network.id, undefined, t0);
    service.clock.set(new Date(t0.getTime() + 299_000));
    expect(await status(first)).toBe(200);
    expect(await status(second)).toBe(200);

    // Rolled again while the first key is still in its grace period, with no grace.
    const t1 = new Date(t0.getTime() + 299_000);
    const { apiKey: third } = await regenerateNetworkKey(service.db, created.network.id, 0, t1);
    expect([await status(first), await status(second), await status(third)]).toEqual([401, 401, 200]);
    service.clock.set(new Date(t0.getTime() + 301_000));
    expect([await status(first), await status(second), await status(third)]).toEqual([401, 401, 200]);
  });
});

describe("public endpoints", () => {
  test("/healthz, /readyz, /openapi.json and /docs need no key", async () => {
    const api = client(service.url, null);
    const health = await api.get("/healthz");
    expect(health.status).toBe(200);
    expect(health.headers.get("content-type")).toMatch(/^application\/json/);
    const ready = await api.get("/readyz");
    expect(ready.status).toBe(200);
    expect(ready.headers.get("content-type")).toMatch(/^application\/json/);
    const openapi = await api.get("/openapi.json");
    expect(openapi.status).toBe(200);
    expect(openapi.headers.get("content-type")).toMatch(/^application\/json/);
    expect(openapi.body.openapi).toMatch(/^3\./);
    expect(Object.keys(openapi.body.paths)).toEqual(expect.arrayContaining(["/vehicles", "/vehicles/{vehicle}"]));
    const docs = await api.get("/docs", { headers: { Accept: "text/html" } });
    expect({ path: "/docs", status: docs.status }).toEqual({ path: "/docs", status: 200 });
    expect(docs.text.length).toBeGreaterThan(0);
  });

  test("the public endpoints also answer with an unknown key (the key is not even looked at)", async () => {
    const api = client(service.url, unknownKey());
    for (const p of ["/healthz", "/readyz", "/openapi.json"]) {
      expect({ p, status: (await api.get(p)).status }).toEqual({ p, status: 200 });
    }
  });
});

describe("GraphQL without a valid key", () => {
  test("a mutation without a key is refused with UNAUTHENTICATED and stores nothing", async () => {
    const network = await service.network();
    const officer = await network.officer("42");
    const vehiclesBefore = await service.db.prisma.vehicle.count();
    const api = client(service.url, null);

    const create = await api.graphql(`mutation { createVehicle(input: { plate: "NOKEY-1" }) { id plate } }`);
    expect(create.status).toBe(401);
    expect(create.headers.get("content-type")).toMatch(/^application\/json/);
    expect(create.body.errors).toHaveLength(1);
    expect(create.body.errors[0]).toMatchObject({ message: "Unauthenticated.", extensions: { code: "UNAUTHENTICATED" } });
    expect(create.body.data).toBeUndefined();

    const toggle = await api.graphql(`mutation { toggleDutytime(identifier: "${officer.identifier}") { onDuty } }`, undefined, {
      key: unknownKey(),
    });
    expect(toggle.status).toBe(401);
    expect(toggle.body.errors[0].extensions.code).toBe("UNAUTHENTICATED");
    expect(toggle.body.data).toBeUndefined();

    const report = await api.graphql(`mutation { createMissionReport(input: { title: "x" }) { id } }`, undefined, {
      key: "not-a-key",
    });
    expect(report.status).toBe(401);
    expect(report.body.errors[0].extensions.code).toBe("UNAUTHENTICATED");

    // No resolver ran: nothing was stored anywhere.
    expect(await service.db.prisma.vehicle.count()).toBe(vehiclesBefore);
    expect(await service.db.prisma.vehicle.count({ where: { plate: "NOKEY-1" } })).toBe(0);
    expect(await service.db.prisma.dutytimeEntry.count({ where: { officerId: officer.id } })).toBe(0);
    expect(await service.db.prisma.missionReport.count({ where: { networkId: network.id } })).toBe(0);
  });

  test("queries, GET operations and introspection need a key too", async () => {
    const api = client(service.url, null);
    const query = await api.graphql("{ vehicles { meta { total } } }");
    expect(query.status).toBe(401);
    expect(query.body.errors[0].extensions.code).toBe("UNAUTHENTICATED");
    expect(query.body.data).toBeUndefined();

    const viaGet = await api.get(`/graphql?query=${encodeURIComponent("{ network { id name } }")}`);
    expect(viaGet.status).toBe(401);
    expect(viaGet.body.errors[0].extensions.code).toBe("UNAUTHENTICATED");
    expect(viaGet.body.data).toBeUndefined();

    const introspection = await api.graphql("{ __schema { queryType { name } } }");
    expect(introspection.status).toBe(401);
    expect(introspection.body.errors[0].extensions.code).toBe("UNAUTHENTICATED");
    expect(introspection.body.data).toBeUndefined();
  });
});

describe("rate limit", () => {
  let limited: TestService;
  beforeAll(async () => {
    limited = await startService({ rateLimit: { perMinute: 5 } });
  });
  afterAll(() => limited.close());

  test("the 6th request of a key within a minute answers 429 with Retry-After; other keys are unaffected", async () => {
    const first = await limited.network();
    const second = await limited.network();
    const api = client(limited.url, first.apiKey);
    for (let i = 1; i <= 5; i++) {
      expect({ request: i, status: (await api.get("/vehicles")).status }).toEqual({ request: i, status: 200 });
    }
    const sixth = await api.get("/vehicles");
    expect(sixth.status).toBe(429);
    expect(sixth.headers.get("content-type")).toMatch(/^application\/json/);
    expect(sixth.body).toEqual({ message: expect.any(String) });
    expect(sixth.body.message.length).toBeGreaterThan(0);
    const retryAfter = sixth.headers.get("retry-after");
    expect(retryAfter).toMatch(/^\d+$/);
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(retryAfter)).toBeLessThanOrEqual(60);

    // Other routes and GraphQL count against the same key.
    const write = await api.post("/vehicles", { plate: "RL-1" });
    expect(write.status).toBe(429);
    const gql = await api.graphql("{ network { id } }");
    expect(gql.status).toBe(429);
    expect(gql.body.errors[0].extensions.code).toBe("RATE_LIMITED");
    expect(gql.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(await limited.db.prisma.vehicle.count({ where: { networkId: first.id } })).toBe(0);

    // Another network's key still gets through.
    const other = await client(limited.url, second.apiKey).get("/vehicles");
    expect(other.status).toBe(200);
    expect(other.body.meta.total).toBe(0);
  });
});
