// Smoke run of the benchmark on a small data set, so the bench cannot rot. It checks that the
// bench works and reports every scenario; it asserts nothing about speed. And the floor, which
// the bench measures the service against, still answers like the service (bench/check-floor.ts).
import { execFile } from "node:child_process";
import fs from "node:fs";
import Database from "libsql";
import path from "node:path";
import { promisify } from "node:util";
import { freshDatabase, temporaryDir, testProvider } from "./support/database";
import { removeCreatedVehicles, serverSettings } from "../bench/lib/databases";
import { startService } from "./support/service";
import { client } from "./support/http";
import { repoRoot } from "./support/process";
import { benchOwner, newRangeScenario, scenarios, scenariosNamed, type Scenario } from "../bench/load/scenarios";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { measure, percentile } from "../bench/load/measure";
import { measuringOrder } from "../bench/load/rounds";
import { maxWarmupFactor, measureSideBySide } from "../bench/load/slices";
import { layerScenarioNames } from "../bench/layers/measure";

const sqliteOnly = testProvider === "sqlite" ? test : test.skip;

sqliteOnly(
  "npm run bench on a small data set measures every scenario of the service and the floor",
  async () => {
    const out = path.join(temporaryDir(), "bench.md");
    const logs = temporaryDir();
    await promisify(execFile)(
      "npm",
      ["run", "--silent", "bench", "--", "--size", "small", "--duration", "1", "--connections", "2", "--rounds", "2", "--warmup", "0.2", "--warmup-requests", "0", "--targets", "service,floor", "--out", out],
      { cwd: repoRoot, maxBuffer: 20 * 1024 * 1024, env: { ...process.env, BENCH_SERVER_LOGS: logs } },
    );
    const report = fs.readFileSync(out, "utf8");
    // BENCH_SERVER_LOGS kept the service's output: its start line, then its request log.
    const serviceLog = fs.readFileSync(path.join(logs, "service.log"), "utf8");
    expect(serviceLog).toMatch(/listening on http:\/\//);
    expect(serviceLog).toMatch(/"route":"\/vehicles"/);
    // The SQLite files were read once before the servers started (a warm OS page cache).
    expect(report).toMatch(/SQLite, its \d+ MB of files read once before the servers start/);
    const rows = report.split("\n").filter((line) => /^\| (list|search|sort|get|create|patch|dutytime|statistics|GraphQL)/.test(line));
    // 14 scenarios in each of the two networks.
    expect(rows).toHaveLength(28);
    for (const row of rows) {
      const cells = row.split("|").map((cell) => cell.trim());
      // service req/s and floor req/s: numbers, with no failed requests.
      expect(cells[2]).toMatch(/^\d+$/);
      expect(cells[5]).toMatch(/^\d+$/);
    }
    // The dashboards' scenarios: the largest network, asked the same report again and a new range
    // each request, and the month's new ranges in history10x.
    const dashboards = [
      "officers page (largest)",
      "duty hours, month by day (largest)",
      "duty hours, year by month (largest)",
      newRangeScenario("month by day", "largest"),
      newRangeScenario("year by month", "largest"),
      newRangeScenario("month by day", "history 10x"),
    ];
    for (const name of dashboards) {
      const cells = report.split("\n").find((line) => line.startsWith(`| ${name} |`))?.split("|").map((cell) => cell.trim());
      expect(cells?.[2]).toMatch(/^\d+$/);
      expect(cells?.[5]).toMatch(/^\d+$/);
    }
    expect(report).toMatch(/: duty hours, month by day, new range each request: history 10x p50 <= 1\.5x the largest's p50 \([\d.]+ -> [\d.]+ ms/);
    expect(report).toMatch(/: duty hours, year by month \(largest\): p50 < 50 ms \([\d.]+ ms\)/);
    expect(report).toMatch(/\| peak RSS \(MB\) \| \d+ /);
    expect(report).toContain("each scenario measures them in slices of 0.5 s, 2 per server");
    expect(report).toContain("after unmeasured warm-up on the scenario's requests per server (0.2 s)");
    expect(report).toContain("## Targets (issue 4)");
    // The in-process part: CPU per request by layer, each scenario of the cost table a column, its
    // layers (and the time off the main thread) adding up to the profiled total.
    const layers = report.slice(report.indexOf("## CPU per request by layer"));
    expect(layers).toMatch(/^## CPU per request by layer/);
    const table = layers.split("\n").filter((line) => line.startsWith("| "));
    expect(table[0].split("|").slice(2, -1).map((cell) => cell.trim()).sort()).toEqual([...layerScenarioNames].sort());
    const valuesOf = (label: string) =>
      table
        .find((line) => line.startsWith(`| ${label} |`))!
        .split("|")
        .slice(2, -1)
        .map((cell) => Number(/\d+/.exec(cell)![0]));
    const parts = table.filter((line) => !/^\| (layer|\*\*total|requests profiled)/.test(line)).map((line) => valuesOf(line.split("|")[1].trim()));
    // Every request reads the database and passes admission.
    expect(valuesOf("database (stores, SQL, driver)").every((us) => us > 0)).toBe(true);
    expect(table.some((line) => line.startsWith("| admission (API key, rate limit, CORS) |"))).toBe(true);
    valuesOf("**total, profiled**").forEach((total, column) => {
      const sum = parts.reduce((added, row) => added + row[column], 0);
      expect(total).toBeGreaterThan(0);
      // Each cell is rounded to the µs.
      expect(Math.abs(sum - total)).toBeLessThanOrEqual(parts.length);
    });
    expect(valuesOf("requests profiled").every((requests) => requests > 0)).toBe(true);
    // The growth from 2k to the largest network is checked for every scenario measured in both.
    for (const kind of ["create", "dutytime toggle", "statistics/files/total", "GraphQL list page", "get by id"]) {
      expect(report).toMatch(new RegExp(`: ${kind}: p50 grows at most 2x from 2k to the largest network \\([\\d.]+ -> [\\d.]+ ms`));
    }
  },
  // Not a speed check: room for a busy 2-core CI machine running other test files beside it.
  420_000,
);

// On both databases: the floor has a store per database, and it takes seconds (its own small
// seed, copied for each server; PostgreSQL: bench_* databases on TEST_DATABASE_URL's server).
sqliteOnly("bench/pair.ts runs two builds side by side and gives each one's CPU per request", async () => {
  const run = promisify(execFile);
  if (!fs.existsSync(path.join(repoRoot, "dist", "main.js"))) await run("npm", ["run", "--silent", "build"], { cwd: repoRoot });
  const service = await startService();
  try {
    const network = await service.network();
    expect((await client(service.url, network.apiKey).post("/vehicles", { plate: "PAIR-1" })).status).toBe(201);
    const args = ["--a", "dist", "--b", "dist", "--database-url", service.databaseUrl, "--key", network.apiKey, "--path", "/vehicles"];
    // b's node flags are b's alone: a module each process that loads it names in a file.
    const marks = temporaryDir("pair-flags-");
    fs.writeFileSync(path.join(marks, "mark.cjs"), `require("node:fs").writeFileSync(${JSON.stringify(marks)} + "/" + process.pid, "");`);
    const bFlags = ["--b-node-flags", `--require=${path.join(marks, "mark.cjs")}`];
    const { stdout } = await run(process.execPath, ["--import", "tsx", "bench/pair.ts", ...args, ...bFlags, "--rate", "100", "--seconds", "1", "--rounds", "2"], { cwd: repoRoot });
    const marked = fs.readdirSync(marks).filter((name) => name !== "mark.cjs");
    fs.rmSync(marks, { recursive: true, force: true });
    expect(marked).toHaveLength(1);
    expect(stdout).toMatch(/^round 1 \(warm-up\): a \d+ us\/request, b \d+ us\/request, b\/a \d\.\d{3}$/m);
    expect(stdout).toMatch(/^round 2: a \d+ us\/request, b \d+ us\/request, b\/a \d\.\d{3}$/m);
    expect(stdout).toMatch(/^b\/a CPU per request, mean of 1 rounds: \d\.\d{3}/m);
    // Writes: the body is sent as JSON, each [<id>] a new id per request; b writes into a copy of its own.
    const copy = `${service.databaseUrl.replace(/^file:/, "")}.b.db`;
    new Database(service.databaseUrl.replace(/^file:/, "")).exec(`VACUUM INTO '${copy}'`);
    const body = JSON.stringify({ plate: "PAIR-2", owner: benchOwner, comment: "pair [<id>]" });
    const posting = ["--method", "POST", "--body", body, "--b-database-url", `file:${copy}`, "--rate", "100", "--seconds", "1", "--rounds", "2"];
    const posted = await run(process.execPath, ["--import", "tsx", "bench/pair.ts", ...args, ...posting], { cwd: repoRoot });
    expect(posted.stdout).toMatch(/^b\/a CPU per request, mean of 1 rounds: \d\.\d{3}/m);
    const page = await client(service.url, network.apiKey).get("/vehicles?search=PAIR-2&per_page=100");
    const comments: string[] = page.body.data.map((vehicle: { comment: string }) => vehicle.comment);
    expect(comments.length).toBeGreaterThan(20);
    expect(comments.every((comment) => /^pair \S+$/.test(comment) && !comment.includes("[<id>]"))).toBe(true);
    expect(new Set(comments).size).toBe(comments.length);
    // b's writes went to its copy.
    const inCopy = new Database(copy).prepare("SELECT COUNT(*) AS n FROM vehicles WHERE plate = 'PAIR-2'").get() as { n: number };
    expect(inCopy.n).toBeGreaterThan(20);
    for (const file of [copy, `${copy}-wal`, `${copy}-shm`]) fs.rmSync(file, { force: true });
  } finally {
    await service.close();
  }
}, 120_000);

test("the floor answers every probe of bench/check-floor.ts like the service", async () => {
  const args = ["--import", "tsx", "bench/check-floor.ts"];
  if (testProvider === "postgresql") args.push("--postgres-url", process.env.TEST_DATABASE_URL!);
  const run = await promisify(execFile)(process.execPath, args, { cwd: repoRoot, maxBuffer: 20 * 1024 * 1024 }).catch(
    // A difference exits 1: its DIFF lines, with both answers, are the failure's message.
    (error: { stdout?: string; stderr?: string }) => {
      const differences = (error.stdout ?? "").split("\n").filter((line) => !line.startsWith("same "));
      throw new Error(`bench/check-floor.ts failed:\n${differences.join("\n")}\n${error.stderr ?? ""}`);
    },
  );
  expect(run.stdout).not.toContain("DIFF");
  // Every probe answered alike (40 when written: lists, searches, writes, dutytime, reports).
  const [, count] = /^all (\d+) responses are the same$/m.exec(run.stdout) ?? [];
  expect(Number(count)).toBeGreaterThanOrEqual(40);
}, 120_000);

const postgresOnly = testProvider === "postgresql" ? test : test.skip;

// bench/pgRows.ts (pg's internals against its public API, docs/performance.md) runs, and its
// public-API variant reads what the service's reads read, value and type (checked before it
// measures: a difference exits 1).
postgresOnly("bench/pgRows.ts measures every scenario on both read paths", async () => {
  const args = ["--import", "tsx", "bench/pgRows.ts", "--postgres-url", process.env.TEST_DATABASE_URL!];
  const run = await promisify(execFile)(process.execPath, [...args, "--rounds", "1", "--warmup", "0", "--ops-scale", "0.05", "--in-flight", "2"], {
    cwd: repoRoot,
    maxBuffer: 20 * 1024 * 1024,
  });
  const rows = run.stdout.split("\n").filter((line) => /^(GET|read:) /.test(line));
  expect(rows).toHaveLength(7);
  for (const row of rows) expect(row.trim().split(/\s{2,}/).slice(1)).toEqual(Array.from({ length: 6 }, () => expect.stringMatching(/^\d+\.\d+$/)));
}, 120_000);

postgresOnly("the results name the PostgreSQL server's version and memory settings", async () => {
  const fresh = await freshDatabase("postgresql");
  try {
    expect(await serverSettings(fresh.url)).toMatch(/^PostgreSQL \d+(\.\d+)?, shared_buffers \d+[kMG]B, huge_pages (on|off|try)$/);
  } finally {
    await fresh.drop();
  }
});

test("a SQLite database has no server settings to name", async () => {
  expect(await serverSettings("file:bench.db")).toBeNull();
});

test("--only picks the scenarios whose name contains one of its parts", () => {
  const named = (name: string): Scenario => ({ name, network: "largest", requests: {} });
  const all = ["list page (largest)", "get by id (largest)", "get by id (2k)", "create"].map(named);
  const names = (only: string | undefined) => scenariosNamed(all, only).map((scenario) => scenario.name);
  expect(names("get by id,create")).toEqual(["get by id (largest)", "get by id (2k)", "create"]);
  expect(names("(2k)")).toEqual(["get by id (2k)"]);
  expect(names(undefined)).toHaveLength(4);
  expect(names("nothing like it")).toEqual([]);
});

test("latency percentiles are nearest-rank, to the hundredth of a millisecond", () => {
  const latencies = Array.from({ length: 200 }, (_, i) => (200 - i) * 0.01234);
  expect(percentile(latencies, 50)).toBe(1.23);
  expect(percentile(latencies, 99)).toBe(2.44);
  expect(percentile([0.4], 99)).toBe(0.4);
  expect(percentile([], 50)).toBe(0);
});

test("--rounds measures the servers in turn, then in the reverse order, round after round", () => {
  expect(measuringOrder(["service", "floor", "platformatic"], 4)).toEqual([
    ...["service", "floor", "platformatic"],
    ...["platformatic", "floor", "service"],
    ...["service", "floor", "platformatic"],
    ...["platformatic", "floor", "service"],
  ]);
  expect(measuringOrder(["service", "floor"], 1)).toEqual(["service", "floor"]);
  expect(measuringOrder(["service"], 3)).toEqual(["service", "service", "service"]);
});

test("a run with maxRequests stops once it has sent them, and the next run numbers on from there", async () => {
  const paths: string[] = [];
  const server = http.createServer((request, response) => {
    paths.push(request.url ?? "");
    setTimeout(() => response.end("{}"), 2);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const request = { method: "GET" as const, path: (i: number) => `/term/${i}` };
    const first = await measure(url, "key", request, { connections: 2, durationSeconds: 20, maxRequests: 40 });
    // Far sooner than its 20 s, and timed to its last answer (20 answers per connection, 2 ms
    // each: well under autocannon's whole second).
    expect(first.seconds).toBeGreaterThan(0.03);
    expect(first.seconds).toBeLessThan(0.8);
    expect(first.issued).toBe(40);
    expect(first.requests).toBe(40);
    const second = await measure(url, "key", request, { connections: 2, durationSeconds: 20, firstIndex: first.issued, maxRequests: 40 });
    expect(second.issued).toBe(40);
    expect(paths).toHaveLength(80);
    // No path was asked twice across both runs.
    expect(new Set(paths).size).toBe(paths.length);
    expect(paths).toContain(`/term/${first.issued}`);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});

// Takes ~12 s and no database: run once.
const withoutDatabase = testProvider === "sqlite" ? test : test.skip;

withoutDatabase("a server is warmed up for its seconds and on until it has answered the warm-up's requests, within five times its seconds", async () => {
  // A server answering in 20 ms on 2 connections: ~100 answers a second (autocannon runs whole seconds).
  const server = http.createServer((_request, response) => void setTimeout(() => response.end("{}"), 20));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let answered = 0;
  server.on("request", () => (answered += 1));
  const request = { method: "GET" as const, path: (i: number) => `/vehicles/${i}` };
  /** The answers and seconds of the warm-up: what the server had answered when the first slice waits for quiet. */
  const warmup = async (warmupRequests: number) => {
    answered = 0;
    let warmed: { answers: number; seconds: number } | null = null;
    const started = performance.now();
    const quiet = { wait: async () => void (warmed ??= { answers: answered, seconds: (performance.now() - started) / 1000 }), close: async () => undefined };
    const settings = { connections: 2, durationSeconds: 1, rounds: 1, warmupSeconds: 1, warmupRequests };
    await measureSideBySide([{ name: "server", url, request }], "key", settings, quiet);
    return warmed!;
  };
  try {
    const onlySeconds = await warmup(0);
    expect(onlySeconds.answers).toBeLessThan(150);
    expect(onlySeconds.seconds).toBeLessThan(2);
    const toRequests = await warmup(250);
    expect(toRequests.answers).toBeGreaterThanOrEqual(250);
    expect(toRequests.answers).toBeLessThan(260);
    const capped = await warmup(1_000_000);
    expect(capped.seconds).toBeGreaterThanOrEqual(maxWarmupFactor * 0.9);
    expect(capped.seconds).toBeLessThan(maxWarmupFactor + 1.5);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});

withoutDatabase("a scenario of distinct requests is warmed up on its warm-up requests only, and without them not at all", async () => {
  const paths: string[] = [];
  const server = http.createServer((request, response) => {
    paths.push(request.url!);
    response.end("{}");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  /** The paths asked before the first slice waits for quiet (the warm-up), and after it (the slices). */
  const run = async (request: Parameters<typeof measureSideBySide>[0][number]["request"]) => {
    paths.length = 0;
    let warmedUp: string[] | null = null;
    const quiet = { wait: async () => void (warmedUp ??= [...paths]), close: async () => undefined };
    const settings = { connections: 2, durationSeconds: 1, rounds: 1, warmupSeconds: 0.5, warmupRequests: 0 };
    await measureSideBySide([{ name: "server", url, request }], "key", settings, quiet);
    return { warmup: warmedUp!, measured: paths.slice(warmedUp!.length) };
  };
  try {
    const measuredPath = (i: number) => `/measured/${i}`;
    const warmed = await run({ method: "GET", path: measuredPath, distinct: 50, warmup: { method: "GET", path: (i) => `/warmup/${i}` } });
    expect(warmed.warmup.length).toBeGreaterThan(0);
    expect(warmed.warmup.every((asked) => asked.startsWith("/warmup/"))).toBe(true);
    // The slices ask their own paths (a warm-up's last answers may still arrive as they start).
    const measured = warmed.measured.filter((asked) => !asked.startsWith("/warmup/"));
    expect(measured.length).toBeGreaterThan(0);
    expect(measured.every((asked) => asked.startsWith("/measured/"))).toBe(true);
    const unwarmed = await run({ method: "GET", path: measuredPath, distinct: 50 });
    expect(unwarmed.warmup).toEqual([]);
    expect(unwarmed.measured.length).toBeGreaterThan(0);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});

test("every scenario's warm-up requests repeat none of its measured ones", () => {
  const key = (networkId: number) => ({ networkId, vehicles: 10, apiKey: `key-${networkId}`, officers: ["1"] });
  const fixture = {
    keys: { largest: key(1), reference: key(2), small: key(3), history10x: key(4) },
    vehicleIds: { largest: [1, 2], reference: [3], small: [4] },
    searchTerm: "Max",
    reportsUntil: new Date("2026-12-01T00:00:00Z"),
  };
  const warmed = scenarios(fixture).flatMap((scenario) =>
    Object.values(scenario.requests).flatMap((request) => (request?.distinct && request.warmup ? [{ scenario, request, warmup: request.warmup }] : [])),
  );
  // The new ranges of the largest network and of history10x, for the service and the floor.
  expect(warmed.length).toBeGreaterThanOrEqual(6);
  for (const { request, warmup } of warmed) {
    const measured = new Set(Array.from({ length: request.distinct! }, (_, i) => request.path(i)));
    // A warm-up goes on to 10,000 answers by default; more than that is checked.
    for (let i = 0; i < 20_000; i++) expect(measured.has(warmup.path(i))).toBe(false);
  }
});

test("the vehicles a create scenario wrote are removed afterwards, in its network only, and the network's total follows", async () => {
  const service = await startService();
  try {
    const network = await service.network();
    const other = await service.network();
    const api = client(service.url, network.apiKey);
    const otherApi = client(service.url, other.apiKey);
    for (const [who, plate, owner] of [
      [api, "BN-1000", benchOwner],
      [api, "BN-1001", benchOwner],
      [api, "KA-1", "Erika Musterfrau"],
      [otherApi, "BN-1000", benchOwner],
    ] as const) {
      expect((await who.post("/vehicles", { plate, owner })).status).toBe(201);
    }
    expect(await removeCreatedVehicles(service.db.url, network.id, benchOwner)).toBe(2);
    const left = await api.get("/vehicles");
    expect(left.body.data.map((vehicle: { plate: string }) => vehicle.plate)).toEqual(["KA-1"]);
    expect(left.body.meta.total).toBe(1);
    expect((await otherApi.get("/vehicles")).body.meta.total).toBe(1);
  } finally {
    await service.close();
  }
});
