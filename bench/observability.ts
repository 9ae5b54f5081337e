// The cost of the service's request log and metrics: the service as `npm start` runs it, three
// times on the same seeded database, side by side: observed (a log line per request, metrics
// counted), unobserved, and an unobserved twin that shows the bench's own noise
// (bench/observability/variants.ts). Each scenario measures them in alternating slices, as the
// main bench measures its servers (bench/load/slices.ts); then the observed
// one's /metrics is read once, to show it counted. Prints (and writes) a markdown table.
//   npm run bench:observability -- [--database sqlite|postgresql] [--size full|small] [--duration 10] [--connections 10]
//                                  [--postgres-url URL] [--seeded-url URL --keys FILE]
//                                  [--only NAME,...] (of the scenarios below; all by default)
//                                  [--rounds 4] [--warmup S] (as in bench/run.ts)
//                                  [--out FILE]   (default bench/results/observability-<database>.md)
import fs from "node:fs";
import path from "node:path";
import { execFileSync } from "node:child_process";
import { parseFlags, runMain } from "./lib/args";
import { serverSettings, warmSqliteFiles } from "./lib/databases";
import { repoRoot } from "./lib/processes";
import { databaseFlags, seededDatabaseOf } from "./lib/seededDatabase";
import { networkKey } from "./seed/keysFile";
import { fixtureOf } from "./load/fixture";
import { progressLine } from "./load/report";
import { watchServers } from "./load/quiet";
import { scenarios as allScenarios, scenariosNamed } from "./load/scenarios";
import { measureSideBySide, sliceFlags, sliceSettingsOf } from "./load/slices";
import { startTarget, type RunningTarget } from "./load/targets";
import { markdown, type ObservabilityResults } from "./observability/report";
import { countedRequests, metricsUrlIn } from "./observability/requestCount";
import { variantNames, variants, type VariantName } from "./observability/variants";

/** The criterion's reads: a vehicle and the default page, in the largest network and in the one of 2,000. */
const measuredScenarios = ["get by id (largest)", "list page (largest)", "get by id (2k)", "list page (2k)"];

async function main() {
  const flags = parseFlags(process.argv.slice(2), { ...databaseFlags, ...sliceFlags, out: "string", only: "string" });
  const slices = sliceSettingsOf(flags);

  execFileSync(process.execPath, ["scripts/build.mjs"], { cwd: repoRoot, stdio: "inherit" });

  const seeded = await seededDatabaseOf(flags);
  const { database, size, url: databaseUrl, keys } = seeded;
  const run: ObservabilityResults = { database, size, ...slices, server: (await serverSettings(databaseUrl)) ?? warmSqliteFiles(databaseUrl), scenarios: [], results: {}, peakRssMb: {}, countedRequests: 0 };
  const running = new Map<VariantName, RunningTarget>();
  try {
    // Port 0: free ports, which the start lines name (the main bench's smoke test may run beside this one's).
    for (const name of variantNames) running.set(name, await startTarget("service", databaseUrl, 0, variants[name].env));
    const observed = running.get("observed")!;
    const unobserved = running.get("unobserved")!;
    // The fixture's requests go to the unobserved one: all the observed one counts is the load.
    const fixture = await fixtureOf(unobserved.url, keys);
    const chosen = allScenarios(fixture).filter((scenario) => measuredScenarios.includes(scenario.name));
    const scenarios = scenariosNamed(chosen, flags.only as string | undefined);
    run.scenarios = scenarios.map((scenario) => scenario.name);
    const quiet = await watchServers([...running.values()].map((target) => target.pid), databaseUrl.startsWith("postgres") ? databaseUrl : null);
    for (const scenario of scenarios) {
      const contestants = variantNames.map((name) => ({ name, url: running.get(name)!.url, request: scenario.requests.service!, pid: running.get(name)!.pid }));
      const results = await measureSideBySide(contestants, networkKey(keys, scenario.network).apiKey, slices, quiet);
      run.results[scenario.name] = Object.fromEntries(results);
      for (const [name, result] of results) {
        console.error(progressLine(name, scenario.name, result));
      }
    }
    await quiet.close();
    run.countedRequests = await countedRequests(metricsUrlIn(observed.startOutput));
    for (const [name, target] of running) run.peakRssMb[name] = target.peakRssMb();
  } finally {
    await Promise.all([...running.values()].map((target) => target.stop()));
    await seeded.drop();
  }

  const report = markdown(run);
  const out = (flags.out as string) ?? path.join(repoRoot, "bench", "results", `observability-${database}.md`);
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, report);
  process.stdout.write(report);
  console.error(`written to ${path.relative(repoRoot, out)}`);
}

runMain(main);
