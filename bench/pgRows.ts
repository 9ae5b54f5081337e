// What pg's internals (src/db/postgres/pgInternals.ts) buy the service's reads on PostgreSQL,
// measured A/B in one process (issue 34; figures in docs/performance.md, "reads as pg queries
// with array rows"):
//   A  the service's reads (src/db/postgres/reads.ts: pg Queries with array rows, pg internals);
//   B  the same reads through pg's public API only: a query config with `rowMode: "array"` and
//      the same `types` (instants, numeric, date and JSON as text), pool.query and, for reads by
//      key, client.query on a pipelined pg.Client; the row objects made from the arrays alike.
// Pages: A runs them with their generic plan (ReadSql.page), B as plain reads; what is measured
// is this process's CPU, which PostgreSQL's plan does not change.
// Both run on the same pool (same connections and named statements) and the same data; B is
// first checked to read what A reads, value and type. The service runs twice on node:http
// (src/server/httpServer.ts, with its request log written to /dev/null), once per read path
// (src/db/client.ts overPaths), and a child process sends the requests, so that the CPU measured
// is the server's. Rounds alternate the order (A then B, B then A) so that the machine's noise
// (the other core busy, GC, frequency) falls on both alike. Each batch runs a scenario's
// operations (`--in-flight` at a time) and records this process's CPU (process.cpuUsage: user +
// system, neither PostgreSQL's nor the driver's) and the wall time per operation; the report
// gives per scenario the medians of A and B over the rounds, and the median of the rounds' B/A
// ratios (paired, so that a slow round slows both).
// Scenarios, in the largest network with its key: get by id, a page of 15, a page of 100, a duty
// hours report of a new range each request (never a kept report: its entries are read, as one
// text, src/db/reportEntriesRead.ts); and the reads alone (ReadSql, run here): a vehicle by key,
// 15 vehicles, 100 vehicles.
//   node --import tsx bench/pgRows.ts --postgres-url postgresql://postgres@127.0.0.1:5432/postgres
//     [--rounds 30] [--warmup 3] [--in-flight 10] [--ops-scale 1] (operations per batch, times this)
//     [--only "vehicles/:id,by key"] (the scenarios whose name contains one of these)
//     [--size small|full] [--seeded-url URL --keys FILE]
// Without --seeded-url it seeds a new database (bench/seed.ts; --size small by default: 3,000
// vehicles, 1,000 in the largest network) and drops it afterwards. ~40 s with the defaults
// (--rounds 40 --ops-scale 2: ~2 minutes).
import { fork, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import pg from "pg";
import { defaultPoolSettings } from "../src/config/database";
import { Prisma } from "../src/generated/prisma/client";
import type { ReadSql, SqlQuery } from "../src/db/adapterReads";
import { openDatabase, overPaths, type Database } from "../src/db/client";
import { connectionPoolOf, poolConfig } from "../src/db/postgres/connect";
import type { PreparingPool } from "../src/db/postgres/preparingPool";
import { argument, readTypes } from "../src/db/postgres/reads";
import { rowObject } from "../src/db/adapterReads";
import { vehicleColumns } from "../src/db/vehicleColumns";
import { createApp } from "../src/server/app";
import { listen, type RunningServer } from "../src/server/httpServer";
import { batchedLines, createLogger } from "../src/server/observability/requestLog";
import { parseFlags, runMain, UsageError } from "./lib/args";
import { databaseFlags, seededDatabaseOf } from "./lib/seededDatabase";

// ---- Variant B: pg's public API only ------------------------------------------------------------

/** Rows as the service's reads answer them: objects by column name, made from pg's arrays. */
function rowsOf<Row>(result: pg.QueryArrayResult): Row[] {
  const names = result.fields.map((field) => field.name);
  return result.rows.map((values) => rowObject<Row>(names, values));
}

/**
 * src/db/postgres/reads.ts on pg's public API: a query config (text, the pool's statement name,
 * values, `rowMode: "array"`, the same type parsers) to pool.query, and for reads by key to
 * client.query on a pg.Client of its own in pipeline mode, as the service's pipelined connection.
 * Other public spellings cost the same within ~1 us per read (a config whose rowMode and types
 * come from its prototype, so pg copies fewer properties; rows as pg's objects; a callback).
 */
function publicApiReads(pool: PreparingPool, pipelined: pg.Client): ReadSql {
  const configOf = (query: SqlQuery): pg.QueryArrayConfig => ({
    text: query.text,
    name: pool.keep(query.text),
    values: query.values.map(argument),
    rowMode: "array",
    types: readTypes,
  });
  // PreparingPool.query passes a config that names its statement on as it is.
  const read = async <Row>(query: SqlQuery): Promise<Row[]> => rowsOf<Row>(await (pool as pg.Pool).query(configOf(query)));
  return Object.assign(read, {
    first: async <Row>(query: SqlQuery) => (await read<Row>(query))[0],
    byKey: async <Row>(query: SqlQuery) => rowsOf<Row>(await pipelined.query(configOf(query)))[0],
    keyTable: async (query: SqlQuery) => {
      const result = await pipelined.query(configOf(query));
      return { columns: result.fields.map((field) => field.name), rows: result.rows };
    },
    page: async (query: SqlQuery) => {
      const result = await (pool as pg.Pool).query(configOf(query));
      return { columns: result.fields.map((field) => field.name), rows: result.rows };
    },
  });
}

// ---- Measurement --------------------------------------------------------------------------------

interface Variant {
  name: "A" | "B";
  /** The service on node:http (src/server/httpServer.ts), on this variant's read path. */
  url: string;
  read: ReadSql;
}

interface Scenario {
  name: string;
  /** Operations per batch (before --ops-scale). */
  ops: number;
  /** An HTTP request's path (sent by the driver process), or a read run here. */
  path?: (i: number) => string;
  read?: (read: ReadSql, i: number) => Promise<unknown>;
}

interface Sample {
  cpuUs: number;
  wallUs: number;
}

/** The driver: a child process that sends a batch's requests (keep-alive, `inFlight` at a time), so that its CPU is not this process's. */
function drive(): void {
  const agents = new Map<string, http.Agent>();
  const get = (agent: http.Agent, url: string, apiKey: string) =>
    new Promise<void>((resolve, reject) => {
      http
        .get(url, { agent, headers: { "X-API-Key": apiKey } }, (response) => {
          const chunks: Buffer[] = [];
          response.on("data", (chunk: Buffer) => chunks.push(chunk));
          response.on("end", () =>
            response.statusCode === 200 ? resolve() : reject(new Error(`${url}: ${response.statusCode} ${Buffer.concat(chunks).toString().slice(0, 200)}`)),
          );
        })
        .on("error", reject);
    });
  process.on("message", async (message: { base: string; apiKey: string; paths: string[]; inFlight: number }) => {
    let agent = agents.get(message.base);
    if (!agent) agents.set(message.base, (agent = new http.Agent({ keepAlive: true, maxSockets: message.inFlight })));
    let next = 0;
    const worker = async () => {
      while (next < message.paths.length) await get(agent, message.base + message.paths[next++], message.apiKey);
    };
    try {
      await Promise.all(Array.from({ length: message.inFlight }, worker));
      process.send!({ ok: true });
    } catch (error) {
      process.send!({ ok: false, error: String(error) });
    }
  });
}

/** Measures `work` (`ops` operations): this process's CPU and the wall time per operation. */
async function measured(ops: number, work: () => Promise<void>): Promise<Sample> {
  const cpu = process.cpuUsage();
  const began = process.hrtime.bigint();
  await work();
  const wallUs = Number(process.hrtime.bigint() - began) / 1000;
  const used = process.cpuUsage(cpu);
  return { cpuUs: (used.user + used.system) / ops, wallUs: wallUs / ops };
}

/** Runs `ops` reads here, `inFlight` at a time. */
async function readsInFlight(ops: number, inFlight: number, run: (i: number) => Promise<unknown>, start: number): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < ops) await run(start + next++);
  };
  await Promise.all(Array.from({ length: Math.min(inFlight, ops) }, worker));
}

