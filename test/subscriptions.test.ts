// Live events over GraphQL over SSE and WebSocket (the contract's "Events live"): replay then
// live with no gap and no duplicate, resume with Last-Event-ID and after, isolation, the key's
// scope, a revoked key's end, other processes' and the admin command's writes.
import { spawn } from "node:child_process";
import path from "node:path";
import { openDatabase } from "../src/db/client";
import { unsupportedNodeAllowance } from "./support/process";
import { removeExpiredEvents } from "../src/events/retention";
import { updateNetworkSettings } from "../src/admin/networks";
import WebSocket from "ws";
import { createClient } from "graphql-ws";
import { startService, type TestService, type TestNetwork } from "./support/service";
import { client } from "./support/http";
import { subscribeSse, type SseFrame } from "./support/eventStream";
import { adminScope } from "../src/admin/keys";
import { createKey, revokeKey } from "../src/resolvers/apiKeys";
import { createVehicle } from "../src/resolvers/vehicles";
import { operatorKey } from "../src/context";

const subscription = `subscription Live($after: Int, $types: [String!]) {
  events(after: $after, types: $types) { id sequence type subject { type id } actor { kind keyId } data }
}`;

const eventsOf = (frames: SseFrame[]) =>
  frames.filter((frame) => frame.event === "next").map((frame) => ({ id: frame.id, ...(JSON.parse(frame.data) as { data?: { events: { sequence: number; type: string; subject: unknown } }; errors?: { extensions: Record<string, unknown> }[] }) }));

let service: TestService;
let network: TestNetwork;

beforeAll(async () => {
  service = await startService({ limits: { subscriptionHeartbeatMs: 200, keyMaxSubscriptions: 5 } });
  network = await service.network();
});
afterAll(() => service.close());

async function plates(n: number, prefix: string, key = network.apiKey) {
  const api = client(service.url, key);
  for (let i = 0; i < n; i++) expect((await api.post("/vehicles", { plate: `${prefix}-${i}` })).status).toBe(201);
}

test("SSE: replay after a sequence, then live events, each with id: <sequence>, no gap, no duplicate; heartbeats; no proxy buffering", async () => {
  const own = await service.network();
  await plates(3, "OLD", own.apiKey);
  const sse = await subscribeSse(service.url, own.apiKey, subscription, { after: 1 });
  expect(sse.status).toBe(200);
  expect(sse.headers["content-type"]).toContain("text/event-stream");
  expect(sse.headers["x-accel-buffering"]).toBe("no");
  // Event 1 is the network's first key (network create); the vehicles are 2 to 4. Replayed
  // after 1: 2 to 4; then written while subscribed: 5 to 9, concurrently.
  await sse.nexts(3);
  await Promise.all([0, 1, 2, 3, 4].map((i) => client(service.url, own.apiKey).post("/vehicles", { plate: `NEW-${i}` })));
  const frames = await sse.nexts(8);
  const events = eventsOf(frames);
  expect(events.map((event) => event.data!.events.sequence)).toEqual([2, 3, 4, 5, 6, 7, 8, 9]);
  expect(events.map((event) => Number(event.id))).toEqual([2, 3, 4, 5, 6, 7, 8, 9]);
  expect(events.every((event) => event.data!.events.type === "vehicle.created")).toBe(true);
  await new Promise((resolve) => setTimeout(resolve, 500));
  expect(sse.comments).toBeGreaterThanOrEqual(2);
  sse.close();
});

test("SSE: a reconnect with Last-Event-ID resumes after it, missing nothing written while away and repeating nothing", async () => {
  const own = await service.network();
  const first = await subscribeSse(service.url, own.apiKey, subscription);
  await plates(2, "A", own.apiKey);
  const seen = eventsOf(await first.nexts(2));
  first.close();
  await plates(3, "B", own.apiKey);
  const again = await subscribeSse(service.url, own.apiKey, subscription, {}, { "Last-Event-ID": seen[seen.length - 1].id! });
  await plates(1, "C", own.apiKey);
  const resumed = eventsOf(await again.nexts(4));
  // 1 is the network's first key, made before the first subscriber came.
  expect([...seen, ...resumed].map((event) => event.data!.events.sequence)).toEqual([2, 3, 4, 5, 6, 7]);
  again.close();
});

