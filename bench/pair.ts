// Two builds of the service side by side: both serve the same request at the same fixed rate, at
// the same time, and each one's CPU per request is read from /proc, round after round. On this
// machine a server's CPU per request swings by tens of percent within minutes, and two builds
// measured one after the other differ by that much with no change at all; measured at the same
// time they swing together, so their ratio shows a change of a few percent (docs/performance.md,
// "How the bench runs").
//
//   tsx bench/pair.ts --a DIR --b DIR --database-url URL [--b-database-url URL] --key KEY
//                     --path /vehicles [--method POST --body JSON] [--rate 1000] [--seconds 6] [--rounds 6]
//                     [--b-node-flags "--flag=value ..."]
//
// A body is sent as JSON; each `[<id>]` in it becomes an id new in each request of the run.
// Writes to one SQLite file take turns for its one writer across both processes, which makes
// their rounds swing apart: give b a copy of its own (--b-database-url; the same key holds in a
// copy), and the writes an owner the bench removes afterwards (`Bench Owner`, bench/load/scenarios.ts).
//
// --b-node-flags: node flags b runs with besides `npm start`'s (a later flag wins), to compare a
// flag on one build: --a dist --b dist --b-node-flags "--min-semi-space-size=16".
//
// DIR is a built bundle (the dist/ of a checkout after `npm run build`, copied aside), run with
// `npm start`'s node flags and environment. The first round warms both up and is not counted.
import { spawn, type ChildProcess } from "node:child_process";
import autocannon from "autocannon";
import { parseFlags, UsageError } from "./lib/args";
import { cpuTicks, ticksPerSecond } from "./load/quiet";
import { drainOutput, listeningUrl, npmStartNode } from "./load/targets";

interface Server {
  url: string;
  pid: number;
  child: ChildProcess;
}

async function start(dir: string, databaseUrl: string, extraFlags: string[]): Promise<Server> {
  const { env, flags } = npmStartNode();
  const child = spawn(process.execPath, [...flags, ...extraFlags, `${dir}/main.js`], {
    // PORT 0: a free port each, named in the start line.
    env: { ...process.env, ...env, DATABASE_URL: databaseUrl, PORT: "0", RATE_LIMIT_PER_MINUTE: "0" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const { url } = await listeningUrl(dir, child);
  // The request log is drained by a process of its own, as the bench's servers' is.
  drainOutput(child, null);
  return { url, pid: child.pid!, child };
}

const methods = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
type Method = (typeof methods)[number];
const isMethod = (name: string): name is Method => (methods as readonly string[]).includes(name);

/** What every request of a round sends. */
interface PairRequest {
  path: string;
  key: string;
  method: Method;
  body: string | undefined;
}

let sentIds = 0;
const nextId = () => `${process.pid}-${++sentIds}`;

/** One round on one server: its CPU per answered request, in µs. */
async function round(server: Server, request: PairRequest, rate: number, seconds: number): Promise<{ usPerRequest: number; failures: number }> {
  const before = cpuTicks(server.pid)!;
  const headers: Record<string, string> = { "x-api-key": request.key };
  if (request.body !== undefined) headers["content-type"] = "application/json";
  const result = await autocannon({
    url: server.url,
    // The body made per request, not autocannon's idReplacement: that one sets Content-Length
    // for ids of 27 characters, and its ids grow longer, so a server waits for bytes never sent.
    requests: [{ method: request.method, path: request.path, setupRequest: (sent) => ({ ...sent, body: request.body?.replaceAll("[<id>]", nextId()) }) }],
    connections: 10,
    overallRate: rate,
    duration: seconds,
    headers,
  });
  const ticks = cpuTicks(server.pid)! - before;
  if (result.requests.total === 0) throw new Error(`no answers from ${server.url} in ${seconds} s`);
  return { usPerRequest: (ticks * 1e6) / ticksPerSecond / result.requests.total, failures: result.non2xx + result.errors };
}

async function main() {
  const flags = parseFlags(process.argv.slice(2), {
    a: "string",
    b: "string",
    "database-url": "string",
    "b-database-url": "string",
    key: "string",
    path: "string",
    method: "string",
    body: "string",
    rate: "integer",
    seconds: "integer",
    rounds: "integer",
    "b-node-flags": "string",
  });
  for (const name of ["a", "b", "database-url", "key", "path"]) if (typeof flags[name] !== "string") throw new UsageError(`--${name} is required`);
  const [rate, seconds, rounds] = [Number(flags.rate ?? 1000), Number(flags.seconds ?? 6), Number(flags.rounds ?? 6)];
  const method = String(flags.method ?? "GET").toUpperCase();
  if (!isMethod(method)) throw new UsageError(`--method ${method}: one of ${methods.join(", ")}`);
  const request: PairRequest = {
    path: String(flags.path),
    key: String(flags.key),
    method,
    body: flags.body === undefined ? undefined : String(flags.body),
  };
  const dirs = [String(flags.a), String(flags.b)];
  const databaseUrls = [String(flags["database-url"]), String(flags["b-database-url"] ?? flags["database-url"])];
  const nodeFlags = [[], String(flags["b-node-flags"] ?? "").split(" ").filter(Boolean)];
  const servers = await Promise.all(dirs.map((dir, i) => start(dir, databaseUrls[i], nodeFlags[i])));
  try {
    const ratios: number[] = [];
    for (let i = 0; i < rounds; i++) {
      const [a, b] = await Promise.all(servers.map((server) => round(server, request, rate, seconds)));
      if (a.failures + b.failures > 0) throw new Error(`answers outside 2xx: a ${a.failures}, b ${b.failures}`);
      if (i > 0) ratios.push(b.usPerRequest / a.usPerRequest);
      console.log(`round ${i + 1}${i === 0 ? " (warm-up)" : ""}: a ${a.usPerRequest.toFixed(0)} us/request, b ${b.usPerRequest.toFixed(0)} us/request, b/a ${(b.usPerRequest / a.usPerRequest).toFixed(3)}`);
    }
    const mean = ratios.reduce((sum, ratio) => sum + ratio, 0) / ratios.length;
    console.log(`b/a CPU per request, mean of ${ratios.length} rounds: ${mean.toFixed(3)} (lowest ${Math.min(...ratios).toFixed(3)}, highest ${Math.max(...ratios).toFixed(3)})`);
  } finally {
    for (const server of servers) server.child.kill("SIGTERM");
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof UsageError ? error.message : error);
  process.exit(1);
});
