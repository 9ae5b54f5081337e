// One load run: autocannon against one server for one scenario, at a fixed concurrency.
import autocannon from "autocannon";
import type { LoadRequest } from "./scenarios";

export interface Measurement {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Answers outside 2xx, and connection errors: a scenario with any is not comparable. */
  failures: number;
}

export async function measure(
  baseUrl: string,
  apiKey: string,
  request: LoadRequest,
  options: { connections: number; durationSeconds: number },
): Promise<Measurement> {
  let counter = 0;
  const headers: Record<string, string> = { "x-api-key": apiKey, accept: "application/json" };
  const result = await autocannon({
    url: baseUrl,
    connections: options.connections,
    duration: options.durationSeconds,
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
  });
  return {
    requestsPerSecond: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    failures: result.non2xx + result.errors + result.timeouts,
  };
}
