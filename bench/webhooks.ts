// The webhooks issue's bench: delivery lag at a steady event rate, and what delivering costs the
// API's reads. The service as `npm start` runs it (one process), a receiver on 127.0.0.1 in a
// process of its own answering at once (./lib/webhookReceiver.mjs).
//   npm run bench:webhooks -- [--postgres-url URL] [--events-per-second 200] [--duration 20]
//                             [--webhooks 20] [--rounds 3] [--round-seconds 8] [--out FILE]
// Lag: one standard webhook; vehicles created at a steady rate; an event's lag is the time from its
// occurredAt (taken in the change's transaction, just before commit) to its arrival at the receiver.
// Reads: get by id and the list page (autocannon, 8 connections), while writes go on at
// `--background-writes` per second, in rounds that alternate between no webhook and `--webhooks`
// webhooks of the network (deleted and made anew each round, so none starts with a backlog).
import { fork } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { parseFlags, runMain } from "./lib/args";
import { request } from "./lib/http";
import { createDatabase } from "./lib/databases";
import { repoRoot } from "./lib/processes";
import { startTarget, type RunningTarget } from "./load/targets";
import { measureWithCpu, percentile, summarize, type LoadSample } from "./load/measure";
import { cpuTicks, ticksPerSecond } from "./load/quiet";
import { migrate } from "../src/db/migrate";
import { openDatabase } from "../src/db/client";
import { createNetwork } from "../src/admin/networks";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const round = (value: number) => Math.round(value * 100) / 100;

/** The id of the webhook a createWebhook made. */
interface Created {
  createWebhook: { webhook: { id: number } };
}

async function graphql<Data>(url: string, apiKey: string, query: string, variables: Record<string, unknown> = {}): Promise<Data> {
  const answer = await request(`${url}/graphql`, apiKey, "POST", { query, variables });
  const body = JSON.parse(answer.text) as { data?: Data; errors?: unknown[] };
  if (body.errors || !body.data) throw new Error(`GraphQL: ${JSON.stringify(body.errors)}`);
  return body.data;
}

/** The receiver (./lib/webhookReceiver.mjs) in a process of its own: its URL, and what has arrived so far. */
async function receiver() {
  const child = fork(path.join(repoRoot, "bench", "lib", "webhookReceiver.mjs"), [], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
  // Each wait removes both its listeners once settled: the bench asks for stats many times.
  const next = <T>(type: string) =>
    new Promise<T>((resolve, reject) => {
      const onMessage = (message: { type: string } & T) => {
        if (message.type !== type) return;
        done();
        resolve(message);
      };
      const onExit = (code: number | null) => {
        done();
        reject(new Error(`the webhook receiver exited with ${code}`));
      };
      const done = () => {
        child.off("message", onMessage);
        child.off("exit", onExit);
      };
      child.on("message", onMessage);
      child.once("exit", onExit);
    });
  const { port } = await next<{ port: number }>("listening");
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    stats: () => {
      const answer = next<{ arrivals: number; lags: number[] }>("stats");
      child.send({ type: "stats" });
      return answer;
    },
    close: () => {
      const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
      child.kill();
      return exited;
    },
  };
}

/** Creates vehicles at `perSecond` until stopped; answers how many were refused. */
function steadyWrites(url: string, apiKey: string, perSecond: number, prefix: string) {
  let stopped = false;
  let refused = 0;
  let written = 0;
  const done = (async () => {
    const started = Date.now();
    const pending: Promise<unknown>[] = [];
    for (let i = 0; !stopped; i++) {
      const wait = started + (i * 1000) / perSecond - Date.now();
      if (wait > 0) await sleep(wait);
      pending.push(request(`${url}/vehicles`, apiKey, "POST", { plate: `${prefix}-${i}` }).then((answer) => (answer.status === 201 ? written++ : refused++)));
    }
    await Promise.all(pending);
  })();
  return {
    async stop() {
      stopped = true;
      await done;
      return { written, refused };
    },
  };
}

