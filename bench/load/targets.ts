// The servers measured side by side on the same database: the service, the floor, and the peers
// of bench/peers (Platformatic DB, PostGraphile). Each runs as one process, so its peak RSS is that
// process's VmHWM.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { repoRoot } from "../lib/processes";

const peersDir = path.join(repoRoot, "bench", "peers");

/** The peers are installed only for the bench: `npm ci` in bench/peers. */
const installedInPeers = (packageName: string) => () => fs.existsSync(path.join(peersDir, "node_modules", packageName, "package.json"));
export const platformaticInstalled = installedInPeers("@platformatic/db");
export const postgraphileInstalled = installedInPeers("postgraphile");

export interface Peer {
  /** Its name in the report's columns and messages. */
  label: string;
  /** Its start script in bench/peers (`--database-url URL --port P`, then "listening on URL"). */
  script: string;
  installed: () => boolean;
  /** It runs on PostgreSQL only: not measured on SQLite. */
  postgresOnly: boolean;
}

/** The generic peers (bench/peers/README.md), in the order of the report's columns. */
export const peers = {
  platformatic: { label: "Platformatic", script: "start-platformatic.mjs", installed: platformaticInstalled, postgresOnly: false },
  postgraphile: { label: "PostGraphile", script: "start-postgraphile.mjs", installed: postgraphileInstalled, postgresOnly: true },
} as const satisfies Record<string, Peer>;

export type PeerName = keyof typeof peers;
export const peerNames = Object.keys(peers) as PeerName[];
export const isPeer = (name: TargetName): name is PeerName => name in peers;

/**
 * "release": the service of an earlier commit, checked out and installed (npm ci) in the folder
 * BENCH_RELEASE_DIR names, run as `npm start` runs it there: what a change costs, side by side.
 */
export type TargetName = "service" | "floor" | PeerName | "release";
/** Every target --targets may name; all but the release by default. */
export const targetNames: readonly TargetName[] = ["service", "floor", ...peerNames, "release"];

export interface RunningTarget {
  name: TargetName;
  url: string;
  pid: number;
  /** What it wrote up to its start line (the service names its metrics listener there). */
  startOutput: string;
  /** Peak resident memory so far, in MB (VmHWM). */
  peakRssMb(): number;
  stop(): Promise<void>;
}

const nodeWithTsx = ["--import", "tsx"];

/**
 * The service runs as `npm start` runs it (build, then node with the start script's flags); the
 * script ends in `exec node ...`, so the spawned shell becomes the server process whose memory
 * is measured.
 */
export function startScript(): string {
  const manifest = JSON.parse(fs.readFileSync(path.join(repoRoot, "package.json"), "utf8")) as { scripts: { start: string } };
  return manifest.scripts.start;
}

/** `npm start`'s node flags and environment (package.json), so the measured process runs as it does. */
export function npmStartNode(): { env: Record<string, string>; flags: string[] } {
  const script = startScript();
  const match = /&& ((?:[A-Z_]+=\S+ )*)exec node ((?:--\S+ )*)dist\/main\.js/.exec(script);
  if (!match) throw new Error(`the start script no longer ends in "exec node ... dist/main.js": ${script}`);
  const env = Object.fromEntries(
    match[1]
      .trim()
      .split(" ")
      .filter(Boolean)
      .map((assignment) => {
        const [name, value] = assignment.split("=");
        // ${NAME:-default}: the default.
        return [name, /^\$\{\w+:-(.*)\}$/.exec(value)?.[1] ?? value];
      }),
  );
  return { env, flags: match[2].trim().split(" ").filter(Boolean) };
}

function commandOf(
  name: TargetName,
  databaseUrl: string,
  port: number,
): { command: string; args: string[]; env: NodeJS.ProcessEnv; cwd: string } {
  switch (name) {
    case "release":
    case "service":
      return {
        command: "sh",
        args: ["-c", startScript()],
        // `node` in the script is the one running the bench.
        env: {
          DATABASE_URL: databaseUrl,
          PORT: String(port),
          RATE_LIMIT_PER_MINUTE: "0",
          PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? ""}`,
        },
        cwd: name === "release" ? releaseDir() : repoRoot,
      };
    case "floor":
      return {
        command: process.execPath,
        args: [...nodeWithTsx, "bench/floor.ts", "--database-url", databaseUrl, "--port", String(port)],
        env: {},
        cwd: repoRoot,
      };
    default:
      // A peer: its start script, run in bench/peers (its own node_modules).
      return {
        command: process.execPath,
        args: [peers[name].script, "--database-url", databaseUrl, "--port", String(port)],
        env: {},
        cwd: peersDir,
      };
  }
}

function releaseDir(): string {
  const dir = process.env.BENCH_RELEASE_DIR;
  if (!dir || !fs.existsSync(path.join(dir, "node_modules"))) {
    throw new Error("the release target needs BENCH_RELEASE_DIR: a checkout of the earlier commit with npm ci run in it (git worktree add DIR COMMIT)");
  }
  return path.resolve(dir);
}

/** The URL a server's "listening on" line names, and its output up to there (90 s at most). */
export function listeningUrl(name: string, child: ChildProcess): Promise<{ url: string; output: string }> {
  let output = "";
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not start:\n${output}`)), 90_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/[^\s)]+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({ url: match[1], output });
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.once("exit", (code) => reject(new Error(`${name} exited with ${code}:\n${output}`)));
  });
}

/**
 * A started server's output is drained from here on by a process of its own (into `logFile`, or
 * dropped), as a log collector reads a service's output, not by the bench: the service writes its
 * request log to stdout synchronously, so while the bench was busy sending load (its event loop
 * only reads the pipe between requests), a full pipe held the service's event loop for as long,
 * a cost of the bench, not of the log.
 */
export function drainOutput(child: ChildProcess, logFile: string | null): void {
  for (const stream of [child.stdout!, child.stderr!]) {
    stream.removeAllListeners("data");
    stream.pause();
    spawn("cat", [], { stdio: [stream, logFile ? fs.openSync(logFile, "a") : "ignore", "ignore"] });
  }
}

/**
 * Starts a server and resolves once it listens. `extraEnv` is added to its environment (the
 * observability bench runs the service with and without its logs and metrics); port 0: a free
 * one, which the service's start line names.
 */
export async function startTarget(name: TargetName, databaseUrl: string, port: number, extraEnv: NodeJS.ProcessEnv = {}): Promise<RunningTarget> {
  const { command, args, env, cwd } = commandOf(name, databaseUrl, port);
  const child: ChildProcess = spawn(command, args, { cwd, env: { ...process.env, ...env, ...extraEnv }, stdio: ["ignore", "pipe", "pipe"] });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const { url, output } = await listeningUrl(name, child);
  // With BENCH_SERVER_LOGS=DIR, its output is kept in DIR/<target>.log (when a server fails every
  // request, the bench itself only counts the failures).
  const logs = process.env.BENCH_SERVER_LOGS;
  const logFile = logs ? path.join(logs, `${name}.log`) : null;
  if (logFile) fs.writeFileSync(logFile, output);
  drainOutput(child, logFile);
  return {
    name,
    url,
    pid: child.pid!,
    startOutput: output,
    peakRssMb() {
      try {
        const status = fs.readFileSync(`/proc/${child.pid}/status`, "utf8");
        const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
        return Math.round(kb / 1024);
      } catch {
        return 0;
      }
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
}
