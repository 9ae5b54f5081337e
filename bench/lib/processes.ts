// Starting a server as a child process and waiting for its "listening on http://..." line,
// so bench scripts get the URL of a server that really accepts requests.
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";

export const repoRoot = path.resolve(__dirname, "..", "..");
export const tsxBin = path.join(repoRoot, "node_modules", ".bin", "tsx");

export interface RunningChild {
  url: string;
  child: ChildProcess;
  /** SIGTERM, then waits for the exit. */
  stop(): Promise<void>;
}

export function startServer(
  label: string,
  args: string[],
  env: NodeJS.ProcessEnv = {},
  timeoutMs = 60_000,
): Promise<RunningChild> {
  const child = spawn(tsxBin, args, { cwd: repoRoot, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    await exited;
  };
  let output = "";
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`${label} did not start within ${timeoutMs} ms:\n${output}`));
    }, timeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/[^\s)]+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({ url: match[1], child, stop });
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`${label} exited with ${code} before listening:\n${output}`));
    });
  });
}

/** Runs a bench script to completion and returns its stdout; stderr passes through when verbose. */
export function runScript(args: string[], { verbose = false } = {}): Promise<string> {
  const child = spawn(tsxBin, args, { cwd: repoRoot, stdio: ["ignore", "pipe", verbose ? "inherit" : "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.once("exit", (code) => (code === 0 ? resolve(stdout) : reject(new Error(`tsx ${args.join(" ")} exited with ${code}:\n${stderr}`))));
  });
}