async function main() {
  const flags = parseFlags(process.argv.slice(2), {
    "postgres-url": "string",
    "events-per-second": "integer",
    duration: "number",
    webhooks: "integer",
    rounds: "integer",
    "round-seconds": "number",
    "background-writes": "integer",
    out: "string",
  });
  const postgres = (flags["postgres-url"] as string | undefined) ?? null;
  const rate = (flags["events-per-second"] as number | undefined) ?? 200;
  const durationS = (flags.duration as number | undefined) ?? 20;
  const webhookCount = (flags.webhooks as number | undefined) ?? 20;
  const rounds = (flags.rounds as number | undefined) ?? 3;
  const roundSeconds = (flags["round-seconds"] as number | undefined) ?? 8;
  const backgroundWrites = (flags["background-writes"] as number | undefined) ?? 20;
  const database = await createDatabase(postgres);
  const lines: string[] = [];
  const say = (line: string) => {
    lines.push(line);
    console.error(line);
  };
  let server: RunningTarget | null = null;
  const sink = await receiver();
  try {
    await migrate(database.url);
    const setup = await openDatabase(database.url);
    const lagNetwork = await createNetwork(setup, { name: "Webhook lag", identifierType: "steam", graceSeconds: 0 }, new Date());
    const readNetwork = await createNetwork(setup, { name: "Webhook reads", identifierType: "steam", graceSeconds: 0 }, new Date());
    await setup.close();
    // As `npm start` runs it (its bundle, node flags and malloc arenas), not from the sources.
    server = await startTarget("service", database.url, 0, { LOG_LEVEL: "warn", WEBHOOK_ALLOWED_HOSTS: "127.0.0.1" });
    const url = server.url;

    // Lag at a steady rate.
    const lagKey = lagNetwork.apiKey;
    await graphql(url, lagKey, `mutation ($url: String!) { createWebhook(input: { url: $url, types: ["vehicle.created"] }) { webhook { id } } }`, { url: `${sink.url}/lag` });
    const writes = steadyWrites(url, lagKey, rate, "LAG");
    await sleep(durationS * 1000);
    const { written, refused } = await writes.stop();
    let arrived = await sink.stats();
    for (let waited = 0; arrived.arrivals < written && waited < 10_000; waited += 100) {
      await sleep(100);
      arrived = await sink.stats();
    }
    const { arrivals, lags } = arrived;
    const sorted = [...lags].sort((a, b) => a - b);
    say(`| events written (vehicle.created, ${rate}/s for ${durationS} s) | ${written}, ${refused} refused |`);
    say(`| delivered to one webhook | ${arrivals} of ${written} |`);
    say(`| lag from commit to delivery, p50 / p99 / max | ${percentile(sorted, 50)} / ${percentile(sorted, 99)} / ${sorted.at(-1)} ms |`);

    const readKey = readNetwork.apiKey;
    const makeWebhooks = async (prefix: string): Promise<number[]> => {
      const made: number[] = [];
      for (let w = 0; w < webhookCount; w++) {
        const created = await graphql<Created>(url, readKey, `mutation ($url: String!) { createWebhook(input: { url: $url }) { webhook { id } } }`, {
          url: `${sink.url}/${prefix}-${w}`,
        });
        made.push(created.createWebhook.webhook.id);
      }
      return made;
    };
    const deleteWebhooks = async (made: number[]) => {
      for (const id of made) await graphql(url, readKey, `mutation ($id: ID!) { deleteWebhook(id: $id) { id } }`, { id });
    };

    // What a delivery costs the service's process, without reads: CPU over a stretch of
    // background writes with no webhook, then with them (the difference, per delivery).
    const cpuOverWrites = async (variant: string) => {
      const arrivedBefore = (await sink.stats()).arrivals;
      const [serviceBefore, receiverBefore] = [cpuTicks(server!.pid), cpuTicks(sink.pid)];
      const background = steadyWrites(url, readKey, backgroundWrites, `CPU${variant}`);
      await sleep(roundSeconds * 1000);
      await background.stop();
      await sleep(500);
      const [serviceAfter, receiverAfter] = [cpuTicks(server!.pid), cpuTicks(sink.pid)];
      return {
        serviceMs: ((serviceAfter! - serviceBefore!) * 1000) / ticksPerSecond,
        receiverMs: ((receiverAfter! - receiverBefore!) * 1000) / ticksPerSecond,
        arrivals: (await sink.stats()).arrivals - arrivedBefore,
      };
    };
    const quietCost = await cpuOverWrites("without");
    const costWebhooks = await makeWebhooks("cost");
    const deliveringCost = await cpuOverWrites("with");
    await deleteWebhooks(costWebhooks);
    const perDelivery = (deliveringCost.serviceMs - quietCost.serviceMs) / Math.max(1, deliveringCost.arrivals);
    say(`| the service's CPU over ${roundSeconds} s of ${backgroundWrites} writes/s, without webhooks / with ${webhookCount} (deliveries) | ${quietCost.serviceMs} / ${deliveringCost.serviceMs} ms (${deliveringCost.arrivals}) |`);
    say(`| the service's CPU per delivery (the difference over the deliveries); the receiver's per arrival | ${Math.round(perDelivery * 1000)} µs; ${Math.round((deliveringCost.receiverMs * 1000) / Math.max(1, deliveringCost.arrivals))} µs |`);

    // Reads with and without webhooks delivering, alternating rounds.
    const ids: number[] = [];
    for (let i = 0; i < 200; i++) ids.push(JSON.parse((await request(`${url}/vehicles`, readKey, "POST", { plate: `R-${i}`, owner: "Bench" })).text).data.id);
    const scenarios = {
      "get by id": { method: "GET" as const, path: (i: number) => `/vehicles/${ids[i % ids.length]}` },
      "list page": { method: "GET" as const, path: (i: number) => `/vehicles?page=${(i % 5) + 1}&per_page=15` },
    };
    const samples: Record<string, { without: LoadSample[]; with: LoadSample[] }> = {};
    for (const name of Object.keys(scenarios)) samples[name] = { without: [], with: [] };
    let delivering = 0;
    for (let r = 0; r < rounds; r++) {
      for (const variant of ["without", "with"] as const) {
        const made = variant === "with" ? await makeWebhooks("read") : [];
        const arrivedBefore = (await sink.stats()).arrivals;
        const background = steadyWrites(url, readKey, backgroundWrites, `BG${r}${variant}`);
        for (const [name, scenario] of Object.entries(scenarios)) {
          samples[name][variant].push(await measureWithCpu(server.pid, url, readKey, scenario, { connections: 8, durationSeconds: roundSeconds }));
        }
        await background.stop();
        if (variant === "with") delivering += (await sink.stats()).arrivals - arrivedBefore;
        await deleteWebhooks(made);
      }
    }
    for (const [name, { without, with: withWebhooks }] of Object.entries(samples)) {
      const a = summarize(without);
      const b = summarize(withWebhooks);
      say(`| ${name}: req/s without webhooks / with ${webhookCount} delivering (ratio) | ${a.requestsPerSecond} / ${b.requestsPerSecond} (${round(b.requestsPerSecond / a.requestsPerSecond)}x), failures ${a.failures + b.failures} |`);
      say(`| ${name}: the service's CPU per request without / with webhooks (both: reads, writes, deliveries) | ${a.cpuUsPerRequest} / ${b.cpuUsPerRequest} µs |`);
    }
    say(`| deliveries while reading (${webhookCount} webhooks, ${backgroundWrites} writes/s) | ${delivering} |`);
  } finally {
    await server?.stop();
    await sink.close();
    await database.drop();
  }
  const table = [`# Webhooks bench (${postgres ? "PostgreSQL" : "SQLite"}, 1 process)`, "", "| measure | result |", "|---|---|", ...lines, ""].join("\n");
  console.log(table);
  const out = flags.out as string | undefined;
  if (out) fs.writeFileSync(path.resolve(repoRoot, out), table);
}

runMain(main);
