// One delivery attempt: one POST of a webhook's JSON to its URL. Every way it can go is an
// outcome, never a throw or a rejection, so the caller only decides what to record and when to
// retry. Redirects are not followed (node's http never does; a 3xx is a failed attempt like any
// other non-2xx), so a receiver cannot bounce a delivery onto an address the rule refuses.
import http from "node:http";
import https from "node:https";
import type net from "node:net";
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from "request-filtering-agent";
import { isAllowedHost, refusedAddress } from "./addresses";

export const USER_AGENT = "vrd-webhooks/1";

/** How much of an answer is kept: enough to show a receiver's complaint, never megabytes. */
const ANSWER_LIMIT = 4096;

export interface OutgoingSettings {
  /** The whole attempt: connecting, sending and reading the (capped) answer. */
  timeoutMs: number;
  /** Hosts reached without the address rule (WEBHOOK_ALLOWED_HOSTS). */
  allowedHosts: readonly string[];
  /** Resolves host names instead of dns.lookup (tests); the address rule still applies. */
  lookup?: net.LookupFunction;
}

/** What one attempt came to: it succeeded exactly when error is null. */
export interface AttemptOutcome {
  /** The answer's status, null when none came (connection error, refused address, timeout). */
  status: number | null;
  durationMs: number;
  /** Why the attempt failed ("HTTP 500", "ECONNREFUSED", "refused: …", "timeout after … ms"). */
  error: string | null;
  /** The answer's Retry-After as a delay from now, null when absent or unreadable. */
  retryAfterMs: number | null;
  /** The first ANSWER_LIMIT bytes of the answer, as text. */
  body: string;
}

// Shared by every attempt, so connections to a receiver are kept alive between deliveries. The
// filtering agents check every address a connection would use (an IP literal, or each address a
// name resolves to, at connection time, so a name cannot be re-pointed after the save-time
// check); the plain ones only ever reach hosts named in allowedHosts.
const filtering = {
  http: new RequestFilteringHttpAgent({ keepAlive: true }),
  https: new RequestFilteringHttpsAgent({ keepAlive: true }),
};
const plain = { http: new http.Agent({ keepAlive: true }), https: new https.Agent({ keepAlive: true }) };

export async function post(
  url: string,
  headers: Record<string, string>,
  body: string,
  settings: OutgoingSettings,
): Promise<AttemptOutcome> {
  const target = URL.canParse(url) ? new URL(url) : null;
  if (target === null || (target.protocol !== "http:" && target.protocol !== "https:")) {
    return { status: null, durationMs: 0, error: "not an http(s) URL", retryAfterMs: null, body: "" };
  }
  const agents = isAllowedHost(target.hostname, settings.allowedHosts) ? plain : filtering;
  const secure = target.protocol === "https:";
  const started = performance.now();

  return new Promise((resolve) => {
    let status: number | null = null;
    let retryAfterMs: number | null = null;
    const kept: Buffer[] = [];
    let keptBytes = 0;
    let settled = false;
    // The first word on the attempt is the outcome; later events (the error a destroy causes,
    // a timer racing an answer) find it settled.
    const settle = (error: string | null): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      const durationMs = Math.round(performance.now() - started);
      resolve({ status, durationMs, error, retryAfterMs, body: Buffer.concat(kept).toString("utf8") });
    };
    let request: http.ClientRequest | undefined;
    const timer = setTimeout(() => {
      settle(`timeout after ${settings.timeoutMs} ms`);
      request?.destroy();
    }, settings.timeoutMs);
    try {
      request = (secure ? https : http).request(target, {
        method: "POST",
        agent: secure ? agents.https : agents.http,
        lookup: settings.lookup,
        // Ours last: the body's type and our name are not the caller's to change.
        headers: {
          ...headers,
          "content-type": "application/json",
          "content-length": String(Buffer.byteLength(body)),
          "user-agent": USER_AGENT,
        },
      });
    } catch (error) {
      // Only a request node refuses to build (a header value with a line break) lands here.
      settle(failureOf(error as Error));
      return;
    }
    const sent = request;
    sent.on("error", (error) => settle(failureOf(error)));
    sent.on("response", (response) => {
      status = response.statusCode ?? null;
      retryAfterMs = retryAfterMsOf(response.headers["retry-after"]);
      const answered = (): void => settle(status !== null && status >= 200 && status < 300 ? null : `HTTP ${status}`);
      response.on("data", (chunk: Buffer) => {
        const room = ANSWER_LIMIT - keptBytes;
        kept.push(chunk.subarray(0, room));
        keptBytes += Math.min(chunk.length, room);
        if (keptBytes < ANSWER_LIMIT) return;
        // Enough read: the status already decided the attempt, the rest is not wanted.
        answered();
        sent.destroy();
      });
      response.on("end", answered);
      // The connection broke mid-answer: the status came but the answer did not finish.
      response.on("error", (error) => settle(failureOf(error)));
    });
    sent.end(body);
  });
}

/** A failure's short text: the address rule's words for a refusal, else the error's code. */
function failureOf(error: NodeJS.ErrnoException): string {
  // request-filtering-agent refuses with "DNS lookup <address>(family:…, host:…) is not allowed…"
  // and no code; the reason is worded again by the rule that decided it.
  const refusal = /^DNS lookup (\S+?)\(family:.* is not allowed/.exec(error.message);
  if (refusal !== null) {
    const address = refusal[1];
    return `refused: ${address} is ${refusedAddress(address) ?? "not allowed"}`;
  }
  return error.code ?? error.message;
}

/**
 * Retry-After as milliseconds from now: delta-seconds (fractions accepted) or an HTTP-date, a
 * date in the past reading as 0.
 */
function retryAfterMsOf(value: string | undefined): number | null {
  if (value === undefined) return null;
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  // All three HTTP-date forms start with a day name; Date.parse alone would read "-1" or "2026".
  const at = /^[A-Za-z]{3}/.test(text) ? Date.parse(text) : Number.NaN;
  return Number.isNaN(at) ? null : Math.max(0, at - Date.now());
}
