// A Discord webhook for tests: an HTTP server on 127.0.0.1 that answers `POST /api/webhooks/<id>/<token>`
// as Discord does, limits included, and records every request, so a test can assert what arrived
// and that nothing arrived while the webhook was rate limited.
// - Rate limit: 5 requests per 2 s per webhook path (a sliding window over the requests it let
//   through). Over it: 429 `{"message", "retry_after": <seconds, fractional>, "global": false}`,
//   `Retry-After` in whole seconds rounded up, and the `X-RateLimit-*` headers. After a 429 the path
//   stays limited until its retry_after has passed: an earlier request gets 429 again.
// - A body must hold 1 to 10 embeds within Discord's embed limits (else 400, Discord's
//   "Invalid Form Body"); a good post gets 204.
// Its limits are written out here rather than taken from src/webhooks/discord.ts: it plays
// Discord, and a stand-in that shared the code's numbers could not catch them being wrong.
import http from "node:http";
import type { AddressInfo } from "node:net";

const requestsPerWindow = 5;
const windowMs = 2000;
const limits = { embeds: 10, title: 256, description: 4096, fields: 25, fieldName: 256, fieldValue: 1024, footer: 2048, characters: 6000 };
const webhookPath = /^\/api(?:\/v\d+)?\/webhooks\/\d+\/[A-Za-z0-9_-]+$/;

export interface StandInMessage {
  path: string;
  body: any;
  at: number;
}

export interface StandInRequest {
  path: string;
  /** When it arrived (the stand-in's clock, ms). */
  at: number;
  status: number;
  /** On a 429: the wait it asked for, ms. */
  retryAfterMs?: number;
  /** A 429 answered because the path was limited (window full or an earlier retry_after not yet over): the client came too early. */
  early?: boolean;
  /** A 429 answered by `answer429Next`, not by the window. */
  forced?: boolean;
}

export interface DiscordStandIn {
  url(path: string): string;
  /** The accepted posts (204), in arrival order. */
  messages: StandInMessage[];
  /** Every request to a webhook path, in arrival order. */
  requests: StandInRequest[];
  /** The next `n` requests get a 429 asking for `retryAfterSeconds`, whatever the window says. */
  answer429Next(n: number, retryAfterSeconds: number): void;
  /** The requests that came while their path was rate limited: none when a client honours the limits. */
  early(): StandInRequest[];
  stop(): Promise<void>;
}

interface PathState {
  /** Arrivals the window let through, oldest first. */
  passed: number[];
  /** No request before this instant (a 429's retry_after). */
  limitedUntil: number;
}

