// The benchmark: seeds a database, then measures the service, the floor and Platformatic DB on
// the same data, one server at a time, and prints (and writes) a markdown table.
//   npm run bench -- [--database sqlite|postgresql] [--size full|small] [--duration 10] [--connections 10]
//                    [--postgres-url URL] [--seeded-url URL --keys FILE] [--targets service,floor,platformatic]
//                    [--only NAME,...] (scenarios whose name contains one of these; all by default)
//                    [--rounds 4]   (each scenario's time in that many slices per server, alternating order)
//                    [--warmup S]   (seconds of unmeasured load per server before each scenario; default
//                                    one slice, at most 2; 0 for none)
//                    [--out FILE]   (default bench/results/<database>-<size>.md)
// PostgreSQL needs --postgres-url (or BENCH_DATABASE_URL): a server where the role may create databases.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { execFileSync } from "node:child_process";
import { parseFlags, runMain, UsageError } from "./lib/args";
import { createDatabase, removeCreatedVehicles, restoreToggledDutytime, serverSettings } from "./lib/databases";
import { sqliteFilePath } from "../src/db/client";
import { repoRoot, runScript } from "./lib/processes";
import { networkKey, type BenchKeys } from "./seed/keysFile";
import { measure, summarize, type LoadSample, type Measurement } from "./load/measure";
import { watchServers } from "./load/quiet";
import { measuringOrder } from "./load/rounds";
import { markdown, type BenchResults } from "./load/report";
import { benchOwner, scenarios as allScenarios, scenariosNamed, type Fixture } from "./load/scenarios";
import { platformaticInstalled, startTarget, type RunningTarget, type TargetName } from "./load/targets";

const hourMs = 3_600_000;

async function fixtureOf(serviceUrl: string, keys: BenchKeys): Promise<Fixture> {
  const page = async (role: "largest" | "reference") => {
    const response = await fetch(`${serviceUrl}/vehicles?per_page=100`, { headers: { "x-api-key": keys[role].apiKey } });
    if (!response.ok) throw new Error(`fixture: GET /vehicles answered ${response.status}`);
    return ((await response.json()) as { data: { id: number; owner: string | null }[] }).data;
  };
  const largest = await page("largest");
  const owner = largest.find((vehicle) => vehicle.owner)?.owner ?? "a";
  return {
    keys,
    vehicleIds: { largest: largest.map((v) => v.id), reference: (await page("reference")).map((v) => v.id), small: [] },
    // A surname: common enough to fill a page, rare enough to be a real search.
    searchTerm: owner.split(" ").pop()!.toLowerCase(),
    reportsUntil: new Date(Math.floor((keys.seededAt ? Date.parse(keys.seededAt) : Date.now()) / hourMs) * hourMs),
  };
}

