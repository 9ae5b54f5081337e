// The events issue's bench: fan-out of live events, an idle subscriber's memory, and the audit
// query over a large log. The service as `npm start` runs it (one process, or two on PostgreSQL).
//   npm run bench:events -- [--postgres-url URL] [--processes 1|2] [--networks 10] [--per-network 100]
//                           [--writes-per-second 200] [--duration 20] [--events 1000000] [--out FILE]
// Fan-out: subscribers (SSE) of every network on the first process; vehicles created at a steady
// rate, spread over the networks, on the last process; an event's delay is the time from its
// occurredAt (taken in the change's transaction, just before commit) to its arrival, on the same
// machine's clock. Memory: the first process's RSS before and after the subscribers connect, idle.
// Audit: `GET /events?subject_type=vehicle&subject_id=...` in a network with `--events` events.
import fs from "node:fs";
import path from "node:path";
import { parseFlags, runMain } from "./lib/args";
import { request } from "./lib/http";
import { createDatabase } from "./lib/databases";
import { repoRoot, startServer, type RunningChild } from "./lib/processes";
import { subscribe, type Subscriber } from "./events/sse";
import { migrate } from "../src/db/migrate";
import { openDatabase } from "../src/db/client";
import { createNetwork } from "../src/admin/networks";
import { Prisma } from "../src/generated/prisma/client";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const percentile = (sorted: number[], p: number) => (sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]);
const round = (value: number) => Math.round(value * 10) / 10;

/** The RSS of the service: the largest process of the tree (tsx runs the service in a child of its own). */
function rssKib(pid: number): number {
  const own = Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
  let children: number[] = [];
  try {
    children = fs.readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    // gone
  }
  return Math.max(own, ...children.map(rssKib));
}


