// A GraphQL-over-SSE subscriber for tests: POSTs a subscription with Accept: text/event-stream
// and parses the frames as they come (id, event, data), as a browser's EventSource would.
import http from "node:http";
import https from "node:https";

export interface SseFrame {
  id?: string;
  event: string;
  data: string;
}

export interface SseSubscriber {
  status: number;
  headers: http.IncomingHttpHeaders;
  frames: SseFrame[];
  /** Comments (heartbeats) seen. */
  comments: number;
  /** Resolves when `count` frames of event `next` have arrived (or rejects after `timeoutMs`). */
  nexts(count: number, timeoutMs?: number): Promise<SseFrame[]>;
  /** Resolves when the stream ended (complete, or the server closed it). */
  ended: Promise<void>;
  close(): void;
}

/** `tls`: for an https base URL, the options of its connection (a test's own CA, where to connect). */
export function subscribeSse(
  baseUrl: string,
  apiKey: string,
  query: string,
  variables: Record<string, unknown> = {},
  headers: Record<string, string> = {},
  tls: https.RequestOptions = {},
): Promise<SseSubscriber> {
  const body = JSON.stringify({ query, variables });
  const transport = baseUrl.startsWith("https:") ? https : http;
  return new Promise((resolve, reject) => {
    const request = transport.request(
      `${baseUrl}/graphql`,
      { ...tls, method: "POST", headers: { "Content-Type": "application/json", Accept: "text/event-stream", "X-API-Key": apiKey, ...headers } },
      (response) => {
        const frames: SseFrame[] = [];
        let comments = 0;
        let buffer = "";
        const waiters: (() => void)[] = [];
        let endedResolve: () => void = () => undefined;
        const ended = new Promise<void>((done) => (endedResolve = done));
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => {
          buffer += chunk;
          let end: number;
          while ((end = buffer.indexOf("\n\n")) >= 0) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const frame: SseFrame = { event: "message", data: "" };
            let comment = true;
            for (const line of block.split("\n")) {
              if (line.startsWith(":")) continue;
              comment = false;
              const [field, ...rest] = line.split(":");
              const value = rest.join(":").replace(/^ /, "");
              if (field === "id") frame.id = value;
              else if (field === "event") frame.event = value;
              else if (field === "data") frame.data += value;
            }
            if (comment) comments++;
            else frames.push(frame);
            for (const waiter of waiters.splice(0)) waiter();
          }
        });
        response.on("end", () => {
          endedResolve();
          for (const waiter of waiters.splice(0)) waiter();
        });
        response.on("close", () => endedResolve());
        const subscriber: SseSubscriber = {
          status: response.statusCode ?? 0,
          headers: response.headers,
          frames,
          get comments() {
            return comments;
          },
          ended,
          nexts(count, timeoutMs = 10_000) {
            return new Promise((done, fail) => {
              const timer = setTimeout(() => fail(new Error(`only ${frames.filter((f) => f.event === "next").length} of ${count} events: ${JSON.stringify(frames)}`)), timeoutMs);
              const check = () => {
                const nexts = frames.filter((frame) => frame.event === "next");
                if (nexts.length >= count) {
                  clearTimeout(timer);
                  done(nexts);
                } else waiters.push(check);
              };
              check();
            });
          },
          close: () => request.destroy(),
        };
        resolve(subscriber);
      },
    );
    request.on("error", reject);
    request.end(body);
  });
}
