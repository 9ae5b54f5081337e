// The results as a markdown table, with the issue's targets checked against them.
import os from "node:os";
import type { Measurement } from "./measure";
import { newRangeScenario, newTerms, type Scenario } from "./scenarios";
import { warmupText, type SliceSettings } from "./slices";
import { isPeer, peerNames, peers, type PeerName, type TargetName } from "./targets";

export interface BenchResults extends SliceSettings {
  database: string;
  size: string;
  /** The database server and its memory settings (PostgreSQL), or null. */
  server: string | null;
  scenarios: Scenario[];
  results: Record<string, Partial<Record<TargetName, Measurement>>>;
  peakRssMb: Partial<Record<TargetName, number>>;
}

/** A column's name: the peer's label, or the target's own name. */
const label = (target: TargetName) => (isPeer(target) ? peers[target].label : target);

/**
 * The peers with columns in a run's table: each, but a PostgreSQL-only one in a SQLite run that
 * did not measure it (an n/a column would say nothing there).
 */
const peersOf = (run: BenchResults): PeerName[] =>
  peerNames.filter(
    (peer) => !peers[peer].postgresOnly || run.database === "postgresql" || Object.values(run.results).some((measured) => measured[peer]),
  );

/** A measurement's req/s (with its failures), p50 and p99 as three table cells. */
export const cell = (m: Measurement | undefined) =>
  m ? `${m.requestsPerSecond}${m.failures ? ` (${m.failures} failed)` : ""} | ${m.p50Ms} | ${m.p99Ms}` : "n/a | | ";

/** a's req/s over b's, as `0.97x`. */
export const ratio = (a: Measurement | undefined, b: Measurement | undefined) =>
  a && b && b.requestsPerSecond > 0 ? `${(a.requestsPerSecond / b.requestsPerSecond).toFixed(2)}x` : "n/a";

function checks(run: BenchResults): string[] {
  const r = run.results;
  const lines: string[] = [];
  const check = (ok: boolean | null, text: string) => lines.push(`- ${ok === null ? "n/a" : ok ? "met" : "NOT met"}: ${text}`);
  const rps = (scenario: string, target: TargetName) => r[scenario]?.[target]?.requestsPerSecond;
  const atLeast = (scenario: string, target: TargetName, factor: number) => {
    const service = rps(scenario, "service");
    const other = rps(scenario, target);
    return service === undefined || other === undefined ? null : service >= factor * other;
  };
  for (const scenario of ["list page (largest)", "get by id (largest)"]) {
    check(atLeast(scenario, "floor", 0.5), `${scenario}: service >= 0.5x floor (${ratio(r[scenario]?.service, r[scenario]?.floor)})`);
    check(atLeast(scenario, "platformatic", 1.5), `${scenario}: service >= 1.5x Platformatic (${ratio(r[scenario]?.service, r[scenario]?.platformatic)})`);
  }
  const gql = "GraphQL list page (largest)";
  check(atLeast(gql, "floor", 0.5), `GraphQL list: service >= 0.5x the floor's list (${ratio(r[gql]?.service, r[gql]?.floor)})`);
  // The benchmark issue's latency targets: the search and the default list of the largest network.
  for (const scenario of ["search (largest)", "list page (largest)"]) {
    const m = r[scenario]?.service;
    check(m ? m.p50Ms < 5 && m.p99Ms < 20 : null, `${scenario}: p50 < 5 ms and p99 < 20 ms (${m ? `${m.p50Ms} / ${m.p99Ms} ms` : "n/a"})`);
  }
  // Our own stretch, beyond the benchmark issue: the same latency for a search whose total is not
  // kept yet. It takes about 1 ms of CPU per request in one process, so at 10 connections its
  // p50 follows the machine's speed (met on a fast day, missed by the floor too on a slow one):
  // reported, not a target.
  const newTerm = "search, new term each request (largest)";
  const fresh = r[newTerm]?.service;
  lines.push(
    `- stretch ${fresh ? (fresh.p50Ms < 5 && fresh.p99Ms < 20 ? "met" : "not met") : "n/a"}: ${newTerm}: p50 < 5 ms and p99 < 20 ms (${fresh ? `${fresh.p50Ms} / ${fresh.p99Ms} ms` : "n/a"}; the floor: ${r[newTerm]?.floor ? `${r[newTerm]!.floor!.p50Ms} / ${r[newTerm]!.floor!.p99Ms} ms` : "n/a"})`,
  );
  // Every scenario measured in both networks (the issue: latency of every scenario).
  const kinds = run.scenarios.map((scenario) => scenario.name.match(/^(.*) \(2k\)$/)?.[1]).filter((kind) => kind !== undefined);
  for (const kind of kinds) {
    const small = r[`${kind} (2k)`]?.service;
    const large = r[`${kind} (largest)`]?.service;
    const growth = small && large ? large.p50Ms / Math.max(small.p50Ms, 0.01) : null;
    check(
      growth === null ? null : growth <= 2,
      `${kind}: p50 grows at most 2x from 2k to the largest network (${small && large ? `${small.p50Ms} -> ${large.p50Ms} ms, ${growth!.toFixed(2)}x` : "n/a"})`,
    );
  }
  // Dashboards: reports within their latency, at least half the floor's speed, and a
  // report's cost following its range, not the network's whole history.
  const officers = "officers page (largest)";
  check(atLeast(officers, "floor", 0.5), `${officers}: service >= 0.5x floor (${ratio(r[officers]?.service, r[officers]?.floor)})`);
  for (const [scenario, limit] of [
    ["duty hours, month by day (largest)", 25],
    ["duty hours, year by month (largest)", 50],
  ] as const) {
    const m = r[scenario]?.service;
    check(m ? m.p50Ms < limit : null, `${scenario}: p50 < ${limit} ms (${m ? `${m.p50Ms} ms` : "n/a"})`);
    check(atLeast(scenario, "floor", 0.5), `${scenario}: service >= 0.5x floor (${ratio(r[scenario]?.service, r[scenario]?.floor)})`);
  }
  for (const scenario of [newRangeScenario("month by day", "largest"), newRangeScenario("year by month", "largest")]) {
    check(atLeast(scenario, "floor", 0.5), `${scenario}: service >= 0.5x floor (${ratio(r[scenario]?.service, r[scenario]?.floor)})`);
  }
  const longHistory = r[newRangeScenario("month by day", "history 10x")]?.service;
  const monthByDay = r[newRangeScenario("month by day", "largest")]?.service;
  const historyGrowth = longHistory && monthByDay ? longHistory.p50Ms / Math.max(monthByDay.p50Ms, 0.01) : null;
  check(
    historyGrowth === null ? null : historyGrowth <= 1.5,
    `duty hours, month by day, new range each request: history 10x p50 <= 1.5x the largest's p50 (${longHistory && monthByDay ? `${monthByDay.p50Ms} -> ${longHistory.p50Ms} ms, ${historyGrowth!.toFixed(2)}x` : "n/a"})`,
  );
  const rss = run.peakRssMb.service;
  check(rss === undefined ? null : rss < 200, `service peak RSS under load < 200 MB (${rss ?? "n/a"} MB)`);
  return lines;
}

