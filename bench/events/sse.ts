// A minimal GraphQL-over-SSE subscriber for the events bench: one HTTP connection per subscriber,
// each `next` frame handed over parsed.
import http from "node:http";

export interface Subscriber {
  close(): void;
}

export function subscribe(url: string, apiKey: string, query: string, onNext: (result: { data?: { events: { sequence: number; occurredAt: string } } }) => void): Promise<Subscriber> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      `${url}/graphql`,
      { method: "POST", agent: false, headers: { "Content-Type": "application/json", Accept: "text/event-stream", "X-API-Key": apiKey } },
      (response) => {
        if (response.statusCode !== 200) {
          reject(new Error(`subscription answered ${response.statusCode}`));
          response.resume();
          return;
        }
        let buffer = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => {
          buffer += chunk;
          let end: number;
          while ((end = buffer.indexOf("\n\n")) >= 0) {
            const frame = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            if (!frame.includes("event: next")) continue;
            const data = frame.split("\n").find((line) => line.startsWith("data: "));
            if (data) onNext(JSON.parse(data.slice(6)));
          }
        });
        resolve({ close: () => request.destroy() });
      },
    );
    request.on("error", reject);
    request.end(JSON.stringify({ query }));
  });
}
