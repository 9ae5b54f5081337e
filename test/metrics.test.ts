// The Prometheus metrics (issue 24, part 2): off unless METRICS_PORT is set, then on a listener of
// their own (127.0.0.1 by default), never on the public port; counters that move with the requests
// a test sends (route template, status, GraphQL operation, refusals, cache hits); label values
// bounded; and a real scrape that Prometheus' own `promtool check metrics` accepts.
//
// promtool: PROMTOOL, else /usr/bin/promtool (Debian's `prometheus` package; .ci/run installs it).
// Without it that test is skipped with a warning, but fails when CI=true.
import fs from "node:fs";
import { spawnSync } from "node:child_process";
import { connectionPoolOf } from "../src/db/postgres/connect";
import { maxOperationNames, serviceMetrics, type ServiceMetrics } from "../src/server/observability/metrics";
import { listenForMetrics } from "../src/server/observability/metricsServer";
import { webhookMetrics } from "../src/server/observability/webhookMetrics";
import { RequestRecord } from "../src/server/observability/requestRecord";
import type { RunningServer } from "../src/server/httpServer";
import { startService, temporaryDir, testProvider, type TestService } from "./support/service";
import { freePort, startServiceProcess, type ServiceProcess } from "./support/process";
import { client } from "./support/http";
import { hashApiKey } from "../src/resolvers/apiKeys";

const promtool = (process.env.PROMTOOL ? [process.env.PROMTOOL] : ["/usr/bin/promtool", "/usr/local/bin/promtool"]).find((file) => fs.existsSync(file));
const inCi = process.env.CI === "true";
if (!promtool && !inCi) {
  console.warn(
    "\n\n*** test/metrics.test.ts: promtool check SKIPPED: promtool not found (set PROMTOOL or `apt-get install -y prometheus`). With CI=true this fails. ***\n\n",
  );
}
const testWithPromtool = promtool || inCi ? test : test.skip;

/** The value of one sample of a scrape (0 when the series is not there yet). */
function sample(scrape: string, name: string, labels: Record<string, string> = {}): number {
  for (const line of scrape.split("\n")) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const found = Object.fromEntries([...line.matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map(([, label, value]) => [label, value]));
    if (Object.entries(labels).every(([label, value]) => found[label] === value)) return Number(line.slice(line.lastIndexOf(" ") + 1));
  }
  return 0;
}

