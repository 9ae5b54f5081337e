// Keys through the public interfaces (CONTRACT: Keys, scopes and origins):
// `viewer` for any key, key management through GraphQL with `admin` (the secret answered once),
// isolation between networks, expiry, and one key of several revoked across two processes.
import { adminScope } from "../src/admin/keys";
import { createKey } from "../src/resolvers/apiKeys";
import { freshDatabase, type FreshDatabase } from "./support/database";
import { client } from "./support/http";
import { runAdmin, startServiceProcess, type ServiceProcess } from "./support/process";
import { startService, type TestNetwork, type TestService } from "./support/service";

describe("viewer and key management through GraphQL", () => {
  let service: TestService;
  let network: TestNetwork;
  let other: TestNetwork;
  let admin: ReturnType<typeof client>;

  beforeAll(async () => {
    service = await startService();
    network = await service.network({ name: "Keys PD" });
    other = await service.network({ name: "Other PD" });
    admin = client(service.url, (await createKey(adminScope(service.db, network.id, new Date()), { name: "admin", scopes: ["admin"], origins: [], expiresAt: null })).apiKey);
  });
  afterAll(() => service.close());

  const keyFields = "id name prefix scopes origins createdAt expiresAt lastUsedAt revokedAt";

  test("viewer: any key sees its network and itself, never its secret", async () => {
    const { apiKey, key } = await createKey(adminScope(service.db, network.id, new Date()), { name: "bot", scopes: ["dutytime"], origins: [], expiresAt: null });
    const response = await client(service.url, apiKey).graphql(`{ viewer { network { id name identifierType timeZone } key { ${keyFields} } } }`);
    expect(response.body.errors).toBeUndefined();
    // Its use is written after the request, without holding it up: seen by the next ones.
    const { lastUsedAt: first, ...viewed } = response.body.data.viewer.key;
    expect({ network: response.body.data.viewer.network, key: viewed }).toEqual({
      network: { id: network.id, name: "Keys PD", identifierType: "steam", timeZone: expect.any(String) },
      key: { id: key.id, name: "bot", prefix: apiKey.slice(0, 12), scopes: ["dutytime"], origins: [], createdAt: expect.any(String), expiresAt: null, revokedAt: null },
    });
    expect([null, expect.any(String)]).toContainEqual(first);
    expect(response.text).not.toContain(apiKey);
    let lastUsedAt: string | null = null;
    for (let tries = 0; lastUsedAt === null && tries < 50; tries++) {
      lastUsedAt = (await client(service.url, apiKey).graphql("{ viewer { key { lastUsedAt } } }")).body.data.viewer.key.lastUsedAt;
      if (lastUsedAt === null) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    // To the minute.
    expect(lastUsedAt).toMatch(/T\d\d:\d\d:00\.000Z$/);
  });

  test("an admin key makes a key (its secret answered once, working at once), lists and revokes it", async () => {
    const created = await admin.graphql(
      `mutation ($input: CreateApiKeyInput!) { createApiKey(input: $input) { apiKey key { ${keyFields} } } }`,
      { input: { name: "dashboard", scopes: ["read"], origins: ["https://Dash.Example.org/"] } },
    );
    expect(created.body.errors).toBeUndefined();
    const { apiKey, key } = created.body.data.createApiKey;
    expect(key).toMatchObject({ name: "dashboard", scopes: ["read"], origins: ["https://dash.example.org"], revokedAt: null, prefix: apiKey.slice(0, 12) });
    const dashboard = client(service.url, apiKey);
    expect((await dashboard.get("/vehicles")).status).toBe(200);
    // read only: no writes.
    expect((await dashboard.post("/vehicles", { plate: "NO-1" })).status).toBe(403);

    const listed = await admin.graphql(`{ apiKeys { id name scopes revokedAt } }`);
    expect(listed.body.data.apiKeys).toContainEqual({ id: key.id, name: "dashboard", scopes: ["read"], revokedAt: null });
    expect(listed.text).not.toContain(apiKey);

    const revoked = await admin.graphql(`mutation ($id: ID!) { revokeApiKey(id: $id) { id revokedAt } }`, { id: key.id });
    expect(revoked.body.errors).toBeUndefined();
    expect(revoked.body.data.revokeApiKey.revokedAt).not.toBeNull();
    expect((await dashboard.get("/vehicles")).status).toBe(401);
  });

  test("bad input is refused with the field's message, and changes nothing", async () => {
    const before = (await admin.graphql(`{ apiKeys { id } }`)).body.data.apiKeys.length;
    for (const input of [
      { name: "", scopes: ["read"] },
      { name: "x".repeat(101), scopes: ["read"] },
      { name: "no scopes", scopes: [] },
      { name: "bad origin", scopes: ["read"], origins: ["https://dash.example.org/path"] },
      { name: "past", scopes: ["read"], expiresAt: "2001-01-01T00:00:00Z" },
      { name: "admin", scopes: ["read"] },
    ]) {
      const response = await admin.graphql(`mutation ($input: CreateApiKeyInput!) { createApiKey(input: $input) { apiKey } }`, { input });
      expect({ input, code: response.body.errors?.[0]?.extensions?.code }).toEqual({ input, code: expect.stringMatching(/^(BAD_USER_INPUT|CONFLICT)$/) });
    }
    expect((await admin.graphql(`{ apiKeys { id } }`)).body.data.apiKeys.length).toBe(before);
  });

  test("an admin key of one network cannot see or touch another network's keys", async () => {
    const foreign = await createKey(adminScope(service.db, other.id, new Date()), { name: "theirs", scopes: ["read"], origins: [], expiresAt: null });
    const listed = await admin.graphql(`{ apiKeys { id name } }`);
    expect(listed.body.data.apiKeys.map((key: { id: number }) => key.id)).not.toContain(foreign.key.id);
    const revoke = await admin.graphql(`mutation ($id: ID!) { revokeApiKey(id: $id) { id } }`, { id: foreign.key.id });
    expect(revoke.body.errors[0].extensions.code).toBe("NOT_FOUND");
    expect((await client(service.url, foreign.apiKey).get("/vehicles")).status).toBe(200);
  });

  test("a key past its expiry is refused", async () => {
    const start = new Date("2030-01-01T00:00:00.000Z");
    service.clock.set(start);
    try {
      const { apiKey } = await createKey(adminScope(service.db, network.id, start), { name: "short", scopes: ["read"], origins: [], expiresAt: new Date("2030-01-01T01:00:00.000Z") });
      const api = client(service.url, apiKey);
      service.clock.set("2030-01-01T00:59:59.999Z");
      expect((await api.get("/vehicles")).status).toBe(200);
      service.clock.set("2030-01-01T01:00:00.000Z");
      expect((await api.get("/vehicles")).status).toBe(401);
    } finally {
      service.clock.reset();
    }
  });
});

describe("one key of several revoked, across two processes", () => {
  let database: FreshDatabase;
  let processes: ServiceProcess[];
  beforeAll(async () => {
    database = await freshDatabase();
    processes = await Promise.all([1, 2].map(() => startServiceProcess({ DATABASE_URL: database.url })));
  });
  afterAll(async () => {
    await Promise.all(processes.map((each) => each.stop()));
    await database.drop();
  });

  test("both processes refuse the revoked key at once; the others keep working; a grace is respected", async () => {
    const env = { DATABASE_URL: database.url };
    const created = JSON.parse(runAdmin(["network", "create", "--name", "Two", "--identifier-type", "steam"], env).stdout);
    const networkId = String(created.network.id);
    const make = (name: string) => JSON.parse(runAdmin(["key", "create", "--network", networkId, "--name", name, "--scopes", "read"], env).stdout);
    const [gone, graced, kept] = [make("gone"), make("graced"), make("kept")];
    const sees = async (apiKey: string) => Promise.all(processes.map(async (each) => (await fetch(`${each.url}/vehicles`, { headers: { "X-API-Key": apiKey } })).status));
    for (const key of [gone, graced, kept]) expect(await sees(key.apiKey)).toEqual([200, 200]);

    expect(runAdmin(["key", "revoke", "--network", networkId, "--key", String(gone.key.id)], env).status).toBe(0);
    expect(runAdmin(["key", "revoke", "--network", networkId, "--key", String(graced.key.id), "--grace", "3600"], env).status).toBe(0);
    // PostgreSQL announces the change: a process may see it a moment after the command returns.
    const deadline = Date.now() + 5_000;
    while ((await sees(gone.apiKey)).some((status) => status !== 401)) {
      if (Date.now() > deadline) throw new Error("the revoked key is still admitted after 5 s");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(await sees(graced.apiKey)).toEqual([200, 200]);
    expect(await sees(kept.apiKey)).toEqual([200, 200]);
  });
});
