// Waiting for the servers to finish their work between load runs. When a run ends, autocannon
// stops sending, but a server may still be working on the requests it had (a search that scans
// a network takes seconds on the floor and Platformatic), in its own process or in PostgreSQL:
// the next run, of another server, would share the CPU with that leftover work. Only the
// servers and their database are watched, so other load on the machine (a test run beside the
// bench's smoke test) does not hold the bench up.
import fs from "node:fs";
import pg from "pg";

/** CPU time a process has used so far, in clock ticks; null once it is gone (or not Linux). */
export function cpuTicks(pid: number): number | null {
  try {
    // The fields after the command name, which is in parentheses and may hold spaces.
    const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return null;
  }
}

/** Clock ticks per second on Linux (USER_HZ). */
export const ticksPerSecond = 100;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const windowMs = 250;
/** The ticks a process busy a tenth of the window uses. */
const busyTicks = (ticksPerSecond * windowMs) / 1000 / 10;

export interface Quiet {
  /** Returns once no server process used a tenth of a CPU over a quarter second and no other query runs (at most 30 s). */
  wait(): Promise<void>;
  close(): Promise<void>;
}

export async function watchServers(pids: number[], postgresUrl: string | null): Promise<Quiet> {
  const client = postgresUrl ? new pg.Client({ connectionString: postgresUrl }) : null;
  await client?.connect();
  const activeQueries = async () =>
    client
      ? Number(
          (
            await client.query(
              `SELECT count(*) AS n FROM pg_stat_activity
               WHERE state = 'active' AND backend_type = 'client backend' AND pid <> pg_backend_pid() AND datname = current_database()`,
            )
          ).rows[0].n,
        )
      : 0;
  return {
    async wait() {
      const until = Date.now() + 30_000;
      let before = pids.map(cpuTicks);
      while (Date.now() < until) {
        await sleep(windowMs);
        const after = pids.map(cpuTicks);
        const busy = after.some((ticks, i) => ticks !== null && before[i] !== null && ticks - before[i]! >= busyTicks);
        before = after;
        if (!busy && (await activeQueries()) === 0) return;
      }
    },
    close: async () => void (await client?.end()),
  };
}
