// The attacker's load for the HTTP-level attacks: `connections` loops, each with its own
// keep-alive connection (an agent of one socket), sending one request after another as fast as
// the server answers, until the signal. node:http rather than autocannon: its errors keep their
// system codes (EPIPE, ECONNRESET), bodies of any size go out as they are, and answers (20 MB of
// JSON for 800 aliases) are drained without being kept.
import http, { type OutgoingHttpHeaders } from "node:http";
import { errorName, Tally } from "./tally";

export interface AttackRequest {
  method: string;
  path: string;
  headers?: OutgoingHttpHeaders;
  body?: string | Buffer;
  /** A label for the request's kind, when one attack mixes several (see perKind). */
  kind?: string;
}

export interface HammerResult {
  statuses: Tally;
  /** Outcomes by kind ("kind: status"), for mixes. */
  perKind: Tally;
  /** The first answer: its status and the start of its body (for the error code it names). */
  first: { status: number; head: string } | null;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Outcome = { status: number; head: string } | { error: string };

function send(base: URL, agent: http.Agent, request: AttackRequest, signal: AbortSignal): Promise<Outcome> {
  return new Promise((resolve) => {
    const headers: OutgoingHttpHeaders = { ...request.headers };
    if (request.body !== undefined && headers["content-length"] === undefined) headers["content-length"] = Buffer.byteLength(request.body);
    const req = http.request(
      { host: base.hostname, port: base.port, method: request.method, path: request.path, headers, agent, signal },
      (response) => {
        // Keep the first 2 KB (enough for an error's code), drop the rest as it comes.
        let head = "";
        response.on("data", (chunk: Buffer) => {
          if (head.length < 2048) head += chunk.toString("utf8", 0, Math.min(chunk.length, 2048));
        });
        response.once("close", () => resolve(response.complete ? { status: response.statusCode!, head } : { error: "answer cut" }));
      },
    );
    req.once("error", (error) => resolve({ error: errorName(error) }));
    req.end(request.body);
  });
}

/**
 * Sends `request(i)` (i counts across all connections) until the signal aborts. Requests cut by
 * the end of the attack count as "unanswered at end".
 */
export async function hammer(
  url: string,
  options: { connections: number; signal: AbortSignal; request: (i: number) => AttackRequest },
): Promise<HammerResult> {
  const base = new URL(url);
  const result: HammerResult = { statuses: new Tally(), perKind: new Tally(), first: null };
  let counter = 0;
  const loop = async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      while (!options.signal.aborted) {
        const request = options.request(counter++);
        const outcome = await send(base, agent, request, options.signal);
        if (options.signal.aborted) {
          // Cut by the end of the attack: not an answer, but worth seeing when nothing else came back.
          if ("error" in outcome) result.statuses.add("unanswered at end");
          break;
        }
        const name = "status" in outcome ? outcome.status : outcome.error;
        result.statuses.add(name);
        if (request.kind) result.perKind.add(`${request.kind}: ${name}`);
        if ("status" in outcome) result.first ??= outcome;
        // A dead server refuses at once: back off instead of spinning on the shared CPUs.
        else await sleep(50);
      }
    } finally {
      agent.destroy();
    }
  };
  await Promise.all(Array.from({ length: options.connections }, loop));
  return result;
}

/** "401 UNAUTHENTICATED" or "400 BAD_USER_INPUT (limit aliases)" or "200 data": what an answer says. */
export function describeAnswer(answer: { status: number; head: string } | null): string {
  if (!answer) return "no answer";
  const code = /"code"\s*:\s*"(\w+)"/.exec(answer.head)?.[1];
  const limit = /"limit"\s*:\s*"(\w+)"/.exec(answer.head)?.[1];
  const message = /"message"\s*:\s*"([^"]{0,80})/.exec(answer.head)?.[1];
  const what = code ? `${code}${limit ? ` (limit ${limit})` : ""}` : message ? `"${message}"` : answer.head.startsWith('{"data"') ? "data" : "";
  return `${answer.status}${what ? ` ${what}` : ""}`;
}