test("isolation: a subscriber sees only its own network's events; types filters; a key without read is refused 403", async () => {
  const a = await service.network();
  const b = await service.network();
  const sseB = await subscribeSse(service.url, b.apiKey, subscription, { after: 1 });
  const sseA = await subscribeSse(service.url, a.apiKey, subscription, { after: 0, types: ["dutytime.*"] });
  await plates(2, "ISO", a.apiKey);
  const officer = await a.officer("1");
  expect((await client(service.url, a.apiKey).post(`/dutytime/${officer.identifier}/toggle`)).status).toBe(200);
  await plates(1, "ISOB", b.apiKey);
  const onlyB = eventsOf(await sseB.nexts(1));
  expect(onlyB.map((event) => event.data!.events.subject)).toEqual([expect.objectContaining({ type: "vehicle" })]);
  const onlyDuty = eventsOf(await sseA.nexts(1));
  expect(onlyDuty.map((event) => event.data!.events.type)).toEqual(["dutytime.started"]);
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect(eventsOf(sseB.frames)).toHaveLength(1);
  expect(eventsOf(sseA.frames)).toHaveLength(1);
  sseA.close();
  sseB.close();

  const dutyOnly = await createKey(adminScope(service.db, a.id, new Date()), { name: "connector", scopes: ["dutytime"], origins: [], expiresAt: null });
  const refused = await subscribeSse(service.url, dutyOnly.apiKey, subscription);
  expect(refused.status).toBe(403);
  refused.close();
});

test("the admin command's changes and those of another process reach subscribers", async () => {
  const own = await service.network();
  const sse = await subscribeSse(service.url, own.apiKey, subscription);
  await new Promise((resolve) => setTimeout(resolve, 100));
  // The admin command's rules on the same database, as `npm run admin` runs them.
  await createVehicle({ db: service.db, network: { ...own }, key: operatorKey, now: () => new Date() }, { plate: "ADMIN-1" });
  const [event] = eventsOf(await sse.nexts(1));
  expect(event.data!.events).toMatchObject({ type: "vehicle.created", actor: { kind: "admin", keyId: null } });
  sse.close();
});

test("a revoked key's subscription ends with UNAUTHENTICATED within a second", async () => {
  const own = await service.network();
  const reader = await createKey(adminScope(service.db, own.id, new Date()), { name: "reader", scopes: ["read"], origins: [], expiresAt: null });
  const sse = await subscribeSse(service.url, reader.apiKey, subscription);
  await new Promise((resolve) => setTimeout(resolve, 100));
  const revokedAt = Date.now();
  await revokeKey(adminScope(service.db, own.id, new Date()), reader.key.id, 0);
  await sse.ended;
  expect(Date.now() - revokedAt).toBeLessThan(1_500);
  const last = eventsOf(sse.frames).pop();
  expect(last?.errors?.[0].extensions.code).toBe("UNAUTHENTICATED");
  expect(sse.frames[sse.frames.length - 1].event).toBe("complete");
});

test("a key holds at most KEY_MAX_SUBSCRIPTIONS subscriptions; one more is refused 429, and ending one frees its place", async () => {
  const own = await service.network();
  const open = await Promise.all([1, 2, 3, 4, 5].map(() => subscribeSse(service.url, own.apiKey, subscription)));
  const sixth = await subscribeSse(service.url, own.apiKey, subscription);
  expect(sixth.status).toBe(429);
  sixth.close();
  open[0].close();
  await new Promise((resolve) => setTimeout(resolve, 200));
  const again = await subscribeSse(service.url, own.apiKey, subscription);
  expect(again.status).toBe(200);
  for (const each of [...open.slice(1), again]) each.close();
});