/** Has the driver send the requests and waits for its answer. */
function requestsThroughDriver(driver: ChildProcess, message: { base: string; apiKey: string; paths: string[]; inFlight: number }): Promise<void> {
  return new Promise((resolve, reject) => {
    driver.once("message", (answer: { ok: boolean; error?: string }) => (answer.ok ? resolve() : reject(new Error(answer.error))));
    driver.send(message);
  });
}

/** B must read what A reads, value for value and type for type, or the comparison says nothing. */
async function checkSameReads(scenarios: Scenario[], [a, b]: Variant[]): Promise<void> {
  const typed = (rows: unknown) => JSON.stringify(rows, (_, value: unknown) => (value === null || typeof value === "object" ? value : `${typeof value}:${String(value)}`));
  for (const scenario of scenarios) {
    for (let i = 0; i < 5 && scenario.read; i++) {
      const [fromA, fromB] = [typed(await scenario.read(a.read, i)), typed(await scenario.read(b.read, i))];
      if (fromA !== fromB) throw new Error(`${scenario.name}: B read ${fromB.slice(0, 300)}, A ${fromA.slice(0, 300)}`);
    }
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

function scenariosOf(networkId: number, ids: number[], reportsUntil: Date): Scenario[] {
  const pick = (i: number) => ids[(i * 7919) % ids.length];
  const pages = Math.max(1, Math.floor(ids.length / 100));
  const day = 86_400_000;
  const until = reportsUntil.getTime();
  const vehiclesFrom = (limit: number, i: number) =>
    Prisma.sql`SELECT ${vehicleColumns} FROM vehicles WHERE network_id = ${networkId} ORDER BY id LIMIT ${limit} OFFSET ${(i % pages) * limit}`;
  return [
    { name: "GET /vehicles/:id", ops: 600, path: (i) => `/vehicles/${pick(i)}` },
    { name: "GET /vehicles (15)", ops: 300, path: (i) => `/vehicles?page=${1 + (i % pages)}` },
    { name: "GET /vehicles?per_page=100", ops: 100, path: (i) => `/vehicles?per_page=100&page=${1 + (i % pages)}` },
    {
      // A new range each request (i seconds earlier): never a kept report, its entries read.
      name: "GET duty hours, 30 days by day",
      ops: 60,
      path: (i) =>
        `/statistics/duty-hours?from=${new Date(until - 30 * day - i * 1000).toISOString()}&to=${reportsUntil.toISOString()}&group_by=DAY&time_zone=UTC`,
    },
    {
      name: "read: vehicle by key",
      ops: 600,
      read: (read, i) => read.byKey(Prisma.sql`SELECT ${vehicleColumns} FROM vehicles WHERE id = ${pick(i)} AND network_id = ${networkId}`),
    },
    { name: "read: 15 vehicles", ops: 400, read: (read, i) => read(vehiclesFrom(15, i)) },
    { name: "read: 100 vehicles", ops: 150, read: (read, i) => read(vehiclesFrom(100, i)) },
  ];
}

async function vehicleIds(url: string, networkId: number): Promise<number[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<{ id: number }>("SELECT id FROM vehicles WHERE network_id = $1 ORDER BY id", [networkId])).rows.map((row) => row.id);
  } finally {
    await client.end();
  }
}