/** The service against an earlier release (target "release"), where it was measured. */
function againstRelease(run: BenchResults): string[] {
  const measured = run.scenarios.filter((scenario) => run.results[scenario.name]?.release);
  if (measured.length === 0) return [];
  const lines = [
    "## The service against the release before it",
    "",
    "| scenario | service req/s | p50 | p99 | release req/s | p50 | p99 | service/release |",
    "|---|---:|---:|---:|---:|---:|---:|---:|",
    ...measured.map((scenario) => {
      const r = run.results[scenario.name]!;
      return `| ${scenario.name} | ${cell(r.service)} | ${cell(r.release)} | ${ratio(r.service, r.release)} |`;
    }),
    "",
  ];
  // The events issue: writes record their event in their transaction at >= 0.9x the release's req/s.
  for (const scenario of measured.filter((each) => /^(create|patch|dutytime toggle) /.test(each.name))) {
    const r = run.results[scenario.name]!;
    const ok = r.service && r.release ? r.service.requestsPerSecond >= 0.9 * r.release.requestsPerSecond : null;
    lines.push(`- ${ok === null ? "n/a" : ok ? "met" : "NOT met"}: ${scenario.name}: service >= 0.9x the release (${ratio(r.service, r.release)})`);
  }
  return [...lines, ""];
}

/** A measurement as the bench prints it while it runs. */
export const progressLine = (server: string, scenario: string, m: Measurement) =>
  `${server.padEnd(12)} ${scenario.padEnd(32)} ${m.requestsPerSecond} req/s  p50 ${m.p50Ms} ms  p99 ${m.p99Ms} ms${m.failures ? `  ${m.failures} FAILED` : ""}`;

/** When and on what a run was measured: the time, the CPUs, Node, the database server if any. */
export const measuredOn = (server: string | null) =>
  `${new Date().toISOString()} on ${os.cpus().length} cores (${os.cpus()[0]?.model ?? "cpu"}), Node ${process.version}${server ? `, ${server}` : ""}`;

/** How the scenarios were measured (bench/load/slices.ts). */
export const slicing = (settings: SliceSettings) =>
  `${settings.connections} connections, ${settings.durationSeconds} s per scenario and server, the servers run side by side and each scenario measures them in slices of ${settings.durationSeconds / settings.rounds} s, ${settings.rounds} per server, in turn and then in the reverse order${settings.warmupSeconds > 0 ? `, after unmeasured warm-up on the scenario's requests per server (${warmupText(settings)})` : ", without warm-up"}`;

export function markdown(run: BenchResults): string {
  const shownPeers = peersOf(run);
  const targets: TargetName[] = ["service", "floor", ...shownPeers];
  // The service against each of the others: its req/s over theirs.
  const against: TargetName[] = ["floor", ...shownPeers];
  const header = [
    `# Benchmark: ${run.database}, ${run.size} data set`,
    "",
    `${measuredOn(run.server)}; ${slicing(run)}. "New term each request" sends each server at most its ${newTerms.toLocaleString("en-US")} terms, so none repeats (its slices end early when a server is fast; it is not warmed up). "New range each request" is warmed up on ranges ending a week before the measured ones.`,
    "",
    "req/s, p50 and p99 latency in ms.",
    "",
    `| scenario | ${targets.map((t) => `${label(t)} req/s | p50 | p99`).join(" | ")} | ${against.map((t) => `service/${label(t)}`).join(" | ")} |`,
    `|---|${[...targets.flatMap(() => ["---:", "---:", "---:"]), ...against.map(() => "---:")].join("|")}|`,
  ];
  const rows = run.scenarios.map((scenario) => {
    const r = run.results[scenario.name] ?? {};
    return `| ${scenario.name} | ${targets.map((t) => cell(r[t])).join(" | ")} | ${against.map((t) => ratio(r.service, r[t])).join(" | ")} |`;
  });
  const rss = `| peak RSS (MB) | ${targets.map((t) => `${run.peakRssMb[t] ?? "n/a"} | | `).join(" | ")} |${against.map(() => " |").join("")}`;
  return [...header, ...rows, rss, "", "## Targets (issue 4)", "", ...checks(run), "", ...againstRelease(run)].join("\n");
}