test("writes of another process (the admin command) and of another database connection reach subscribers, in order", async () => {
  const own = await service.network({ identifierType: "steam" });
  const sse = await subscribeSse(service.url, own.apiKey, subscription);
  await new Promise((resolve) => setTimeout(resolve, 100));
  // Another process: the admin command, with its own connection and no way to tell this process
  // but the database (PostgreSQL's NOTIFY, SQLite's commits).
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...unsupportedNodeAllowance(), DATABASE_URL: service.databaseUrl };
  delete childEnv.DATA_DIR;
  const run = await new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
    const child = spawn("npm", ["run", "--silent", "admin", "--", "officer", "add", "--network", String(own.id), "--identifier", "steam:77", "--name", "From Admin"], {
      cwd: path.resolve(__dirname, ".."),
      env: childEnv,
    });
    let stderr = "";
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stderr }));
  });
  expect(run).toEqual({ code: 0, stderr: "" });
  // Another database connection of this process, as a second service process would write.
  const other = await openDatabase(service.databaseUrl);
  try {
    for (const plate of ["OTHER-1", "OTHER-2"]) await createVehicle({ db: other, network: { ...own }, key: operatorKey, now: () => new Date() }, { plate });
  } finally {
    await other.close();
  }
  const events = eventsOf(await sse.nexts(3));
  expect(events.map((event) => event.data!.events.type)).toEqual(["officer.added", "vehicle.created", "vehicle.created"]);
  expect(events.map((event) => event.data!.events.sequence)).toEqual([2, 3, 4]);
  expect(events[0].data!.events).toMatchObject({ actor: { kind: "admin", keyId: null }, subject: { type: "officer", id: "steam:77" } });
  sse.close();
}, 60_000);

test("retention: events older than the network's days are removed, in batches; sequences go on without reuse", async () => {
  const own = await service.network();
  await plates(3, "RET", own.apiKey);
  const api = client(service.url, own.apiKey);
  const before = (await api.get("/events")).body.data as { sequence: number; occurredAt: string }[];
  expect(before.map((event) => event.sequence)).toEqual([4, 3, 2, 1]);
  await updateNetworkSettings(service.db, own.id, { eventRetentionDays: 1 }, new Date());
  // Two days on: a change then (6) is kept, the five before it are older than a day.
  const later = new Date(Date.now() + 2 * 86_400_000);
  service.clock.set(later);
  try {
    await plates(1, "RET-LATER", own.apiKey);
    expect(await removeExpiredEvents(service.db, later)).toBeGreaterThanOrEqual(5);
    expect(((await api.get("/events")).body.data as { sequence: number }[]).map((event) => event.sequence)).toEqual([6]);
    await plates(1, "RET-AFTER", own.apiKey);
    expect(((await api.get("/events")).body.data as { sequence: number }[]).map((event) => event.sequence)).toEqual([7, 6]);
  } finally {
    service.clock.reset();
  }
});