async function main() {
  const flags = parseFlags(process.argv.slice(2), { ...databaseFlags, rounds: "integer", "in-flight": "integer", "ops-scale": "number", warmup: "integer", only: "string" });
  if (flags.database && flags.database !== "postgresql") throw new UsageError("pg's reads: PostgreSQL only");
  const rounds = (flags.rounds as number) ?? 30;
  const inFlight = (flags["in-flight"] as number) ?? 10;
  const opsScale = (flags["ops-scale"] as number) ?? 1;
  const warmup = (flags.warmup as number) ?? 3;
  const seeded = await seededDatabaseOf({ size: "small", ...flags, database: "postgresql" });
  let db: Database | undefined;
  let pipelined: pg.Client | undefined;
  const servers: RunningServer[] = [];
  const driver = fork(__filename, [], { env: { ...process.env, PG_ROWS_DRIVER: "1" } });
  const devNull = fs.openSync("/dev/null", "w");
  const lines = batchedLines((text) => void fs.writeSync(devNull, text));
  try {
    const { networkId, apiKey } = seeded.keys.largest;
    const ids = await vehicleIds(seeded.url, networkId);
    db = await openDatabase(seeded.url);
    const pool = connectionPoolOf(db.prisma)!;
    pipelined = new pg.Client({ ...poolConfig(seeded.url, defaultPoolSettings), pipeline: true });
    await pipelined.connect();
    const publicRead = publicApiReads(pool, pipelined);
    // As the service runs: a request log line per request (written to /dev/null).
    const log = createLogger({ level: "info", format: "json" }, lines);
    const serve = async (on: Database) => {
      const server = await listen(createApp({ db: on, log }), 0, "127.0.0.1");
      servers.push(server);
      return server.url;
    };
    const variants: Variant[] = [
      { name: "A", url: await serve(db), read: db.read },
      { name: "B", url: await serve(overPaths(db, { read: publicRead })), read: publicRead },
    ];
    const only = flags.only === undefined ? null : String(flags.only).split(",");
    const scenarios = scenariosOf(networkId, ids, seeded.keys.seededAt ? new Date(seeded.keys.seededAt) : new Date()).filter(
      (scenario) => !only || only.some((part) => scenario.name.includes(part)),
    );
    if (scenarios.length === 0) throw new UsageError(`--only ${flags.only} names no scenario`);
    const samples = new Map<string, Record<"A" | "B", Sample[]>>(scenarios.map((s) => [s.name, { A: [], B: [] }]));
    await checkSameReads(scenarios, variants);
    let counter = 0;
    console.error(`${ids.length} vehicles in the largest network; ${warmup} warm-up + ${rounds} rounds, ${inFlight} in flight`);
    const started = Date.now();
    for (let round = -warmup; round < rounds; round++) {
      const order = round % 2 === 0 ? [variants[0], variants[1]] : [variants[1], variants[0]];
      for (const scenario of scenarios) {
        const ops = Math.max(1, Math.round(scenario.ops * opsScale));
        for (const variant of order) {
          const first = counter;
          const sample = await measured(ops, () =>
            scenario.path
              ? requestsThroughDriver(driver, { base: variant.url, apiKey, paths: Array.from({ length: ops }, (_, k) => scenario.path!(first + k)), inFlight })
              : readsInFlight(ops, inFlight, (i) => scenario.read!(variant.read, i), first),
          );
          counter += ops;
          if (round >= 0) samples.get(scenario.name)![variant.name].push(sample);
        }
      }
    }
    console.error(`measured in ${((Date.now() - started) / 1000).toFixed(0)} s`);
    console.log(`pg rows A/B: ${rounds} rounds, ${inFlight} in flight, medians per operation over the rounds (this process's CPU; wall)`);
    console.log(`A: the service's reads (pg internals); B: pg's public API (rowMode "array" + types)`);
    console.log(["scenario".padEnd(32), "A cpu us", "B cpu us", "B/A cpu", "A wall us", "B wall us", "B/A wall"].join("  "));
    for (const scenario of scenarios) {
      const { A, B } = samples.get(scenario.name)!;
      const cells = [
        scenario.name.padEnd(32),
        median(A.map((s) => s.cpuUs)).toFixed(1).padStart(8),
        median(B.map((s) => s.cpuUs)).toFixed(1).padStart(8),
        median(A.map((a, r) => B[r].cpuUs / a.cpuUs)).toFixed(3).padStart(7),
        median(A.map((s) => s.wallUs)).toFixed(1).padStart(9),
        median(B.map((s) => s.wallUs)).toFixed(1).padStart(9),
        median(A.map((a, r) => B[r].wallUs / a.wallUs)).toFixed(3).padStart(8),
      ];
      console.log(cells.join("  "));
    }
  } finally {
    driver.kill();
    for (const server of servers) await server.close();
    await pipelined?.end().catch(() => undefined);
    await db?.close();
    await seeded.drop();
    lines.flush();
    fs.closeSync(devNull);
  }
}

if (process.env.PG_ROWS_DRIVER) drive();
else runMain(main);
