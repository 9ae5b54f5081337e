// The victim client, run as a process of its own (bench/abuse/victim.ts forks it): another
// network's connector reading vehicles by id, one request after another over one keep-alive
// connection. Its own process, so the attacker's work in the bench process (building 477 KB
// documents, draining 20 MB answers) never delays its clock or its requests.
//   argv: JSON { url, apiKey, ids, warmupMs, seconds }
// Messages to the parent: { type: "measuring" } once warmed up, then { type: "result", ... }.
import http from "node:http";
import { errorName, Tally } from "./tally";

interface Options {
  url: string;
  apiKey: string;
  ids: number[];
  warmupMs: number;
  seconds: number;
}

const options = JSON.parse(process.argv[2]) as Options;
const target = new URL(options.url);
// One connection: a second one would let the victim dodge a stalled socket.
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Outcome = { status: number } | { error: string };

function get(path: string, signal: AbortSignal): Promise<Outcome> {
  return new Promise((resolve) => {
    const request = http.get(
      { host: target.hostname, port: target.port, path, agent, signal, headers: { "x-api-key": options.apiKey, accept: "application/json" } },
      (response) => {
        response.resume();
        // Timed to the last byte of the answer, as a client that uses the vehicle would wait.
        response.once("close", () => resolve(response.complete ? { status: response.statusCode! } : { error: "answer cut" }));
      },
    );
    request.once("error", (error) => resolve({ error: errorName(error) }));
  });
}

/**
 * Sequential gets until the time is up; the request in flight then gets 2 s more to finish. The
 * latencies are those of the 200 answers; `longest` is the longest wait of any request, answered
 * or not, so a victim stuck behind a hung or dying server does not hide behind its few answers.
 */
async function run(ms: number, latencies: number[] | null, outcomes: Tally, longest = { ms: 0 }): Promise<void> {
  const end = performance.now() + ms;
  const graceMs = 2_000;
  for (let i = 0; performance.now() < end; i++) {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), Math.max(0, end - performance.now()) + graceMs);
    const startedAt = performance.now();
    const outcome = await get(`/vehicles/${options.ids[i % options.ids.length]}`, controller.signal);
    clearTimeout(timer);
    const ms = performance.now() - startedAt;
    longest.ms = Math.max(longest.ms, ms);
    if ("status" in outcome) {
      outcomes.add(outcome.status);
      if (outcome.status === 200) latencies?.push(ms);
    } else {
      outcomes.add(controller.signal.aborted ? "unanswered at end" : outcome.error);
      // A dead server refuses at once: do not spin the CPU the others are measured on.
      if (!controller.signal.aborted) await sleep(50);
    }
  }
}

async function main() {
  // Unmeasured warm-up: the fresh server process compiles its get-by-id path in the first few
  // hundred requests; without it the baseline's p99 would be its JIT warm-up.
  await run(options.warmupMs, null, new Tally());
  process.send!({ type: "measuring" });
  const latencies: number[] = [];
  const outcomes = new Tally();
  const longest = { ms: 0 };
  await run(options.seconds * 1000, latencies, outcomes, longest);
  process.send!({ type: "result", latencies, longestMs: longest.ms, outcomes: outcomes.toRecord() }, () => process.exit(0));
}

void main();