describe("WebSocket (graphql-transport-ws)", () => {
  const wsUrl = () => `${service.url.replace("http", "ws")}/graphql`;

  /** Subscribes over WebSocket; answers the results as they come and how the subscription ended. */
  function subscribeWs(connectionParams: Record<string, unknown>, variables: Record<string, unknown>) {
    const results: { data?: { events: { sequence: number; type: string } }; errors?: { extensions?: Record<string, unknown> }[] }[] = [];
    let closeCode: number | undefined;
    const wsClient = createClient({
      url: wsUrl(),
      webSocketImpl: WebSocket,
      connectionParams,
      retryAttempts: 0,
      lazy: false,
      // A refused connection is the test's to check, not the console's.
      onNonLazyError: () => undefined,
      on: { closed: (event) => (closeCode = (event as { code: number }).code) },
    });
    const ended = new Promise<unknown>((resolve) => {
      wsClient.subscribe({ query: subscription, variables }, { next: (result) => void results.push(result as never), error: resolve, complete: () => resolve(null) });
    });
    const until = async (count: number) => {
      for (let waited = 0; results.length < count && waited < 10_000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
      return results;
    };
    return { results, until, ended, closeCode: () => closeCode, dispose: () => wsClient.dispose() };
  }

  test("the key in connectionParams; replay after `after`, then live, no gap, no duplicate; Bearer works too", async () => {
    const own = await service.network();
    await plates(2, "WS", own.apiKey);
    const ws = subscribeWs({ "X-API-Key": own.apiKey }, { after: 1 });
    await ws.until(2);
    await Promise.all([0, 1, 2].map((i) => client(service.url, own.apiKey).post("/vehicles", { plate: `WS-LIVE-${i}` })));
    const results = await ws.until(5);
    expect(results.map((result) => result.data!.events.sequence)).toEqual([2, 3, 4, 5, 6]);
    await ws.dispose();
    const bearer = subscribeWs({ Authorization: `Bearer ${own.apiKey}` }, { after: 5 });
    expect((await bearer.until(1)).map((result) => result.data!.events.sequence)).toEqual([6]);
    await bearer.dispose();
  });

  test("no key or an unknown one: closed with 4401; a key without read: the subscription is refused FORBIDDEN", async () => {
    const none = subscribeWs({}, {});
    await none.ended;
    expect(none.closeCode()).toBe(4401);
    const unknown = subscribeWs({ "X-API-Key": "vrd_not_a_key_of_this_service" }, {});
    await unknown.ended;
    expect(unknown.closeCode()).toBe(4401);
    const own = await service.network();
    const dutyOnly = await createKey(adminScope(service.db, own.id, new Date()), { name: "ws connector", scopes: ["dutytime"], origins: [], expiresAt: null });
    const refused = subscribeWs({ "X-API-Key": dutyOnly.apiKey }, {});
    // Refused before anything runs: one result with the error, then the subscription completes.
    expect(await refused.ended).toBeNull();
    expect(refused.results).toEqual([{ errors: [expect.objectContaining({ message: "This action is unauthorized.", extensions: expect.objectContaining({ code: "FORBIDDEN" }) })] }]);
    await refused.dispose();
  });

  test("a revoked key's WebSocket subscription ends with UNAUTHENTICATED", async () => {
    const own = await service.network();
    const reader = await createKey(adminScope(service.db, own.id, new Date()), { name: "ws reader", scopes: ["read"], origins: [], expiresAt: null });
    const ws = subscribeWs({ "X-API-Key": reader.apiKey }, {});
    await new Promise((resolve) => setTimeout(resolve, 200));
    await revokeKey(adminScope(service.db, own.id, new Date()), reader.key.id, 0);
    await ws.ended;
    expect(ws.results.pop()?.errors?.[0].extensions?.code).toBe("UNAUTHENTICATED");
    await ws.dispose();
  });
});

describe("edges (found in review)", () => {
  test("a replay longer than SUBSCRIPTION_MAX_QUEUED goes at the subscriber's pace, whole; an `after` older than the retained events does not stall", async () => {
    const small = await startService({ limits: { subscriptionMaxQueued: 10, subscriptionHeartbeatMs: 200 } });
    try {
      const own = await small.network();
      const api = client(small.url, own.apiKey);
      for (let i = 0; i < 40; i++) expect((await api.post("/vehicles", { plate: `RP-${i}` })).status).toBe(201);
      const replay = await subscribeSse(small.url, own.apiKey, subscription, { after: 0 });
      const events = eventsOf(await replay.nexts(41));
      expect(events.map((event) => event.data!.events.sequence)).toEqual(Array.from({ length: 41 }, (_, i) => i + 1));
      replay.close();

      // Every event removed by retention, then a subscriber after 1: it goes on live at once.
      await updateNetworkSettings(small.db, own.id, { eventRetentionDays: 1 }, new Date());
      await removeExpiredEvents(small.db, new Date(Date.now() + 2 * 86_400_000));
      const late = await subscribeSse(small.url, own.apiKey, subscription, { after: 1 });
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect((await api.post("/vehicles", { plate: "RP-LIVE" })).status).toBe(201);
      expect(eventsOf(await late.nexts(1)).map((event) => event.data!.events.sequence)).toEqual([43]);
      late.close();
    } finally {
      await small.close();
    }
  });

  test("a key that expires while subscribed: its subscription ends with UNAUTHENTICATED", async () => {
    const own = await service.network();
    const expiring = await createKey(adminScope(service.db, own.id, new Date()), { name: "short", scopes: ["read"], origins: [], expiresAt: new Date(Date.now() + 1_500) });
    const sse = await subscribeSse(service.url, expiring.apiKey, subscription);
    await sse.ended;
    expect(eventsOf(sse.frames).pop()?.errors?.[0].extensions.code).toBe("UNAUTHENTICATED");
  });

  test("bad cursors and Last-Event-ID are refused or ignored, never a 500; a subscription without Accept: text/event-stream is 406", async () => {
    const own = await service.network();
    const api = client(service.url, own.apiKey);
    const huge = Buffer.from(JSON.stringify({ sequence: 2 ** 40, _pointsToNextItems: true })).toString("base64url");
    const refused = await api.get(`/events?cursor=${huge}`);
    expect(refused.status).toBe(422);
    expect(refused.body.errors.cursor).toBeDefined();
    const sse = await subscribeSse(service.url, own.apiKey, subscription, { after: 0 }, { "Last-Event-ID": "99999999999999999999" });
    expect(eventsOf(await sse.nexts(1)).map((event) => event.data!.events.sequence)).toEqual([1]);
    sse.close();
    const json = await fetch(`${service.url}/graphql`, {
      method: "POST",
      headers: { "X-API-Key": own.apiKey, "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify({ query: subscription }),
    });
    expect(json.status).toBe(406);
    await json.body?.cancel();
  });

  test("WebSocket: every operation is admitted again: a key revoked after the connection began is refused and the socket closed 4401", async () => {
    const own = await service.network();
    const writer = await createKey(adminScope(service.db, own.id, new Date()), { name: "ws writer", scopes: ["read", "write"], origins: [], expiresAt: null });
    let closeCode: number | undefined;
    const wsClient = createClient({ url: `${service.url.replace("http", "ws")}/graphql`, webSocketImpl: WebSocket, connectionParams: { "X-API-Key": writer.apiKey }, retryAttempts: 0, lazy: false, onNonLazyError: () => undefined, on: { closed: (event) => (closeCode = (event as { code: number }).code) } });
    const run = (query: string) =>
      new Promise<{ result?: unknown; error?: unknown }>((resolve) => {
        let result: unknown;
        wsClient.subscribe({ query }, { next: (value) => (result = value), error: (error) => resolve({ error }), complete: () => resolve({ result }) });
      });
    expect(await run('mutation { createVehicle(input: {plate: "WS-1"}) { plate } }')).toEqual({ result: { data: { createVehicle: { plate: "WS-1" } } } });
    await revokeKey(adminScope(service.db, own.id, new Date()), writer.key.id, 0);
    // Refused (UNAUTHENTICATED, and the socket closed at once): no result.
    const after = await run('mutation { createVehicle(input: {plate: "WS-2"}) { plate } }');
    expect(after.result).toBeUndefined();
    expect(after.error).toBeDefined();
    for (let waited = 0; closeCode === undefined && waited < 2_000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(closeCode).toBe(4401);
    expect((await client(service.url, own.apiKey).get("/vehicles?search=WS-2")).body.meta.total).toBe(0);
    await wsClient.dispose();
  });
});
