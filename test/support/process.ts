// Runs the service (or the admin command) as a real child process, as a user would.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import net from "node:net";
import path from "node:path";

export const repoRoot = path.resolve(__dirname, "..", "..");
const tsx = path.join(repoRoot, "node_modules", ".bin", "tsx");

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export interface ServiceProcess {
  url: string;
  child: ChildProcess;
  output(): string;
  /** Sends a signal and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Starts `src/main.ts` with the given environment; resolves once it listens. */
export async function startServiceProcess(env: Record<string, string>, timeoutMs = 20_000): Promise<ServiceProcess> {
  const port = await freePort();
  // node with tsx's loader, not tsx's own binary: that one runs the service in a child process of
  // its own, which a SIGKILL of the parent would leave running.
  const child = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
    cwd: repoRoot,
    env: { ...process.env, HOST: "127.0.0.1", PORT: String(port), ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  return serviceListening(child, port, timeoutMs);
}

/**
 * A service started as `child` (stdout and stderr piped), listening on 127.0.0.1:`port`; resolves
 * once it says so, rejects when it exits first or takes longer than `timeoutMs`.
 */
export async function serviceListening(child: ChildProcess, port: number, timeoutMs = 20_000): Promise<ServiceProcess> {
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));

  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`service did not start:\n${output}`)), timeoutMs);
    const check = () => {
      if (output.includes("listening on")) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on("data", check);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`service exited with ${code}:\n${output}`));
    });
  });

  return {
    url: `http://127.0.0.1:${port}`,
    child,
    output: () => output,
    stop(signal = "SIGTERM") {
      if (child.exitCode === null) child.kill(signal);
      return exited;
    },
  };
}

/**
 * Runs the admin command without blocking this process (a server in it keeps answering), with
 * only the database settings given; resolves with its exit code, stdout and stderr.
 */
export function runAdminAsync(args: string[], env: Record<string, string>): Promise<FinishedProcess> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env };
  delete childEnv.DATABASE_URL;
  delete childEnv.DATA_DIR;
  return finished(spawn(process.execPath, ["--import", "tsx", "src/admin/main.ts", ...args], { cwd: repoRoot, env: { ...childEnv, ...env } }));
}

export interface FinishedProcess {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** A child's exit code and everything it wrote, once it has ended. */
export function finished(child: ChildProcess): Promise<FinishedProcess> {
  return new Promise((resolve, reject) => {
    let stdout = "";
    let stderr = "";
    child.stdout!.on("data", (chunk) => (stdout += chunk));
    child.stderr!.on("data", (chunk) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** Runs the admin command; returns its exit code, stdout and stderr. */
export function runAdmin(args: string[], env: Record<string, string>) {
  const result = spawnSync(tsx, ["src/admin/main.ts", ...args], {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    encoding: "utf8",
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/**
 * What `npm start` and `npm run admin` need to run on this machine's Node: outside package.json's
 * "engines" (a developer's Node 20) their version check refuses to start unless
 * ALLOW_UNSUPPORTED_NODE=1. Asked of the check itself, run by the `node` those scripts run.
 */
export function unsupportedNodeAllowance(): Record<string, string> {
  const check = spawnSync("node", ["scripts/check-node.mjs"], { cwd: repoRoot });
  return check.status === 0 ? {} : { ALLOW_UNSUPPORTED_NODE: "1" };
}
