// One load run: autocannon against one server for one scenario, at a fixed concurrency.
import autocannon from "autocannon";
import { cpuTicks, ticksPerSecond } from "./quiet";
import type { LoadRequest } from "./scenarios";

export interface Measurement {
  requestsPerSecond: number;
  /** Latency percentiles of the 2xx answers, in ms to the hundredth. */
  p50Ms: number;
  p99Ms: number;
  /** Answers outside 2xx, and connection errors: a scenario with any is not comparable. */
  failures: number;
  /** The server process's CPU time (user and system) per answered request, in µs; null when not watched. */
  cpuUsPerRequest: number | null;
}

/** What one load run saw; several runs of one server and scenario make one Measurement. */
export interface LoadSample {
  requests: number;
  /** Requests sent, answered or not (the next run of the scenario numbers on from these). */
  issued: number;
  seconds: number;
  /** Each 2xx answer's time, in ms. */
  latencies: number[];
  failures: number;
  /** The server process's CPU time over the run, in clock ticks (./quiet.ts), when its pid is known. */
  cpuTicks?: number;
}

/**
 * One load run. `firstIndex` numbers its requests on from an earlier run's (plates and new
 * search terms go on where that run stopped). The run ends after its duration, or once it has
 * had `maxRequests` answered.
 */
export async function measure(
  baseUrl: string,
  apiKey: string,
  request: LoadRequest,
  options: { connections: number; durationSeconds: number; firstIndex?: number; maxRequests?: number },
): Promise<LoadSample> {
  const firstIndex = options.firstIndex ?? 0;
  let counter = firstIndex;
  // autocannon's own percentiles are whole milliseconds (its histogram records integers): a p50
  // of 1 or 2 ms would say little about growth. Each answer's time comes with its response event.
  const latencies: number[] = [];
  const headers: Record<string, string> = { "x-api-key": apiKey, accept: "application/json" };
  const load: autocannon.Options = {
    url: baseUrl,
    connections: options.connections,
    duration: options.durationSeconds,
    ...(options.maxRequests === undefined ? {} : { maxOverallRequests: options.maxRequests }),
    headers,
    requests: [
      {
        method: request.method,
        setupRequest: (req: autocannon.Request) => {
          const i = counter++;
          const body = request.body?.(i);
          return {
            ...req,
            path: request.path(i),
            ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { ...headers, "content-type": "application/json" } }),
          };
        },
      },
    ],
  };
  // The run's time is taken here, to its last answer: autocannon counts whole seconds of its
  // 1 s ticks, so a run that ends at maxRequests after 1.2 s would count 2 s.
  const startedAt = performance.now();
  let lastAnswerAt = startedAt;
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(load, (error, done) => (error ? reject(error) : resolve(done)));
    instance.on("response", (_client, statusCode, _bytes, responseTimeMs) => {
      lastAnswerAt = performance.now();
      if (statusCode >= 200 && statusCode < 300) latencies.push(responseTimeMs);
    });
  });
  return {
    requests: result.requests.total,
    issued: counter - firstIndex,
    seconds: (lastAnswerAt - startedAt) / 1000,
    latencies,
    failures: result.non2xx + result.errors + result.timeouts,
  };
}

/** Runs of one server and scenario as one measurement: requests over their whole time. */
export function summarize(samples: LoadSample[]): Measurement {
  const latencies = samples.flatMap((sample) => sample.latencies);
  const seconds = samples.reduce((sum, sample) => sum + sample.seconds, 0);
  const requests = samples.reduce((sum, sample) => sum + sample.requests, 0);
  return {
    requestsPerSecond: seconds > 0 ? Math.round(requests / seconds) : 0,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    failures: samples.reduce((sum, sample) => sum + sample.failures, 0),
    cpuUsPerRequest: samples.every((sample) => sample.cpuTicks !== undefined) && requests > 0
      ? Math.round((samples.reduce((sum, sample) => sum + sample.cpuTicks!, 0) * (1e6 / ticksPerSecond)) / requests)
      : null,
  };
}

/** The nearest-rank percentile, in ms rounded to the hundredth (0 without values). */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = Float64Array.from(values).sort();
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return Math.round(sorted[rank - 1] * 100) / 100;
}

/** A run of `measure`, with the CPU the server's process `pid` used meanwhile (sample.cpuTicks; left out when unknown). */
export async function measureWithCpu(pid: number | undefined, ...run: Parameters<typeof measure>): Promise<LoadSample> {
  const ticks = () => (pid === undefined ? null : cpuTicks(pid));
  const before = ticks();
  const sample = await measure(...run);
  const after = ticks();
  if (before !== null && after !== null) sample.cpuTicks = after - before;
  return sample;
}
