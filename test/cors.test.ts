// Browsers and keys' origins (CONTRACT: Keys, scopes and origins; src/server/cors.ts),
// over HTTP: preflights answered from the origins valid keys list, a key's origins enforced on
// its requests, CORS headers only where the key lists the request's Origin.
import { adminScope } from "../src/admin/keys";
import { createKey, revokeKey } from "../src/resolvers/apiKeys";
import { startService, type TestNetwork, type TestService } from "./support/service";

const dashboard = "http://dash.test:8080";
const stranger = "https://evil.test";

let service: TestService;
let network: TestNetwork;
/** A read key for the dashboard's origin, and one for no browser. */
let browserKey: string;
let serverKey: string;

beforeAll(async () => {
  service = await startService();
  network = await service.network({ name: "Browsers" });
  const now = new Date();
  const browser = await createKey(adminScope(service.db, network.id, now), { name: "dashboard", scopes: ["read"], origins: [dashboard], expiresAt: null });
  browserKey = browser.apiKey;
  serverKey = (await createKey(adminScope(service.db, network.id, now), { name: "connector", scopes: ["read", "dutytime"], origins: [], expiresAt: null })).apiKey;
});
afterAll(() => service.close());

function preflight(path: string, origin: string, method = "GET") {
  return fetch(`${service.url}${path}`, {
    method: "OPTIONS",
    headers: { Origin: origin, "Access-Control-Request-Method": method, "Access-Control-Request-Headers": "x-api-key, content-type" },
  });
}

const corsHeadersOf = (response: Response) => Object.fromEntries([...response.headers].filter(([name]) => name.startsWith("access-control-") || name === "vary"));

describe("preflights", () => {
  test.each([
    ["/vehicles", "GET, POST, HEAD"],
    ["/vehicles/1", "GET, PUT, PATCH, DELETE, HEAD"],
    ["/graphql", "GET, HEAD, POST"],
  ])("%s from an origin a key lists: 204 with the path's methods, the headers a page sends, 600 s", async (path, methods) => {
    const response = await preflight(path, dashboard);
    expect(response.status).toBe(204);
    expect(corsHeadersOf(response)).toEqual({
      "access-control-allow-origin": dashboard,
      "access-control-allow-methods": methods,
      "access-control-allow-headers": "X-API-Key, Authorization, Content-Type, Last-Event-ID",
      "access-control-max-age": "600",
      vary: "Origin",
    });
  });

  test("from an origin no key lists: 403 in the contract's shape, no CORS headers; an unknown path 404", async () => {
    const refused = await preflight("/vehicles", stranger);
    expect([refused.status, corsHeadersOf(refused), typeof (await refused.json()).message]).toEqual([403, {}, "string"]);
    const unknown = await preflight("/no/such/path", dashboard);
    expect([unknown.status, corsHeadersOf(unknown)]).toEqual([404, {}]);
  });

  test("an OPTIONS that is no preflight is a method the path does not serve (405)", async () => {
    const response = await fetch(`${service.url}/vehicles`, { method: "OPTIONS", headers: { Origin: dashboard } });
    expect([response.status, corsHeadersOf(response)]).toEqual([405, {}]);
  });
});

describe("a key's origins on its requests", () => {
  const get = (key: string, origin?: string) => fetch(`${service.url}/vehicles`, { headers: { "X-API-Key": key, ...(origin ? { Origin: origin } : {}) } });

  test("from an origin the key lists: answered, with Access-Control-Allow-Origin and Vary", async () => {
    const response = await get(browserKey, dashboard);
    expect([response.status, corsHeadersOf(response)]).toEqual([200, { "access-control-allow-origin": dashboard, vary: "Origin" }]);
  });

  test("from another origin: 403 over REST and FORBIDDEN over GraphQL, no CORS headers", async () => {
    const rest = await get(browserKey, stranger);
    expect([rest.status, corsHeadersOf(rest), await rest.json()]).toEqual([403, {}, { message: "This action is unauthorized." }]);
    const graphql = await fetch(`${service.url}/graphql`, {
      method: "POST",
      headers: { "X-API-Key": browserKey, Origin: stranger, "Content-Type": "application/json" },
      body: JSON.stringify({ query: "{ network { name } }" }),
    });
    const body = await graphql.json();
    expect([graphql.status, corsHeadersOf(graphql), body.errors[0].extensions.code, body.data ?? null]).toEqual([403, {}, "FORBIDDEN", null]);
  });

  test("without an Origin (no browser's cross-origin request): answered, without CORS headers", async () => {
    const response = await get(browserKey);
    expect([response.status, corsHeadersOf(response)]).toEqual([200, {}]);
  });

  test("a refusal for scope from the listed origin carries the CORS headers, so the page can read it", async () => {
    const response = await fetch(`${service.url}/vehicles`, {
      method: "POST",
      headers: { "X-API-Key": browserKey, Origin: dashboard, "Content-Type": "application/json" },
      body: JSON.stringify({ plate: "PAGE-1" }),
    });
    expect([response.status, corsHeadersOf(response), await response.json()]).toEqual([
      403,
      { "access-control-allow-origin": dashboard, vary: "Origin" },
      { message: "This action is unauthorized." },
    ]);
  });

  test("a key without origins never gets CORS headers, whatever the Origin", async () => {
    for (const origin of [dashboard, stranger]) {
      const response = await get(serverKey, origin);
      expect([response.status, corsHeadersOf(response)]).toEqual([200, {}]);
    }
  });

  test("GraphQL from the listed origin: answered with CORS headers", async () => {
    const response = await fetch(`${service.url}/graphql`, {
      method: "POST",
      headers: { "X-API-Key": browserKey, Origin: dashboard, "Content-Type": "application/json" },
      body: JSON.stringify({ query: "{ viewer { key { name scopes origins } } }" }),
    });
    expect([response.status, corsHeadersOf(response)]).toEqual([200, { "access-control-allow-origin": dashboard, vary: "Origin" }]);
    expect((await response.json()).data.viewer.key).toEqual({ name: "dashboard", scopes: ["read"], origins: [dashboard] });
  });
});

describe("origins of keys no longer valid", () => {
  test("a revoked key's origin gets no preflight once the revocation is seen (within a second)", async () => {
    const late = await createKey(adminScope(service.db, network.id, new Date()), { name: "late", scopes: ["read"], origins: ["https://late.test"], expiresAt: null });
    const deadline = Date.now() + 5_000;
    while ((await preflight("/vehicles", "https://late.test")).status !== 204) {
      if (Date.now() > deadline) throw new Error("a new key's origin was not listed within 5 s");
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await revokeKey(adminScope(service.db, network.id, new Date()), late.key.id, 0);
    const until = Date.now() + 5_000;
    while ((await preflight("/vehicles", "https://late.test")).status !== 403) {
      if (Date.now() > until) throw new Error("a revoked key's origin was still listed after 5 s");
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect((await preflight("/vehicles", dashboard)).status).toBe(204);
  });
});
