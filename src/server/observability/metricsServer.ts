// The metrics' own listener: GET /metrics in Prometheus' text format, on METRICS_PORT and
// METRICS_HOST (127.0.0.1 unless set), apart from the public port, so that an operator who opens
// the API to the world does not open the metrics with it. No key: whoever reaches it may read it.
import http from "node:http";
import type { Registry } from "prom-client";
import { logInternalError } from "../../publicError";
import type { RunningServer } from "../httpServer";

export const metricsPath = "/metrics";

export async function listenForMetrics(registry: Registry, port: number, host: string): Promise<RunningServer> {
  const server = http.createServer((request, response) => {
    const path = request.url?.split("?")[0];
    if (path !== metricsPath) return void response.writeHead(404, { "Content-Type": "text/plain; charset=utf-8" }).end("Not Found: the metrics are at /metrics.\n");
    if (request.method !== "GET" && request.method !== "HEAD") {
      return void response.writeHead(405, { Allow: "GET, HEAD", "Content-Type": "text/plain; charset=utf-8" }).end("Method Not Allowed.\n");
    }
    registry.metrics().then(
      (text) => {
        response.writeHead(200, { "Content-Type": registry.contentType, "Content-Length": Buffer.byteLength(text) });
        response.end(request.method === "HEAD" ? undefined : text);
      },
      (error: unknown) => {
        logInternalError(error);
        response.writeHead(500, { "Content-Type": "text/plain; charset=utf-8" }).end("The metrics could not be collected.\n");
      },
    );
  });
  // A scrape is a short request; nothing here needs connections kept open long.
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address();
  const boundPort = typeof address === "object" && address ? address.port : port;
  const shownHost = host.includes(":") ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${boundPort}${metricsPath}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeIdleConnections();
      }),
  };
}
