// A webhook receiver on 127.0.0.1 for tests: it records every request (headers, body, when) and
// answers as the test says (a status and headers, or no answer at all); it can be stopped and
// started again on the same port, as a receiver that is down and comes back.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";

export interface ReceivedRequest {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
  /** The status answered (0: none). */
  status: number;
}

/** How to answer a request: a status (with headers), or "hang" (never answer). */
export type Answer = { status: number; headers?: Record<string, string> } | "hang";

export interface WebhookReceiver {
  url: string;
  port: number;
  requests: ReceivedRequest[];
  /** Requests answered 2xx. */
  delivered(): ReceivedRequest[];
  answerWith(answer: (request: ReceivedRequest) => Answer): void;
  /** Closes the port (connections are refused) until `up`. */
  down(): Promise<void>;
  up(): Promise<void>;
  /** Waits until `predicate` holds of the requests (polling), or fails after `timeoutMs`. */
  until(predicate: (requests: ReceivedRequest[]) => boolean, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startWebhookReceiver(port = 0): Promise<WebhookReceiver> {
  const requests: ReceivedRequest[] = [];
  let answer: (request: ReceivedRequest) => Answer = () => ({ status: 200 });
  const hanging = new Set<http.ServerResponse>();
  const handler: http.RequestListener = (req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (body += chunk));
    req.on("end", () => {
      const request: ReceivedRequest = { path: req.url ?? "/", headers: req.headers, body, at: Date.now(), status: 0 };
      requests.push(request);
      const how = answer(request);
      if (how === "hang") {
        hanging.add(res);
        return;
      }
      request.status = how.status;
      res.writeHead(how.status, how.headers).end();
    });
  };
  let server = http.createServer(handler);
  const listen = (on: number) => new Promise<number>((resolve) => server.listen(on, "127.0.0.1", () => resolve((server.address() as AddressInfo).port)));
  const bound = await listen(port);
  const closeServer = async () => {
    for (const res of hanging) res.destroy();
    hanging.clear();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return {
    url: `http://127.0.0.1:${bound}`,
    port: bound,
    requests,
    delivered: () => requests.filter((request) => request.status >= 200 && request.status < 300),
    answerWith(how) {
      answer = how;
    },
    down: closeServer,
    async up() {
      server = http.createServer(handler);
      await listen(bound);
    },
    async until(predicate, timeoutMs = 20_000) {
      const end = Date.now() + timeoutMs;
      while (!predicate(requests)) {
        if (Date.now() > end) throw new Error(`the receiver waited ${timeoutMs} ms in vain; it has ${requests.length} requests`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
    close: closeServer,
  };
}

/** Verifies a request with the Standard Webhooks library (throws when it does not verify); answers the event. */
export function verified(secret: string, request: ReceivedRequest): { id: string; sequence: number; type: string; data: Record<string, unknown> } {
  const headers = {
    "webhook-id": String(request.headers["webhook-id"]),
    "webhook-timestamp": String(request.headers["webhook-timestamp"]),
    "webhook-signature": String(request.headers["webhook-signature"]),
  };
  return new Webhook(secret).verify(request.body, headers) as ReturnType<typeof verified>;
}
