// The observability bench's results as markdown: the service observed, unobserved and its
// unobserved twin side by side per scenario, and issue 24's bench criterion checked for each.
import type { Measurement } from "../load/measure";
import { cell, measuredOn, ratio, slicing } from "../load/report";
import type { SliceSettings } from "../load/slices";
import { variablesOf, variantNames, variants, type VariantName } from "./variants";

export interface ObservabilityResults extends SliceSettings {
  database: string;
  size: string;
  /** The database server and its memory settings (PostgreSQL), or null. */
  server: string | null;
  /** Scenario names, in the order measured. */
  scenarios: string[];
  results: Record<string, Partial<Record<VariantName, Measurement>>>;
  peakRssMb: Partial<Record<VariantName, number>>;
  /** The observed service's request counter, scraped after the last scenario. */
  countedRequests: number;
}

/** The criterion: logs and metrics may cost at most this share of the unobserved service's req/s. */
const maxCost = 0.05;

function checks(run: ObservabilityResults): string[] {
  const lines = run.scenarios.map((scenario) => {
    const { observed, unobserved, twin } = run.results[scenario] ?? {};
    const ok = observed && unobserved ? observed.requestsPerSecond >= (1 - maxCost) * unobserved.requestsPerSecond : null;
    return `- ${ok === null ? "n/a" : ok ? "met" : "NOT met"}: ${scenario}: logs at info and metrics on cost at most ${maxCost * 100}% of req/s (observed >= ${1 - maxCost}x unobserved: ${ratio(observed, unobserved)}; the bench's noise, twin/unobserved: ${ratio(twin, unobserved)})`;
  });
  // Without this, a service whose metrics were off by mistake would pass for an observed one.
  lines.push(`- ${run.countedRequests > 0 ? "met" : "NOT met"}: the observed service's metrics were on: its /metrics counted ${run.countedRequests} requests at the end (vrd_http_requests_total)`);
  return lines;
}

/** CPU per request of each and their ratio: what observing costs the process itself, which req/s on a shared machine shows only through its noise. */
function cpuCells(observed: Measurement | undefined, unobserved: Measurement | undefined): string {
  const a = observed?.cpuUsPerRequest ?? null;
  const b = unobserved?.cpuUsPerRequest ?? null;
  return `${a ?? "n/a"} | ${b ?? "n/a"} | ${a !== null && b !== null && b > 0 ? `${(a / b).toFixed(2)}x` : "n/a"}`;
}

export function markdown(run: ObservabilityResults): string {
  const header = [
    `# Observability cost: ${run.database}, ${run.size} data set`,
    "",
    `${measuredOn(run.server)}; ${slicing(run)}.`,
    "",
    ...variantNames.map((name) => `- **${name}**: the service as \`npm start\` runs it with ${variablesOf(name)}: ${variants[name].meaning}.`),
    "",
    "req/s, p50 and p99 latency in ms; CPU: the server process's CPU time (user and system, from /proc) per answered request in its slices, in µs.",
    "",
    `| scenario | ${variantNames.map((name) => `${name} req/s | p50 | p99`).join(" | ")} | observed/unobserved | twin/unobserved | CPU observed | CPU unobserved | CPU observed/unobserved |`,
    `|---|${variantNames.map(() => "---:|---:|---:|").join("")}---:|---:|---:|---:|---:|`,
  ];
  const rows = run.scenarios.map((scenario) => {
    const r = run.results[scenario] ?? {};
    return `| ${scenario} | ${variantNames.map((name) => cell(r[name])).join(" | ")} | ${ratio(r.observed, r.unobserved)} | ${ratio(r.twin, r.unobserved)} | ${cpuCells(r.observed, r.unobserved)} |`;
  });
  const rss = `| peak RSS (MB) | ${variantNames.map((name) => `${run.peakRssMb[name] ?? "n/a"} | | `).join(" | ")} | | | | | |`;
  return [...header, ...rows, rss, "", "## Target (issue 24)", "", ...checks(run), ""].join("\n");
}