async function main() {
  const flags = parseFlags(process.argv.slice(2), {
    database: "string",
    size: "string",
    duration: "integer",
    connections: "integer",
    "postgres-url": "string",
    "seeded-url": "string",
    keys: "string",
    targets: "string",
    out: "string",
    only: "string",
    rounds: "integer",
    warmup: "number",
  });
  const database = (flags.database as string) ?? "sqlite";
  const size = (flags.size as string) ?? "full";
  const durationSeconds = (flags.duration as number) ?? 10;
  const connections = (flags.connections as number) ?? 10;
  const rounds = (flags.rounds as number) ?? 4;
  if (rounds < 1) throw new UsageError("--rounds must be at least 1");
  const warmupSeconds = (flags.warmup as number) ?? Math.min(2, durationSeconds / rounds);
  if (warmupSeconds < 0) throw new UsageError("--warmup must not be negative");
  const wanted = ((flags.targets as string) ?? "service,floor,platformatic").split(",") as TargetName[];
  const targets = wanted.filter((name) => name !== "platformatic" || platformaticInstalled());
  if (targets.length < wanted.length) console.error("Platformatic is not installed (npm ci in bench/peers): its column stays n/a.");

  execFileSync(process.execPath, ["scripts/build.mjs"], { cwd: repoRoot, stdio: "inherit" });

  // A SQLite file named relative to here: the servers run in other folders (Platformatic's in bench/peers).
  const seededUrl = flags["seeded-url"] as string | undefined;
  let databaseUrl = seededUrl?.startsWith("file:") ? `file:${sqliteFilePath(seededUrl)}` : seededUrl;
  let keysFile = flags.keys as string | undefined;
  let drop = async () => {};
  if (!databaseUrl || !keysFile) {
    const postgresUrl = database === "postgresql" ? ((flags["postgres-url"] as string) ?? process.env.BENCH_DATABASE_URL) : null;
    if (database === "postgresql" && !postgresUrl) throw new Error("--postgres-url (or BENCH_DATABASE_URL) is required for PostgreSQL");
    const created = await createDatabase(postgresUrl ?? null);
    databaseUrl = created.url;
    drop = created.drop;
    keysFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "vrd-bench-keys-")), "keys.json");
    console.error(`seeding ${database} (${size}) ...`);
    await runScript(["bench/seed.ts", ...(size === "small" ? ["--small"] : []), "--database-url", databaseUrl, "--keys-out", keysFile], { verbose: true });
  }
  const keys = JSON.parse(fs.readFileSync(keysFile, "utf8")) as BenchKeys;

  const server = await serverSettings(databaseUrl);
  const run: BenchResults = { database, size, connections, durationSeconds, rounds, warmupSeconds, server, scenarios: [], results: {}, peakRssMb: {} };
  // All servers run side by side, idle but one. Each scenario measures them in rounds, one after
  // another and then in the reverse order (bench/load/rounds.ts). Each run waits until the work
  // left from the one before (slow searches of the floor and Platformatic) is done.
  const running: RunningTarget[] = [];
  try {
    let port = 4600;
    for (const name of targets) running.push(await startTarget(name, databaseUrl, port++));
    run.scenarios = scenariosNamed(allScenarios(await fixtureOf(running[0].url, keys)), flags.only as string | undefined);
    const quiet = await watchServers(
      running.map((target) => target.pid),
      databaseUrl.startsWith("postgres") ? databaseUrl : null,
    );
    for (const scenario of run.scenarios) {
      const network = networkKey(keys, scenario.network);
      const measured = running.filter((target) => scenario.requests[target.name]);
      // Before its first request: what a toggle scenario wrote from here on is undone after it.
      const started = new Date();
      // Warm-up on the scenario's own requests, so the JIT has compiled each server's code for
      // them before the first slice: the service's path through GraphQL took ~5 s of load to
      // reach its speed (a get by id's first 2.5 s slice cost ~15% more CPU per request than
      // its later ones), the floor's few functions a fraction of a second. A scenario of
      // distinct requests is not warmed (its requests would be repeats when measured); the
      // scenario before it runs the same code.
      for (const target of warmupSeconds > 0 ? measured : []) {
        const request = scenario.requests[target.name]!;
        if (request.distinct) continue;
        // No wait for quiet here: work left over from a warm-up only overlaps another warm-up.
        await measure(target.url, network.apiKey, request, { connections, durationSeconds: warmupSeconds });
      }
      const samples = new Map<TargetName, LoadSample[]>(measured.map((target) => [target.name, []]));
      for (const target of measuringOrder(measured, rounds)) {
        const taken = samples.get(target.name)!;
        const request = scenario.requests[target.name]!;
        const firstIndex = taken.reduce((sum, sample) => sum + sample.issued, 0);
        // Each slice sends at most its share of the distinct requests.
        const maxRequests = request.distinct && Math.max(connections, Math.floor(request.distinct / rounds));
        const options = { connections, durationSeconds: durationSeconds / rounds, firstIndex, maxRequests };
        await quiet.wait();
        taken.push(await measure(target.url, network.apiKey, request, options));
      }
      if (scenario.createsVehicles) {
        await quiet.wait();
        const removed = await removeCreatedVehicles(databaseUrl, network.networkId, benchOwner);
        console.error(`removed the ${removed} vehicles ${scenario.name} wrote`);
      }
      if (scenario.togglesDutytime) {
        await quiet.wait();
        const removed = await restoreToggledDutytime(databaseUrl, network.networkId, started);
        console.error(`removed the ${removed} dutytime entries ${scenario.name} started, reopened those it stopped`);
      }
      for (const target of measured) {
        const result: Measurement = summarize(samples.get(target.name)!);
        (run.results[scenario.name] ??= {})[target.name] = result;
        console.error(`${target.name.padEnd(12)} ${scenario.name.padEnd(32)} ${result.requestsPerSecond} req/s  p50 ${result.p50Ms} ms  p99 ${result.p99Ms} ms${result.failures ? `  ${result.failures} FAILED` : ""}`);
      }
    }
    await quiet.close();
    for (const target of running) run.peakRssMb[target.name] = target.peakRssMb();
  } finally {
    await Promise.all(running.map((target) => target.stop()));
    if (!flags["seeded-url"]) await drop();
  }

  const report = markdown(run);
  const out = (flags.out as string) ?? path.join(repoRoot, "bench", "results", `${database}-${size}.md`);
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, report);
  process.stdout.write(report);
  console.error(`written to ${path.relative(repoRoot, out)}`);
}

runMain(main);
