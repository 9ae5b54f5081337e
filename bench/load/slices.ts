// One scenario measured on servers running side by side: each warmed up on its request, then
// measured in slices in alternating order (./rounds.ts), each slice once the servers are quiet
// (./quiet.ts). The main bench and the observability bench measure through this one loop.
import type { FlagSpec, ParsedFlags } from "../lib/args";
import { UsageError } from "../lib/args";
import { measure, measureWithCpu, summarize, type LoadSample, type Measurement } from "./measure";
import type { Quiet } from "./quiet";
import { measuringOrder } from "./rounds";
import type { LoadRequest } from "./scenarios";

/** One server in a scenario: what it is called in the results, where it listens, what it is sent. */
export interface Contestant<Name extends string> {
  name: Name;
  url: string;
  request: LoadRequest;
  /** The server's process: its CPU time per request is measured too (Linux). */
  pid?: number;
}

export interface SliceSettings {
  connections: number;
  /** Measured seconds per scenario and server, in `rounds` slices. */
  durationSeconds: number;
  /** Slices per scenario and server, alternating the servers' order (./rounds.ts). */
  rounds: number;
  /** Seconds of unmeasured load per server on each scenario's requests before its slices, at least. */
  warmupSeconds: number;
  /** Requests a server's warm-up goes on to, past warmupSeconds, within maxWarmupFactor times it. */
  warmupRequests: number;
}

/** A warm-up that waits for warmupRequests lasts at most this many times warmupSeconds. */
export const maxWarmupFactor = 5;

/** The command-line flags of SliceSettings. */
export const sliceFlags = { duration: "integer", connections: "integer", rounds: "integer", warmup: "number", "warmup-requests": "integer" } as const satisfies FlagSpec;

export function sliceSettingsOf(flags: ParsedFlags): SliceSettings {
  const durationSeconds = (flags.duration as number) ?? 10;
  const connections = (flags.connections as number) ?? 10;
  const rounds = (flags.rounds as number) ?? 4;
  if (rounds < 1) throw new UsageError("--rounds must be at least 1");
  const warmupSeconds = (flags.warmup as number) ?? Math.min(2, durationSeconds / rounds);
  if (warmupSeconds < 0) throw new UsageError("--warmup must not be negative");
  const warmupRequests = (flags["warmup-requests"] as number) ?? 10_000;
  if (warmupRequests < 0) throw new UsageError("--warmup-requests must not be negative");
  return { connections, durationSeconds, rounds, warmupSeconds, warmupRequests };
}

/**
 * Unmeasured load on a scenario's own requests, so the JIT has compiled a server's code for them
 * before it is measured. Compilation follows calls, not seconds: the service's path through
 * GraphQL took ~5 s of load to reach its speed on a get by id (its first 2.5 s slice cost ~15%
 * more CPU per request than its later ones), and a create, at a tenth of the rate, ~10 s
 * (docs/performance.md, "How the bench runs"); the floor's few functions take a fraction of a
 * second. So a server is loaded for warmupSeconds and on until it has answered warmupRequests,
 * within maxWarmupFactor times warmupSeconds.
 */
export async function warmUp(
  url: string,
  apiKey: string,
  request: LoadRequest,
  { connections, warmupSeconds, warmupRequests }: Pick<SliceSettings, "connections" | "warmupSeconds" | "warmupRequests">,
): Promise<void> {
  if (warmupSeconds <= 0) return;
  const first = await measure(url, apiKey, request, { connections, durationSeconds: warmupSeconds });
  if (first.requests >= warmupRequests) return;
  const durationSeconds = warmupSeconds * (maxWarmupFactor - 1);
  await measure(url, apiKey, request, { connections, durationSeconds, firstIndex: first.issued, maxRequests: warmupRequests - first.requests });
}

/** How long warmUp loads a server, for the results' headers: "2 s, and on until 10000 answers, 10 s at most". */
export const warmupText = ({ warmupSeconds, warmupRequests }: Pick<SliceSettings, "warmupSeconds" | "warmupRequests">) =>
  `${warmupSeconds} s${warmupRequests > 0 ? `, and on until ${warmupRequests} answers, ${warmupSeconds * maxWarmupFactor} s at most` : ""}`;

/** Each contestant's measurement of one scenario, sent with `apiKey`. */
export async function measureSideBySide<Name extends string>(
  contestants: Contestant<Name>[],
  apiKey: string,
  { connections, durationSeconds, rounds, warmupSeconds, warmupRequests }: SliceSettings,
  quiet: Quiet,
): Promise<Map<Name, Measurement>> {
  // A scenario of distinct requests is warmed on its warm-up requests, if it has them (its own
  // would be repeats when measured); without them, the scenario before it runs the same code.
  for (const contestant of contestants) {
    const warming = contestant.request.distinct ? contestant.request.warmup : contestant.request;
    // No wait for quiet here: work left over from a warm-up only overlaps another warm-up.
    if (warming) await warmUp(contestant.url, apiKey, warming, { connections, warmupSeconds, warmupRequests });
  }
  const samples = new Map<Name, LoadSample[]>(contestants.map((contestant) => [contestant.name, []]));
  for (const contestant of measuringOrder(contestants, rounds)) {
    const taken = samples.get(contestant.name)!;
    const request = contestant.request;
    const firstIndex = taken.reduce((sum, sample) => sum + sample.issued, 0);
    // Each slice sends at most its share of the distinct requests.
    const maxRequests = request.distinct && Math.max(connections, Math.floor(request.distinct / rounds));
    const options = { connections, durationSeconds: durationSeconds / rounds, firstIndex, maxRequests };
    await quiet.wait();
    taken.push(await measureWithCpu(contestant.pid, contestant.url, apiKey, request, options));
  }
  return new Map(contestants.map((contestant) => [contestant.name, summarize(samples.get(contestant.name)!)]));
}