/** The TCP ports a process listens on, with their address (Linux: /proc). */
function listeningSockets(pid: number): { address: string; port: number }[] {
  const inodes = new Set<string>();
  for (const fd of fs.readdirSync(`/proc/${pid}/fd`)) {
    try {
      const socket = /^socket:\[(\d+)\]$/.exec(fs.readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (socket) inodes.add(socket[1]);
    } catch {
      // Closed meanwhile.
    }
  }
  const sockets: { address: string; port: number }[] = [];
  for (const table of [`/proc/${pid}/net/tcp`, `/proc/${pid}/net/tcp6`]) {
    if (!fs.existsSync(table)) continue;
    for (const row of fs.readFileSync(table, "utf8").trim().split("\n").slice(1)) {
      const [, local, , state, , , , , , inode] = row.trim().split(/\s+/);
      if (state !== "0A" || !inodes.has(inode)) continue;
      const [address, port] = local.split(":");
      sockets.push({ address: address === "0100007F" ? "127.0.0.1" : address, port: parseInt(port, 16) });
    }
  }
  return sockets.sort((a, b) => a.port - b.port);
}

async function scrape(url: string): Promise<string> {
  const response = await fetch(url);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
  return response.text();
}

describe("a real process", () => {
  let child: ServiceProcess | undefined;
  let dataDir: string;
  beforeEach(() => (dataDir = temporaryDir()));
  afterEach(async () => {
    await child?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  test("without METRICS_PORT listens on its public port only", async () => {
    child = await startServiceProcess({ DATA_DIR: dataDir });
    expect(listeningSockets(child.child.pid!).map((socket) => socket.port)).toEqual([Number(new URL(child.url).port)]);
    expect((await fetch(`${child.url}/metrics`)).status).toBe(404);
  });

  testWithPromtool("with METRICS_PORT serves /metrics on 127.0.0.1 at that port, apart from the API; promtool accepts the scrape", async () => {
    if (!promtool) throw new Error("promtool not found: set PROMTOOL or `apt-get install -y prometheus` (required when CI=true)");
    const metricsPort = await freePort();
    child = await startServiceProcess({ DATA_DIR: dataDir, METRICS_PORT: String(metricsPort) });
    const port = Number(new URL(child.url).port);
    expect(listeningSockets(child.child.pid!)).toEqual(
      [{ address: "127.0.0.1", port }, { address: "127.0.0.1", port: metricsPort }].sort((a, b) => a.port - b.port),
    );
    expect((await fetch(`${child.url}/metrics`)).status).toBe(404);
    for (const pathname of ["/healthz", "/vehicles/1", "/nowhere", "/graphql"]) await (await fetch(child.url + pathname)).text();
    const text = await scrape(`http://127.0.0.1:${metricsPort}/metrics`);
    expect(sample(text, "vrd_http_requests_total", { route: "/healthz", method: "GET", status: "200" })).toBe(1);
    expect(sample(text, "vrd_refusals_total", { reason: "no_key" })).toBe(2);
    expect(sample(text, "process_cpu_seconds_total")).toBeGreaterThan(0);
    expect((await fetch(`http://127.0.0.1:${metricsPort}/other`)).status).toBe(404);
    expect((await fetch(`http://127.0.0.1:${metricsPort}/metrics`, { method: "POST" })).status).toBe(405);

    const checked = spawnSync(promtool, ["check", "metrics"], { input: text, encoding: "utf8" });
    expect({ status: checked.status, output: checked.stdout + checked.stderr }).toEqual({ status: 0, output: "" });
  });
});

describe("counters", () => {
  let service: TestService;
  let metrics: ServiceMetrics;
  let listener: RunningServer;

  beforeAll(async () => {
    metrics = serviceMetrics();
    service = await startService({ metrics });
    listener = await listenForMetrics(metrics.registry, 0, "127.0.0.1");
  });
  afterAll(async () => {
    await listener.close();
    await service.close();
  });

  test("webhooks: attempts by kind and outcome, the lag of deliveries, and the events the enabled webhooks have yet to handle", async () => {
    const observer = webhookMetrics(metrics.registry, () => service.db.webhooks.backlog());
    const { apiKey } = await service.network();
    const api = client(service.url, apiKey);
    // A webhook nobody delivers here (no worker runs in this test): its events wait, counted.
    const made = await api.graphql(`mutation { createWebhook(input: { url: "https://93.184.215.14/hook" }) { webhook { id } } }`);
    expect(made.body.errors).toBeUndefined();
    const before = await scrape(listener.url);
    for (const plate of ["Q-1", "Q-2", "Q-3"]) expect((await api.post("/vehicles", { plate })).status).toBe(201);
    const attempt = { webhookId: 1, networkId: 1, eventId: "evt_1_1", firstSequence: 1, lastSequence: 1, attempt: 1, attemptedAt: new Date(), status: 200, durationMs: 3, error: null };
    observer.attempted({ ...attempt, kind: "delivery", outcome: "delivered" });
    observer.attempted({ ...attempt, kind: "delivery", outcome: "retrying", status: 503 });
    observer.attempted({ ...attempt, kind: "test", outcome: "delivered" });
    observer.delivered(40);
    const after = await scrape(listener.url);
    const moved = (name: string, labels: Record<string, string> = {}) => sample(after, name, labels) - (sample(before, name, labels) || 0);
    expect(moved("vrd_webhook_attempts_total", { kind: "delivery", outcome: "delivered" })).toBe(1);
    expect(moved("vrd_webhook_attempts_total", { kind: "delivery", outcome: "retrying" })).toBe(1);
    expect(moved("vrd_webhook_attempts_total", { kind: "test", outcome: "delivered" })).toBe(1);
    expect(moved("vrd_webhook_delivery_lag_seconds_count")).toBe(1);
    expect(moved("vrd_webhook_delivery_lag_seconds_bucket", { le: "0.05" })).toBe(1);
    // Its own webhook.created and the three vehicles, not yet handled.
    expect(moved("vrd_webhook_queue_events")).toBe(3);
    expect(sample(after, "vrd_webhook_queue_events")).toBeGreaterThanOrEqual(4);
  });

  test("move with the requests sent: route template and status, latency, GraphQL operations, refusals, cache hits", async () => {
    const { apiKey } = await service.network();
    const api = client(service.url, apiKey);
    const key = (await service.db.apiKeys.byHash(hashApiKey(apiKey)))!;
    const id = (await api.post("/vehicles", { plate: "METRIC-1", cartyp: "Vapid" })).body.data.id;
    const before = await scrape(listener.url);

    for (let i = 0; i < 3; i += 1) expect((await api.get(`/vehicles/${id}`)).status).toBe(200);
    for (let i = 0; i < 2; i += 1) expect((await api.get("/vehicles?search=vapid")).status).toBe(200);
    expect((await api.get("/nowhere")).status).toBe(404);
    expect((await api.get("/vehicles", { key: null })).status).toBe(401);
    expect((await api.get("/vehicles", { key: `vrd_${"Z".repeat(43)}` })).status).toBe(401);
    for (let i = 0; i < 2; i += 1) expect((await api.graphql("query DashboardCount { vehicles { meta { total } } }")).status).toBe(200);
    expect((await api.graphql("{ network { id } }")).status).toBe(200);
    const after = await scrape(listener.url);

    const moved = (name: string, labels: Record<string, string> = {}) => sample(after, name, labels) - sample(before, name, labels);
    expect(moved("vrd_http_requests_total", { route: "/vehicles/{vehicle}", method: "GET", status: "200" })).toBe(3);
    expect(moved("vrd_http_request_duration_seconds_count", { route: "/vehicles/{vehicle}", method: "GET" })).toBe(3);
    expect(moved("vrd_http_request_duration_seconds_bucket", { route: "/vehicles/{vehicle}", method: "GET", le: "+Inf" })).toBe(3);
    expect(moved("vrd_http_requests_total", { route: "/vehicles", method: "GET", status: "200" })).toBe(2);
    expect(moved("vrd_http_requests_total", { route: "/vehicles", method: "GET", status: "401" })).toBe(2);
    expect(moved("vrd_http_requests_total", { route: "unmatched", method: "GET", status: "404" })).toBe(1);
    expect(moved("vrd_http_requests_total", { route: "/graphql", method: "POST", status: "200" })).toBe(3);
    expect(moved("vrd_graphql_operations_total", { operation: "DashboardCount", type: "query" })).toBe(2);
    expect(moved("vrd_graphql_operations_total", { operation: "(anonymous)", type: "query" })).toBe(1);
    expect(moved("vrd_refusals_total", { reason: "no_key" })).toBe(1);
    expect(moved("vrd_refusals_total", { reason: "unknown_key" })).toBe(1);
    // Every admitted request counts for its key, by id and name (never its secret).
    expect(moved("vrd_key_requests_total", { key_id: String(key.id), key_name: key.name })).toBe(8);
    expect(after).not.toContain(apiKey);
    // Keys are kept once admitted; the second search's total and the second run of a document are kept.
    expect(moved("vrd_cache_hits_total", { cache: "admittedKeys" })).toBeGreaterThanOrEqual(5);
    expect(moved("vrd_cache_hits_total", { cache: "searchTotals" })).toBeGreaterThanOrEqual(1);
    expect(moved("vrd_cache_misses_total", { cache: "searchTotals" })).toBeGreaterThanOrEqual(1);
    expect(moved("vrd_cache_hits_total", { cache: "knownQueries" })).toBeGreaterThanOrEqual(1);
    expect(moved("vrd_cache_misses_total", { cache: "knownQueries" })).toBeGreaterThanOrEqual(1);
    // No label holds a path or a query value.
    expect(after).not.toContain(`/vehicles/${id}"`);
    expect(after).not.toContain("vapid");
  });

  test("the database pool's connections are gauges on PostgreSQL; SQLite has no pool", async () => {
    const text = await serviceMetrics({ pool: connectionPoolOf(service.db.prisma) }).registry.metrics();
    if (testProvider === "postgresql") {
      expect(text).toMatch(/^vrd_database_pool_connections\{state="in_use"\} \d+$/m);
      expect(text).toMatch(/^vrd_database_pool_connections\{state="idle"\} \d+$/m);
      expect(text).toMatch(/^vrd_database_pool_waiting \d+$/m);
    } else {
      expect(text).not.toContain("vrd_database_pool");
    }
  });
});

test("operation names get a series each up to a bound, then count as (other)", async () => {
  const metrics = serviceMetrics();
  const run = (name: string | undefined) => {
    const record = new RequestRecord("id", "POST");
    Object.assign(record, { route: "/graphql", status: 200, operation: name, operationType: "query" });
    metrics.answered(record, "direct");
  };
  for (let i = 0; i < maxOperationNames + 20; i += 1) run(`Operation${i}`);
  run("Operation0");
  run(undefined);
  const text = await metrics.registry.metrics();
  const series = text.split("\n").filter((line) => line.startsWith("vrd_graphql_operations_total{"));
  expect(series).toHaveLength(maxOperationNames + 2);
  expect(sample(text, "vrd_graphql_operations_total", { operation: "Operation0" })).toBe(2);
  expect(sample(text, "vrd_graphql_operations_total", { operation: "(other)" })).toBe(20);
  expect(sample(text, "vrd_graphql_operations_total", { operation: "(anonymous)" })).toBe(1);
});
