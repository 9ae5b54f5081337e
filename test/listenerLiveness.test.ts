// The PostgreSQL connection that listens for key changes (src/db/postgres/listener.ts) can die
// without a word (a NAT dropping an idle connection sends no FIN or RST). What a process keeps on
// the strength of its notifications is then trusted only for the listener's timeout, and the
// connection is replaced: through a proxy that cuts connections silently, as a unit and through a
// real service process that an admin command's regeneration reaches.
import fs from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { Client } from "pg";
import { defaultListenerSettings, listenerSettingSpecs, type ListenerSettings } from "../src/config/database";
import { readSettings } from "../src/config/env";
import { keyChangesOf } from "../src/db/postgres/keyChanges";
import { postgresListener, type Listener } from "../src/db/postgres/listener";
import type { KeyChanges } from "../src/db/store";
import { freshDatabase, testProvider, type FreshDatabase } from "./support/database";
import { startFreezingProxy, type FreezingProxy } from "./support/freezingProxy";
import { client } from "./support/http";
import { freePort, runAdminAsync, startServiceProcess, type ServiceProcess } from "./support/process";

const describePostgres = testProvider === "postgresql" ? describe : describe.skip;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until `condition` holds, checking every 20 ms, for at most `ms`. */
async function eventually(condition: () => boolean | Promise<boolean>, ms: number): Promise<boolean> {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    if (await condition()) return true;
    await sleep(20);
  }
  return condition();
}

test("the listener's settings are read from the environment, listed in the README, and the round trips come more often than the timeout", () => {
  const readme = fs.readFileSync(path.join(__dirname, "..", "README.md"), "utf8");
  for (const spec of Object.values(listenerSettingSpecs)) expect(readme).toContain(`| \`${spec.env}\` | \`${spec.default}\` | ${spec.meaning} |`);
  expect(readSettings({}).listener).toEqual(defaultListenerSettings);
  expect(readSettings({ DATABASE_LISTEN_PING_INTERVAL_MS: "250", DATABASE_LISTEN_TIMEOUT_MS: "900" }).listener).toEqual({ pingIntervalMs: 250, timeoutMs: 900 });
  expect(() => readSettings({ DATABASE_LISTEN_TIMEOUT_MS: "0" })).toThrow("DATABASE_LISTEN_TIMEOUT_MS");
  expect(() => readSettings({ DATABASE_LISTEN_PING_INTERVAL_MS: "3000" })).toThrow("DATABASE_LISTEN_PING_INTERVAL_MS must be less than DATABASE_LISTEN_TIMEOUT_MS");
});

describePostgres("the listening connection, cut silently", () => {
  // Shorter than the defaults, so the test is quick; the service process below runs on the defaults.
  const settings: ListenerSettings = { pingIntervalMs: 200, timeoutMs: 1500 };
  let database: FreshDatabase;
  let proxy: FreezingProxy;
  let direct: Client;
  let listener: Listener;
  let changes: KeyChanges;
  /** How often an event stream listening beside the key changes was told to read again. */
  let rereads = 0;

  beforeAll(async () => {
    database = await freshDatabase();
    proxy = await startFreezingProxy(database.url);
    direct = new Client({ connectionString: database.url });
    await direct.connect();
    listener = postgresListener({ connectionString: proxy.url, connectionTimeoutMillis: 2000 }, settings);
    changes = keyChangesOf(listener);
    listener.subscribe("vrd_test_events", { notified: () => undefined, listening: () => rereads++ });
  });
  afterAll(async () => {
    await changes?.close();
    await listener?.close();
    await direct?.end();
    await proxy?.close();
    await database?.drop();
  });

  test("a live connection stays trusted between announcements: its round trips vouch for it", async () => {
    expect(await eventually(() => changes.epoch() !== null, 5000)).toBe(true);
    expect(proxy.listening()).toBe(1);
    expect(rereads).toBe(1);
    // Two timeouts without a notification: only the round trips keep the epoch.
    const until = performance.now() + 2 * settings.timeoutMs;
    let nulls = 0;
    while (performance.now() < until) {
      if (changes.epoch() === null) nulls++;
      await sleep(20);
    }
    expect(nulls).toBe(0);
    const before = changes.epoch();
    await direct.query("NOTIFY vrd_api_keys");
    expect(await eventually(() => changes.epoch() !== before, 2000)).toBe(true);
  });

  test("cut silently: nothing kept is trusted within the timeout, and a new connection starts a new epoch and a re-read", async () => {
    expect(await eventually(() => changes.epoch() !== null, 5000)).toBe(true);
    const before = changes.epoch();
    const rereadsBefore = rereads;
    expect(proxy.freezeListening()).toBe(1);
    const frozenAt = performance.now();
    // Announced after the cut: this notification never arrives.
    await direct.query("NOTIFY vrd_api_keys");
    // The last answered round trip was sent before the cut, so the epoch is null within the
    // timeout (the margin is for a loaded machine's timers).
    expect(await eventually(() => changes.epoch() === null, settings.timeoutMs + 1000)).toBe(true);
    expect(performance.now() - frozenAt).toBeLessThan(settings.timeoutMs + 1000);

    // The unanswered round trip declares the connection dead; a new one listens a second later.
    expect(await eventually(() => changes.epoch() !== null, 10_000)).toBe(true);
    expect(changes.epoch()).not.toBe(before);
    expect(proxy.listening()).toBe(1);
    expect(rereads).toBe(rereadsBefore + 1);
    const after = changes.epoch();
    await direct.query("NOTIFY vrd_api_keys");
    expect(await eventually(() => changes.epoch() !== after, 2000)).toBe(true);
  });

  test("closed: its connection ends and it listens no more", async () => {
    const closing = postgresListener({ connectionString: proxy.url, connectionTimeoutMillis: 2000 }, settings);
    const closingChanges = keyChangesOf(closing);
    const listeningBefore = proxy.listening();
    closingChanges.epoch();
    expect(await eventually(() => closingChanges.epoch() !== null, 5000)).toBe(true);
    expect(proxy.listening()).toBe(listeningBefore + 1);
    await closingChanges.close();
    await closing.close();
    expect(closingChanges.epoch()).toBeNull();
    expect(await eventually(() => proxy.listening() === listeningBefore, 2000)).toBe(true);
  });
});

