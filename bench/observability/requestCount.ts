// Reading the observed service's request counter once its load is done: the proof that its
// metrics were on and counted what the bench sent.

/** The counter of answered requests (src/server/observability/metrics.ts). */
const requestCounter = "vrd_http_requests_total";

/** The sum of the request counter's series in one scrape of `metricsUrl`. */
export async function countedRequests(metricsUrl: string): Promise<number> {
  const response = await fetch(metricsUrl);
  if (!response.ok) throw new Error(`GET ${metricsUrl} answered ${response.status}`);
  // Text format: `name{labels} value` per series; comment lines start with #.
  return (await response.text())
    .split("\n")
    .filter((line) => line.startsWith(`${requestCounter}{`) || line.startsWith(`${requestCounter} `))
    .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(" ") + 1)), 0);
}

/** The metrics listener's address in a service's start output (its `metrics on URL` line). */
export function metricsUrlIn(startOutput: string): string {
  const url = /metrics on (http:\/\/[^\s"]+)/.exec(startOutput)?.[1];
  if (!url) throw new Error(`the service named no metrics listener when it started:\n${startOutput}`);
  return url;
}