async function main() {
  const flags = parseFlags(process.argv.slice(2), {
    "postgres-url": "string",
    processes: "integer",
    networks: "integer",
    "per-network": "integer",
    "writes-per-second": "integer",
    duration: "number",
    events: "integer",
    out: "string",
  });
  const postgres = (flags["postgres-url"] as string | undefined) ?? null;
  const processes = (flags.processes as number | undefined) ?? 1;
  if (processes > 1 && !postgres) throw new Error("--processes 2 needs --postgres-url: several processes share a PostgreSQL database");
  const networks = (flags.networks as number | undefined) ?? 10;
  const perNetwork = (flags["per-network"] as number | undefined) ?? 100;
  const rate = (flags["writes-per-second"] as number | undefined) ?? 200;
  const durationS = (flags.duration as number | undefined) ?? 20;
  const eventCount = (flags.events as number | undefined) ?? 1_000_000;
  const database = await createDatabase(postgres);
  const lines: string[] = [];
  const say = (line: string) => {
    lines.push(line);
    console.error(line);
  };
  const servers: RunningChild[] = [];
  const subscribers: Subscriber[] = [];
  try {
    await migrate(database.url);
    const setup = await openDatabase(database.url);
    const keys: { id: number; apiKey: string }[] = [];
    for (let i = 0; i < networks; i++) {
      const created = await createNetwork(setup, { name: `Events bench ${i}`, identifierType: "steam", graceSeconds: 0 }, new Date());
      keys.push({ id: created.network.id, apiKey: created.apiKey });
    }
    const env = {
      DATABASE_URL: database.url,
      PORT: "0",
      LOG_LEVEL: "warn",
      KEY_MAX_SUBSCRIPTIONS: String(perNetwork + 10),
      MAX_SUBSCRIPTIONS: String(networks * perNetwork + 100),
      HTTP_MAX_CONNECTIONS: String(networks * perNetwork + 500),
      RATE_LIMIT_PER_MINUTE: "0",
    };
    for (let i = 0; i < processes; i++) servers.push(await startServer(`service ${i + 1}`, ["src/main.ts"], env));
    const [reader] = servers;
    const writer = servers[servers.length - 1];
    await sleep(2_000);
    const before = rssKib(reader.child.pid!);

    // Fan-out.
    const delays: number[] = [];
    let delivered = 0;
    for (const key of keys) {
      for (let i = 0; i < perNetwork; i++) {
        subscribers.push(
          await subscribe(reader.url, key.apiKey, "subscription { events { sequence occurredAt } }", (result) => {
            if (!result.data) return;
            delivered++;
            delays.push(Date.now() - Date.parse(result.data.events.occurredAt));
          }),
        );
      }
    }
    await sleep(3_000);
    const after = rssKib(reader.child.pid!);
    say(`| idle subscriber (RSS of the process / subscribers) | ${round((after - before) / subscribers.length)} KiB (${Math.round(before / 1024)} MB → ${Math.round(after / 1024)} MB for ${subscribers.length}) |`);

    const writes = Math.round(rate * durationS);
    const started = Date.now();
    const pending: Promise<unknown>[] = [];
    let refused = 0;
    for (let i = 0; i < writes; i++) {
      const due = started + (i * 1000) / rate;
      const wait = due - Date.now();
      if (wait > 0) await sleep(wait);
      const key = keys[i % keys.length];
      pending.push(request(`${writer.url}/vehicles`, key.apiKey, "POST", { plate: `EV-${i}` }).then((answer) => answer.status === 201 || refused++));
    }
    await Promise.all(pending);
    const writeSeconds = (Date.now() - started) / 1000;
    for (let waited = 0; delivered < writes * perNetwork && waited < 10_000; waited += 100) await sleep(100);
    delays.sort((a, b) => a - b);
    const where = processes > 1 ? `across ${processes} processes (subscribers on one, writes on another)` : "in one process";
    say(`| writes | ${writes} in ${round(writeSeconds)} s (${round(writes / writeSeconds)}/s), ${refused} refused |`);
    say(`| events delivered | ${delivered} of ${writes * perNetwork} |`);
    say(`| commit to delivery ${where}, p50 / p99 / max | ${percentile(delays, 50)} / ${percentile(delays, 99)} / ${delays[delays.length - 1]} ms |`);
    for (const each of subscribers.splice(0)) each.close();

    // The audit query over a large log: `--events` events of the first network, one vehicle's among them.
    const target = keys[0];
    const insert =
      setup.provider === "postgresql"
        ? Prisma.sql`INSERT INTO events (network_id, sequence, type, occurred_at, actor_kind, actor_key_id, actor_key_name, subject_type, subject_id, data)
            SELECT ${target.id}, 1000000 + g, 'vehicle.updated', now() - (g || ' seconds')::interval, 'key', 1, 'bench', 'vehicle', (g % 1000)::text, '{}'
            FROM generate_series(1, ${eventCount}) g`
        : Prisma.sql`WITH RECURSIVE g(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM g WHERE n < ${eventCount})
            INSERT INTO events (network_id, sequence, type, occurred_at, actor_kind, actor_key_id, actor_key_name, subject_type, subject_id, data)
            SELECT ${target.id}, 1000000 + n, 'vehicle.updated', '2026-01-01T00:00:00.000+00:00', 'key', 1, 'bench', 'vehicle', CAST(n % 1000 AS TEXT), '{}' FROM g`;
    await setup.write.execute(insert);
    if (setup.provider === "postgresql") await setup.write.execute(Prisma.sql`ANALYZE events`);
    const times: number[] = [];
    for (let i = 0; i < 200; i++) {
      const t0 = performance.now();
      const answer = await request(`${reader.url}/events?subject_type=vehicle&subject_id=${i % 1000}`, target.apiKey, "GET");
      times.push(performance.now() - t0);
      if (answer.status !== 200) throw new Error(`GET /events answered ${answer.status}: ${answer.text}`);
    }
    times.sort((a, b) => a - b);
    say(`| audit query "changes of one vehicle" (${eventCount.toLocaleString("en-US")} events, ${(eventCount / 1000).toLocaleString("en-US")} of the vehicle), p50 / p99 | ${round(percentile(times, 50))} / ${round(percentile(times, 99))} ms |`);
    await setup.close();
  } finally {
    for (const each of subscribers) each.close();
    for (const server of servers) await server.stop();
    await database.drop();
  }
  const table = [`# Events bench (${postgres ? "PostgreSQL" : "SQLite"}, ${processes} process${processes > 1 ? "es" : ""})`, "", "| measure | result |", "|---|---|", ...lines, ""].join("\n");
  console.log(table);
  const out = flags.out as string | undefined;
  if (out) fs.writeFileSync(path.resolve(repoRoot, out), table);
}

runMain(main);