/** The service process's count of requests answered from admitted keys it kept. */
async function admittedKeyHits(metricsUrl: string): Promise<number> {
  const text = await (await fetch(`${metricsUrl}/metrics`)).text();
  return Number(/^vrd_cache_hits_total\{cache="admittedKeys"\} (\d+)/m.exec(text)?.[1] ?? 0);
}

describePostgres("a key regenerated while a service process's listening connection is cut silently", () => {
  let database: FreshDatabase;
  let proxy: FreezingProxy;
  let service: ServiceProcess;
  let metricsUrl: string;

  beforeAll(async () => {
    database = await freshDatabase();
    proxy = await startFreezingProxy(database.url);
    const metricsPort = await freePort();
    metricsUrl = `http://127.0.0.1:${metricsPort}`;
    // The listener's default settings.
    service = await startServiceProcess({ DATABASE_URL: proxy.url, METRICS_PORT: String(metricsPort), LOG_LEVEL: "warn" });
  });
  afterAll(async () => {
    await service?.stop();
    await proxy?.close();
    await database?.drop();
  });

  test("the old key is refused within seconds, though the cut connection never hears the change", async () => {
    // The admin command talks to the database directly, not through the proxy.
    const admin = { DATABASE_URL: database.url };
    const created = await runAdminAsync(["network", "create", "--name", "Cut", "--identifier-type", "steam"], admin);
    expect(created.code).toBe(0);
    const { network, apiKey: oldKey } = JSON.parse(created.stdout);
    const api = client(service.url, oldKey);

    // Admitted, then answered from what the process keeps, while its connection listens.
    expect((await api.get("/vehicles")).status).toBe(200);
    expect(await eventually(() => proxy.listening() === 1, 5000)).toBe(true);
    const kept = async () => {
      const hits = await admittedKeyHits(metricsUrl);
      return (await api.get("/vehicles")).status === 200 && (await admittedKeyHits(metricsUrl)) > hits;
    };
    expect(await eventually(kept, 5000)).toBe(true);

    expect(proxy.freezeListening()).toBe(1);
    const regenerated = await runAdminAsync(["network", "regenerate-key", "--network", String(network.id), "--grace", "0"], admin);
    expect(regenerated.code).toBe(0);
    const { apiKey: newKey } = JSON.parse(regenerated.stdout);

    // Within the listener's timeout (3 s) of the regeneration; the deadline leaves a wide margin.
    const refused = await eventually(async () => (await api.get("/vehicles")).status === 401, 15_000);
    expect(refused).toBe(true);
    expect((await client(service.url, newKey).get("/vehicles")).status).toBe(200);
    // Once the connection is replaced and the process keeps keys again, the old key stays refused.
    expect(await eventually(() => proxy.listening() === 1, 10_000)).toBe(true);
    for (let i = 0; i < 3; i++) expect((await api.get("/vehicles")).status).toBe(401);
  });
});
