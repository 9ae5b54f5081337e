// One request of a bench script to the service, with its API key, on a keep-alive agent: the
// answer's status and text (no timing: the load runs use autocannon, bench/load/measure.ts).
import http from "node:http";

const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });

export function request(url: string, apiKey: string, method: string, body?: unknown): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = http.request(url, { method, agent, headers: { "X-API-Key": apiKey, "Content-Type": "application/json", Accept: "application/json" } }, (response) => {
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (text += chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, text }));
    });
    outgoing.on("error", reject);
    outgoing.end(body === undefined ? undefined : JSON.stringify(body));
  });
}
