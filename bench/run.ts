// The benchmark: seeds a database, then measures the service, the floor and the peers (Platformatic
// DB; PostGraphile on PostgreSQL only) on the same data, one server at a time, and prints (and
// writes) a markdown table.
//   npm run bench -- [--database sqlite|postgresql] [--size full|small] [--duration 10] [--connections 10]
//                    [--postgres-url URL] [--seeded-url URL --keys FILE]
//                    [--targets service,floor,platformatic,postgraphile] (the default; also release)
//                    [--only NAME,...] (scenarios whose name contains one of these; all by default)
//                    [--rounds 4]   (each scenario's time in that many slices per server, alternating order)
//                    [--warmup S]   (seconds of unmeasured load per server before each scenario; default
//                                    one slice, at most 2; 0 for none)
//                    [--warmup-requests N] (and on until N answers, 5x S at most; default 10000; 0: S only)
//                    [--out FILE]   (default bench/results/<database>-<size>.md)
//                    [--layers=false] (skips the in-process part: CPU per request by layer, bench/layers/)
// PostgreSQL needs --postgres-url (or BENCH_DATABASE_URL): a server where the role may create databases.
// BENCH_SERVER_LOGS=DIR keeps each server's output in DIR/<target>.log (bench/load/targets.ts).
import fs from "node:fs";
import path from "node:path";
import { execFileSync } from "node:child_process";
import { parseFlags, runMain, UsageError } from "./lib/args";
import { removeCreatedVehicles, restoreToggledDutytime, serverSettings, warmSqliteFiles } from "./lib/databases";
import { repoRoot } from "./lib/processes";
import { databaseFlags, seededDatabaseOf } from "./lib/seededDatabase";
import { layerScenarioNames, layerTable, measureLayers } from "./layers/measure";
import { networkKey } from "./seed/keysFile";
import { fixtureOf } from "./load/fixture";
import { watchServers } from "./load/quiet";
import { markdown, progressLine, type BenchResults } from "./load/report";
import { benchOwner, requestOf, scenarios as allScenarios, scenariosNamed } from "./load/scenarios";
import { measureSideBySide, sliceFlags, sliceSettingsOf } from "./load/slices";
import { isPeer, peers, startTarget, targetNames, type Peer, type RunningTarget, type TargetName } from "./load/targets";

const isTarget = (name: string): name is TargetName => (targetNames as readonly string[]).includes(name);

/** The targets but the peers `skip` picks, each named on stderr with `why`. */
function without(targets: TargetName[], skip: (peer: Peer) => boolean, why: string): TargetName[] {
  return targets.filter((name) => {
    if (!isPeer(name) || !skip(peers[name])) return true;
    console.error(`${peers[name].label} ${why}`);
    return false;
  });
}

async function main() {
  const flags = parseFlags(process.argv.slice(2), { ...databaseFlags, ...sliceFlags, targets: "string", out: "string", only: "string", layers: "boolean" });
  const slices = sliceSettingsOf(flags);
  const named = (flags.targets as string | undefined)?.split(",") ?? targetNames.filter((name) => name !== "release");
  const unknown = named.filter((name) => !isTarget(name));
  if (unknown.length > 0) throw new UsageError(`unknown --targets ${unknown.join(", ")} (known: ${targetNames.join(", ")})`);
  let targets = without(named.filter(isTarget), (peer) => !peer.installed(), "is not installed (npm ci in bench/peers): its column stays n/a.");

  execFileSync(process.execPath, ["scripts/build.mjs"], { cwd: repoRoot, stdio: "inherit" });

  const seeded = await seededDatabaseOf(flags);
  const { database, size, url: databaseUrl, keys } = seeded;
  if (!databaseUrl.startsWith("postgres")) {
    targets = without(targets, (peer) => peer.postgresOnly, "runs on PostgreSQL only: not measured on SQLite, its column is left out.");
  }
  const server = (await serverSettings(databaseUrl)) ?? warmSqliteFiles(databaseUrl);
  const run: BenchResults = { database, size, ...slices, server, scenarios: [], results: {}, peakRssMb: {} };
  // All servers run side by side, idle but one. Each scenario measures them in rounds, one after
  // another and then in the reverse order (bench/load/slices.ts). Each run waits until the work
  // left from the one before (slow searches of the floor and the peers) is done.
  const running: RunningTarget[] = [];
  let port = 4600;
  let layers = "";
  try {
    for (const name of targets) running.push(await startTarget(name, databaseUrl, port++));
    run.scenarios = scenariosNamed(allScenarios(await fixtureOf(running[0].url, keys)), flags.only as string | undefined);
    const quiet = await watchServers(
      running.map((target) => target.pid),
      databaseUrl.startsWith("postgres") ? databaseUrl : null,
    );
    for (const scenario of run.scenarios) {
      const network = networkKey(keys, scenario.network);
      const measured = running.filter((target) => requestOf(scenario, target.name));
      // Before its first request: what a toggle scenario wrote from here on is undone after it.
      const started = new Date();
      const contestants = measured.map((target) => ({ name: target.name, url: target.url, request: requestOf(scenario, target.name)! }));
      const results = await measureSideBySide(contestants, network.apiKey, slices, quiet);
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
      for (const [name, result] of results) {
        (run.results[scenario.name] ??= {})[name] = result;
        console.error(progressLine(name, scenario.name, result));
      }
      // Which scenario raises a server's peak: the peak so far, after each.
      console.error(`peak RSS so far: ${measured.map((target) => `${target.name} ${target.peakRssMb()} MB`).join(", ")}`);
    }
    await quiet.close();
    for (const target of running) run.peakRssMb[target.name] = target.peakRssMb();
    // The in-process part, alone on the database: the servers above stop first.
    const layerScenarios = run.scenarios.filter((scenario) => layerScenarioNames.includes(scenario.name));
    if (flags.layers !== false && layerScenarios.length > 0) {
      await Promise.all(running.map((target) => target.stop()));
      const settings = { ...slices, intervalUs: 200 };
      layers = layerTable(await measureLayers(databaseUrl, keys, layerScenarios, settings, port), settings);
    }
  } finally {
    await Promise.all(running.map((target) => target.stop()));
    await seeded.drop();
  }

  const report = layers ? `${markdown(run)}\n${layers}` : markdown(run);
  const out = (flags.out as string) ?? path.join(repoRoot, "bench", "results", `${database}-${size}.md`);
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, report);
  process.stdout.write(report);
  console.error(`written to ${path.relative(repoRoot, out)}`);
}

runMain(main);
