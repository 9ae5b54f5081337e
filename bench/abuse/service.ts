// The service under attack, as `npm start` runs it: bundled once with scripts/build.mjs, then
// plain node with the start script's flags (the memory caps are the point of this bench). The
// node process is spawned directly, not through `sh -c`, so its pid is the one whose RSS the
// sampler reads and whose exit code and signal say how it died.
import { execFile, execFileSync, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { repoRoot } from "../lib/processes";

/**
 * The node flags of package.json's start script (`... exec node FLAGS dist/main.js`): read, not
 * copied, so the bench keeps running the service as npm start does if those caps change.
 */
export function startFlags(): string[] {
  const manifest = JSON.parse(fs.readFileSync(path.join(repoRoot, "package.json"), "utf8")) as { scripts?: { start?: string } };
  const match = /\bnode\s+((?:--\S+\s+)*)dist\/main\.js/.exec(manifest.scripts?.start ?? "");
  const flags = match?.[1].trim().split(/\s+/).filter(Boolean);
  if (!flags || flags.length === 0) throw new Error("package.json's start script no longer ends in `exec node FLAGS dist/main.js`: say here how to read its flags");
  return flags;
}

export function buildService(): void {
  execFileSync(process.execPath, ["scripts/build.mjs"], { cwd: repoRoot, stdio: "inherit" });
}

export interface ExitInfo {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface ServiceProcess {
  url: string;
  pid: number;
  /** Still running (no exit seen). */
  alive(): boolean;
  /** How it ended, once it has. */
  exit(): ExitInfo | null;
  /** The line that says why it died (V8's "FATAL ERROR: ..."), if it printed one. */
  fatalLine(): string | null;
  /** GET /healthz answered 200 within the time. */
  healthy(timeoutMs?: number): Promise<boolean>;
  /** SIGTERM (graceful), then SIGKILL if it has not exited within 5 s. */
  stop(): Promise<void>;
}

/** Every server started, so an interrupted bench leaves none behind. */
const running = new Set<ChildProcess>();
process.once("exit", () => {
  for (const child of running) child.kill("SIGKILL");
});

export function startService(env: NodeJS.ProcessEnv, timeoutMs = 60_000): Promise<ServiceProcess> {
  // PORT 0: a free port each start; the "listening on" line names it.
  const child = spawn(process.execPath, [...startFlags(), "dist/main.js"], {
    cwd: repoRoot,
    env: { ...process.env, HOST: "127.0.0.1", PORT: "0", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  running.add(child);
  let exitInfo: ExitInfo | null = null;
  const exited = new Promise<void>((resolve) =>
    child.once("exit", (code, signal) => {
      exitInfo = { code, signal };
      running.delete(child);
      resolve();
    }),
  );
  // The output is kept short (its last 16 KB): a dying V8 prints its reason last.
  let output = "";
  const onData = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-16_384);
  };
  child.stdout!.on("data", onData);
  child.stderr!.on("data", onData);

  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`the service did not start within ${timeoutMs} ms:\n${output}`));
    }, timeoutMs);
    const watch = setInterval(() => {
      const match = /listening on (http:\/\/[^\s)]+)/.exec(output);
      if (!match) return;
      clearInterval(watch);
      clearTimeout(timer);
      const url = match[1];
      resolve({
        url,
        pid: child.pid!,
        alive: () => exitInfo === null,
        exit: () => exitInfo,
        fatalLine: () => /^.*(FATAL ERROR|out of memory|Uncaught|RangeError).*$/m.exec(output)?.[0].trim() ?? null,
        async healthy(ms = 5_000) {
          try {
            const response = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(ms) });
            await response.arrayBuffer();
            return response.status === 200;
          } catch {
            return false;
          }
        },
        async stop() {
          if (exitInfo) return;
          child.kill("SIGTERM");
          const killer = setTimeout(() => child.kill("SIGKILL"), 5_000);
          await exited;
          clearTimeout(killer);
        },
      });
    }, 20);
    child.once("exit", (code, signal) => {
      clearInterval(watch);
      clearTimeout(timer);
      reject(new Error(`the service exited (${signal ?? code}) before listening:\n${output}`));
    });
  });
}

/** How a dead server ended, for the table: "SIGABRT, heap out of memory". */
export function describeExit(service: ServiceProcess): string {
  const exit = service.exit();
  if (!exit) return "running";
  const how = exit.signal ?? `exit ${exit.code}`;
  const fatal = service.fatalLine();
  if (!fatal) return how;
  return `${how}, ${/heap out of memory/.test(fatal) ? "heap out of memory" : fatal.slice(0, 100)}`;
}

const run = promisify(execFile);

/** The admin command (dist/admin.js) on the bench's database; it prints JSON. */
export async function admin(args: string[], env: NodeJS.ProcessEnv): Promise<unknown> {
  const { stdout } = await run(process.execPath, ["dist/admin.js", ...args], { cwd: repoRoot, env: { ...process.env, ...env } });
  return JSON.parse(stdout);
}
