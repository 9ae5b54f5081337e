// A PostgreSQL server of the test's own, which the test may stop and start (outage tests).
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort } from "./process";

/** Folder of PostgreSQL's server binaries: PG_BIN, or the newest Debian install. */
export function postgresBin(): string | null {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const root = "/usr/lib/postgresql";
  if (!fs.existsSync(root)) return null;
  const versions = fs.readdirSync(root).sort((a, b) => Number(b) - Number(a));
  const bin = versions.map((version) => path.join(root, version, "bin")).find((dir) => fs.existsSync(path.join(dir, "initdb")));
  return bin ?? null;
}

export interface PostgresCluster {
  url: string;
  stop(): void;
  start(): void;
  destroy(): void;
}

/** initdb refuses to run as root: run the server binaries as the postgres user then. */
function run(bin: string, args: string[]) {
  const asRoot = process.getuid?.() === 0;
  const [command, commandArgs] = asRoot ? ["runuser", ["-u", "postgres", "--", bin, ...args]] : [bin, args];
  execFileSync(command, commandArgs, { stdio: "pipe" });
}

export async function createPostgresCluster(): Promise<PostgresCluster> {
  const bin = postgresBin();
  if (!bin) throw new Error("PostgreSQL server binaries not found (set PG_BIN)");
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "vrd-pg-"));
  if (process.getuid?.() === 0) execFileSync("chown", ["postgres", dir]);
  const port = await freePort();
  const dataDir = path.join(dir, "data");
  run(path.join(bin, "initdb"), ["-D", dataDir, "-U", "postgres", "--auth=trust"]);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1`;
  const cluster: PostgresCluster = {
    url: `postgresql://postgres@127.0.0.1:${port}/postgres`,
    start: () => run(path.join(bin, "pg_ctl"), ["-D", dataDir, "-l", path.join(dir, "log"), "-o", options, "-w", "start"]),
    stop: () => run(path.join(bin, "pg_ctl"), ["-D", dataDir, "-m", "fast", "-w", "stop"]),
    destroy() {
      try {
        run(path.join(bin, "pg_ctl"), ["-D", dataDir, "-m", "immediate", "-w", "stop"]);
      } catch {
        // already stopped
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  cluster.start();
  return cluster;
}