export async function startDiscordStandIn(now: () => number = Date.now): Promise<DiscordStandIn> {
  const messages: StandInMessage[] = [];
  const requests: StandInRequest[] = [];
  const paths = new Map<string, PathState>();
  let forced: { left: number; retryAfterSeconds: number } = { left: 0, retryAfterSeconds: 0 };

  function rateLimitHeaders(state: PathState, at: number): Record<string, string> {
    const inWindow = state.passed.filter((time) => time > at - windowMs);
    const resetAfterMs = inWindow.length === 0 ? 0 : inWindow[0] + windowMs - at;
    return {
      "X-RateLimit-Limit": String(requestsPerWindow),
      "X-RateLimit-Remaining": String(Math.max(0, requestsPerWindow - inWindow.length)),
      "X-RateLimit-Reset-After": (resetAfterMs / 1000).toFixed(3),
    };
  }

  function tooMany(response: http.ServerResponse, state: PathState, at: number, waitMs: number): void {
    state.limitedUntil = Math.max(state.limitedUntil, at + waitMs);
    const body = JSON.stringify({ message: "You are being rate limited.", retry_after: waitMs / 1000, global: false });
    response.writeHead(429, {
      "Content-Type": "application/json",
      "Retry-After": String(Math.ceil(waitMs / 1000)),
      ...rateLimitHeaders(state, at),
      "X-RateLimit-Remaining": "0",
    });
    response.end(body);
  }

  function handle(request: http.IncomingMessage, response: http.ServerResponse, text: string): void {
    const at = now();
    const path = new URL(request.url ?? "/", "http://stand-in").pathname;
    if (!webhookPath.test(path)) return answer(response, 404, { message: "Unknown Webhook", code: 10015 });
    if (request.method !== "POST") return answer(response, 405, { message: "405: Method Not Allowed", code: 0 });

    let state = paths.get(path);
    if (state === undefined) paths.set(path, (state = { passed: [], limitedUntil: 0 }));

    if (forced.left > 0) {
      forced.left -= 1;
      const waitMs = forced.retryAfterSeconds * 1000;
      requests.push({ path, at, status: 429, retryAfterMs: waitMs, forced: true });
      return tooMany(response, state, at, waitMs);
    }
    if (at < state.limitedUntil) {
      const waitMs = state.limitedUntil - at;
      requests.push({ path, at, status: 429, retryAfterMs: waitMs, early: true });
      return tooMany(response, state, at, waitMs);
    }
    const inWindow = state.passed.filter((time) => time > at - windowMs);
    if (inWindow.length >= requestsPerWindow) {
      const waitMs = inWindow[inWindow.length - requestsPerWindow] + windowMs - at;
      requests.push({ path, at, status: 429, retryAfterMs: waitMs, early: true });
      return tooMany(response, state, at, waitMs);
    }

    // Past the limiter every request counts, a refused body too, as at Discord.
    state.passed = [...inWindow, at];
    const headers = rateLimitHeaders(state, at);
    let body: any;
    try {
      body = JSON.parse(text);
    } catch {
      requests.push({ path, at, status: 400 });
      return answer(response, 400, { message: "Cannot send an empty message", code: 50006 }, headers);
    }
    const fault = faultOf(body);
    if (fault !== null) {
      requests.push({ path, at, status: 400 });
      return answer(response, 400, { message: "Invalid Form Body", code: 50035, errors: fault }, headers);
    }
    requests.push({ path, at, status: 204 });
    messages.push({ path, body, at });
    response.writeHead(204, headers);
    response.end();
  }

  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => handle(request, response, Buffer.concat(chunks).toString("utf8")));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    messages,
    requests,
    answer429Next(n, retryAfterSeconds) {
      forced = { left: n, retryAfterSeconds };
    },
    early: () => requests.filter((request) => request.early === true),
    stop: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

function answer(response: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(status, { "Content-Type": "application/json", ...headers });
  response.end(JSON.stringify(body));
}

/** What Discord would refuse in a message body (null: nothing). Only embeds are checked: that is all the service sends. */
function faultOf(body: any): string | null {
  const embeds = body?.embeds;
  if (!Array.isArray(embeds) || embeds.length < 1 || embeds.length > limits.embeds) return `embeds: 1 to ${limits.embeds} expected`;
  let characters = 0;
  for (const [index, embed] of embeds.entries()) {
    const texts: [string, unknown, number][] = [
      ["title", embed?.title, limits.title],
      ["description", embed?.description, limits.description],
      ["footer.text", embed?.footer?.text, limits.footer],
    ];
    const fields = embed?.fields ?? [];
    if (!Array.isArray(fields) || fields.length > limits.fields) return `embeds.${index}.fields: at most ${limits.fields}`;
    for (const [at, field] of fields.entries()) {
      if (typeof field?.value !== "string" || field.value === "") return `embeds.${index}.fields.${at}.value: required`;
      if (typeof field?.name !== "string" || field.name === "") return `embeds.${index}.fields.${at}.name: required`;
      texts.push([`fields.${at}.name`, field.name, limits.fieldName], [`fields.${at}.value`, field.value, limits.fieldValue]);
    }
    for (const [name, text, max] of texts) {
      if (text === undefined || text === null) continue;
      if (typeof text !== "string") return `embeds.${index}.${name}: a string expected`;
      // Discord counts characters (code points); a UTF-16 count would refuse what Discord accepts.
      const length = [...text].length;
      if (length > max) return `embeds.${index}.${name}: at most ${max} characters`;
      characters += length;
    }
  }
  return characters > limits.characters ? `embeds: at most ${limits.characters} characters in all` : null;
}
