// The server as it is deployed (CONTRACT: Server): `npm start` in the repository with PORT, HOST
// and DATA_DIR; first start on a missing data dir, a second start on the same one, and SIGTERM.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import path from "node:path";
import WebSocket from "ws";
import { temporaryDir } from "./support/service";
import { runAdmin, startServiceProcess, unsupportedNodeAllowance } from "./support/process";
import { subscribeSse } from "./support/eventStream";
import { client } from "./support/http";
import { openDatabase } from "../src/db/client";
import { createNetwork } from "../src/admin/networks";

const repoRoot = path.resolve(__dirname, "..");
jest.setTimeout(180_000);
// `npm start` refuses a Node outside package.json's engines (test/checkNode.test.ts): allowed here.
const nodeAllowance = unsupportedNodeAllowance();

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The promise's value, or "still running" after `ms` (the timer is cleared either way). */
async function within<T>(promise: Promise<T>, ms: number): Promise<T | "still running"> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<"still running">((resolve) => (timer = setTimeout(() => resolve("still running"), ms)));
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** A port nobody listens on right now, on the given interface. */
function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", reject);
    probe.listen(0, host, () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** Whether a TCP connection to host:port is accepted or refused. */
function tryConnect(host: string, port: number): Promise<"accepted" | "refused" | string> {
  return new Promise((resolve) => {
    const socket = net.connect(port, host);
    socket.once("connect", () => {
      socket.destroy();
      resolve("accepted");
    });
    socket.once("error", (error: NodeJS.ErrnoException) => resolve(error.code === "ECONNREFUSED" ? "refused" : error.code ?? "error"));
  });
}

interface Started {
  child: ChildProcess;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const started: Started[] = [];

/** Starts a command in the repository in its own process group (so it can always be cleaned up). */
function start(command: string, args: string[], env: Record<string, string>): Started {
  const childEnv: NodeJS.ProcessEnv = { ...process.env };
  for (const name of ["DATABASE_URL", "DATA_DIR", "PORT", "HOST", "RATE_LIMIT_PER_MINUTE"]) delete childEnv[name];
  Object.assign(childEnv, nodeAllowance, env);
  const child = spawn(command, args, { cwd: repoRoot, env: childEnv, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  const proc = { child, output: () => output, exited };
  started.push(proc);
  return proc;
}

function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Waits until every process of the group is gone; SIGKILLs the group after `ms`. */
async function groupGone(pid: number, ms = 15_000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (groupAlive(pid)) {
    if (Date.now() > deadline) {
      try {
        process.kill(-pid, "SIGKILL");
      } catch {
        // already gone
      }
      return false;
    }
    await sleep(50);
  }
  return true;
}

afterEach(async () => {
  // Whatever a test left running (its process group only) is stopped.
  for (const proc of started.splice(0)) {
    if (proc.child.pid && groupAlive(proc.child.pid)) {
      try {
        process.kill(-proc.child.pid, "SIGKILL");
      } catch {
        // already gone
      }
      await groupGone(proc.child.pid, 5_000);
    }
  }
});

/** Polls /healthz until it answers 200; returns the milliseconds it took. */
/** Waits until the process has written this text (the log writes its lines in batches), at most `ms`. */
async function outputContaining(proc: Started, text: string, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!proc.output().includes(text) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
}

async function waitHealthy(proc: Started, base: string, since: number, ms = 60_000): Promise<number> {
  const deadline = Date.now() + ms;
  let exited = false;
  void proc.exited.then(() => (exited = true));
  while (Date.now() < deadline && !exited) {
    try {
      const response = await fetch(`${base}/healthz`);
      if (response.status === 200) return Date.now() - since;
    } catch {
      // not listening yet
    }
    await sleep(50);
  }
  throw new Error(`the server did not become healthy at ${base} (exited: ${exited}); output:\n${proc.output()}`);
}

function shippedMigrationNames(): string[] {
  const dir = path.join(repoRoot, "prisma", "sqlite", "migrations");
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}

async function appliedMigrations(file: string) {
  const db = await openDatabase(`file:${file}`);
  try {
    const rows = (await db.prisma.$queryRawUnsafe(
      `SELECT id, migration_name, checksum, finished_at FROM "_prisma_migrations" ORDER BY migration_name`,
    )) as { id: string; migration_name: string; checksum: string; finished_at: unknown }[];
    return rows.map((row) => ({ ...row, finished_at: String(row.finished_at) }));
  } finally {
    await db.close();
  }
}

/** A POST whose body is sent in two parts, so the request is in flight as long as we want. */
function slowPost(host: string, port: number, urlPath: string, key: string, body: string) {
  let resolveResponse!: (value: { status: number; text: string }) => void;
  let rejectResponse!: (error: Error) => void;
  const response = new Promise<{ status: number; text: string }>((resolve, reject) => {
    resolveResponse = resolve;
    rejectResponse = reject;
  });
  const request = http.request({
    host,
    port,
    path: urlPath,
    method: "POST",
    agent: false,
    headers: {
      "Content-Type": "application/json",
      Accept: "application/json",
      "Content-Length": Buffer.byteLength(body),
      "X-API-Key": key,
    },
  });
  request.on("response", (res) => {
    let text = "";
    res.setEncoding("utf8");
    res.on("data", (chunk) => (text += chunk));
    res.on("end", () => resolveResponse({ status: res.statusCode ?? 0, text }));
    res.on("error", rejectResponse);
  });
  request.on("error", rejectResponse);
  const half = Math.floor(body.length / 2);
  request.flushHeaders();
  request.write(body.slice(0, half));
  return {
    response,
    finish: () => request.end(body.slice(half)),
  };
}

/** One GET on a fresh connection: its status, or the connection error's code. */
function getOnce(host: string, port: number, urlPath: string, key: string): Promise<{ status?: number; error?: string }> {
  return new Promise((resolve) => {
    const request = http.get({ host, port, path: urlPath, agent: false, headers: { Accept: "application/json", "X-API-Key": key } }, (res) => {
      let text = "";
      res.on("data", (chunk) => (text += chunk));
      res.on("end", () => {
        try {
          JSON.parse(text);
          resolve({ status: res.statusCode });
        } catch {
          resolve({ status: res.statusCode, error: "incomplete body" });
        }
      });
      res.on("error", (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
    });
    request.on("error", (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
  });
}

describe("npm start", () => {
  const root = temporaryDir("vrd-server-");
  // Nested and missing: the server must create it.
  const dataDir = path.join(root, "nested", "missing", "data");
  const dbFile = path.join(dataDir, "service.db");
  let apiKey: string | undefined;
  let vehicleId: number | undefined;

  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  test("first start on a missing DATA_DIR creates it and the database, applies the migrations, answers /healthz and /readyz on HOST:PORT", async () => {
    expect(fs.existsSync(dataDir)).toBe(false);
    const host = "127.0.0.1";
    const port = await freePort(host);
    const base = `http://${host}:${port}`;
    const since = Date.now();
    const proc = start("npm", ["start"], { PORT: String(port), HOST: host, DATA_DIR: dataDir });
    const elapsed = await waitHealthy(proc, base, since);
    console.log(`npm start (fresh data dir): /healthz answered after ${elapsed} ms`);

    const health = await client(base).get("/healthz");
    expect(health.status).toBe(200);
    expect(health.headers.get("content-type")).toMatch(/^application\/json/);
    const ready = await client(base).get("/readyz");
    expect(ready.status).toBe(200);
    expect(ready.headers.get("content-type")).toMatch(/^application\/json/);
    // The start line is written with the log's next flush (at most 100 ms later): wait for it.
    await outputContaining(proc, `${host}:${port}`);
    expect(proc.output()).toContain(`${host}:${port}`);

    expect(fs.statSync(dataDir).isDirectory()).toBe(true);
    expect(fs.statSync(dbFile).isFile()).toBe(true);
    const migrations = await appliedMigrations(dbFile);
    expect(migrations.map((m) => m.migration_name)).toEqual(shippedMigrationNames());
    for (const migration of migrations) expect(migration.finished_at).not.toBe("null");

    // The database is usable: a network made on the file, a vehicle written through the server.
    const db = await openDatabase(`file:${dbFile}`);
    try {
      apiKey = (await createNetwork(db, { name: "Server Test", identifierType: "steam", graceSeconds: 0 }, new Date())).apiKey;
    } finally {
      await db.close();
    }
    const created = await client(base, apiKey).post("/vehicles", { plate: "SRV-1" });
    expect(created.status).toBe(201);
    vehicleId = created.body.data.id;

    // Stopped as a terminal's Ctrl-C or systemd would: SIGTERM to the whole process group.
    process.kill(-proc.child.pid!, "SIGTERM");
    expect(await groupGone(proc.child.pid!)).toBe(true);
    expect(await tryConnect(host, port)).toBe("refused");
  });

  test("a second start on the same DATA_DIR applies no migration, keeps the data, and listens only on HOST", async () => {
    expect(apiKey).toBeDefined();
    const before = await appliedMigrations(dbFile);
    const host = "127.0.0.2";
    const port = await freePort(host);
    const base = `http://${host}:${port}`;
    const since = Date.now();
    const proc = start("npm", ["start"], { PORT: String(port), HOST: host, DATA_DIR: dataDir });
    const elapsed = await waitHealthy(proc, base, since);
    console.log(`npm start (existing data dir): /healthz answered after ${elapsed} ms`);

    expect((await client(base).get("/readyz")).status).toBe(200);
    expect(await appliedMigrations(dbFile)).toEqual(before);
    expect(proc.output()).not.toMatch(/applied migration/i);

    const read = await client(base, apiKey!).get(`/vehicles/${vehicleId}`);
    expect(read.status).toBe(200);
    expect(read.body.data).toMatchObject({ id: vehicleId, plate: "SRV-1" });

    // HOST is honoured: the server is not on another loopback address.
    expect(await tryConnect(host, port)).toBe("accepted");
    expect(await tryConnect("127.0.0.1", port)).toBe("refused");

    process.kill(-proc.child.pid!, "SIGTERM");
    expect(await groupGone(proc.child.pid!)).toBe(true);
  });

  test("SIGTERM to the `npm start` process (as Docker or a process manager sends it) stops the service and exits 0", async () => {
    const host = "127.0.0.1";
    const port = await freePort(host);
    const base = `http://${host}:${port}`;
    const proc = start("npm", ["start"], { PORT: String(port), HOST: host, DATA_DIR: dataDir });
    await waitHealthy(proc, base, Date.now());

    proc.child.kill("SIGTERM");
    const exit = await within(proc.exited, 20_000);
    // Nothing of it is left serving (given five seconds to finish).
    let portState = await tryConnect(host, port);
    for (let i = 0; i < 50 && portState !== "refused"; i++) {
      await sleep(100);
      portState = await tryConnect(host, port);
    }
    expect({ exit, port: portState }).toEqual({ exit: { code: 0, signal: null }, port: "refused" });
  });

  test("SIGTERM during a stream of requests: stops accepting, finishes the requests in flight, exits 0", async () => {
    const host = "127.0.0.1";
    const port = await freePort(host);
    const base = `http://${host}:${port}`;
    // The command `npm start` runs, signalled directly (npm itself is covered by the test above).
    const proc = start(path.join(repoRoot, "node_modules", ".bin", "tsx"), ["src/main.ts"], {
      PORT: String(port),
      HOST: host,
      DATA_DIR: dataDir,
    });
    const elapsed = await waitHealthy(proc, base, Date.now());
    console.log(`tsx src/main.ts: /healthz answered after ${elapsed} ms`);

    const db = await openDatabase(`file:${dbFile}`);
    let network;
    try {
      network = await createNetwork(db, { name: "Shutdown", identifierType: "steam", graceSeconds: 0 }, new Date());
    } finally {
      await db.close();
    }
    const key = network.apiKey;

    // A steady stream of requests, each on its own connection.
    let signalled = 0;
    let streaming = true;
    const stream: { status?: number; error?: string; afterSignal: boolean }[] = [];
    const streamDone = (async () => {
      while (streaming) {
        const result = await getOnce(host, port, "/vehicles?per_page=1", key);
        // Classified by when the answer came: a request racing the signal may be refused.
        stream.push({ ...result, afterSignal: signalled > 0 });
        await sleep(20);
      }
    })();
    await sleep(500);

    // Requests in flight: headers and half the body sent, the rest held back.
    const slow = [1, 2, 3].map((n) => slowPost(host, port, "/vehicles", key, JSON.stringify({ plate: `SLOW-${n}`, owner: "In Flight" })));
    await sleep(500);

    signalled = Date.now();
    proc.child.kill("SIGTERM");
    await sleep(700);
    // It no longer accepts connections, but waits for the requests in flight.
    expect(await tryConnect(host, port)).toBe("refused");
    expect(proc.child.exitCode).toBeNull();
    await sleep(1000);
    expect(proc.child.exitCode).toBeNull();

    for (const request of slow) request.finish();
    const responses = await Promise.all(slow.map((request) => request.response));
    const exit = await within(proc.exited, 20_000);
    streaming = false;
    await streamDone;

    expect(responses.map((response) => response.status)).toEqual([201, 201, 201]);
    expect(responses.map((response) => JSON.parse(response.text).data.plate)).toEqual(["SLOW-1", "SLOW-2", "SLOW-3"]);
    expect(exit).toEqual({ code: 0, signal: null });
    expect(proc.output()).not.toMatch(/internal error|Error:/);

    // The stream: every request answered before the signal succeeded with a whole JSON body; no
    // request got an error status or a cut-off body at all; after the signal, new connections
    // are refused (one racing the signal may be reset instead).
    const ok = (result: { status?: number; error?: string }) => result.status === 200 && result.error === undefined;
    const before = stream.filter((result) => !result.afterSignal);
    const after = stream.filter((result) => result.afterSignal);
    expect(before.length).toBeGreaterThanOrEqual(5);
    expect(before.filter((result) => !ok(result))).toEqual([]);
    expect(after.filter((result) => !ok(result) && !["ECONNREFUSED", "ECONNRESET"].includes(result.error ?? ""))).toEqual([]);
    expect(after.filter((result) => result.error === "ECONNREFUSED").length).toBeGreaterThan(0);

    // The writes of the requests in flight were committed before the database was closed.
    const check = await openDatabase(`file:${dbFile}`);
    try {
      const vehicles = await check.prisma.vehicle.findMany({ where: { networkId: network.network.id }, select: { plate: true } });
      expect(vehicles.map((vehicle) => vehicle.plate).sort()).toEqual(["SLOW-1", "SLOW-2", "SLOW-3"]);
    } finally {
      await check.close();
    }
  });
});

test("SIGTERM with live subscriptions on kept-alive connections (as a proxy keeps them): each ends, and the process exits 0 without waiting for the keep-alive timeout", async () => {
  const dir = temporaryDir();
  // Far longer than the test may take: only closing the connections that become idle ends them.
  const env = { DATA_DIR: dir, LOG_LEVEL: "warn", HTTP_KEEP_ALIVE_TIMEOUT_MS: "600000" };
  const key = JSON.parse(runAdmin(["network", "create", "--name", "Stop", "--identifier-type", "steam"], env).stdout).apiKey;
  const service = await startServiceProcess(env);
  const agent = new http.Agent({ keepAlive: true });
  try {
    const subscribers = await Promise.all([1, 2].map(() => subscribeSse(service.url, key, "subscription { events { sequence } }", {}, {}, { agent })));
    // A plain request too, whose connection the agent keeps open afterwards.
    await new Promise<void>((resolve, reject) => http.get(`${service.url}/healthz`, { agent }, (response) => response.resume().on("end", resolve)).on("error", reject));
    const exit = await within(service.stop("SIGTERM"), 20_000);
    expect(exit).toBe(0);
    // The subscriptions were completed by the server, not cut.
    await Promise.all(subscribers.map((subscriber) => subscriber.ended));
    for (const subscriber of subscribers) expect(subscriber.frames.map((frame) => frame.event)).toContain("complete");
  } finally {
    agent.destroy();
  }
});

test("SIGTERM with a WebSocket subscriber that never answers the closing handshake (gone behind a proxy): the process exits 0 all the same", async () => {
  const dir = temporaryDir();
  const env = { DATA_DIR: dir, LOG_LEVEL: "warn" };
  const key = JSON.parse(runAdmin(["network", "create", "--name", "Stop", "--identifier-type", "steam"], env).stdout).apiKey;
  const service = await startServiceProcess(env);
  const socket = new WebSocket(`${service.url.replace("http", "ws")}/graphql`, "graphql-transport-ws");
  const messages: { type: string }[] = [];
  socket.on("message", (data) => messages.push(JSON.parse(String(data))));
  try {
    await new Promise((resolve, reject) => socket.once("open", resolve).once("error", reject));
    socket.send(JSON.stringify({ type: "connection_init", payload: { "X-API-Key": key } }));
    await waitUntil(() => messages.some((message) => message.type === "connection_ack"));
    socket.send(JSON.stringify({ id: "1", type: "subscribe", payload: { query: "subscription { events { sequence } }" } }));
    await sleep(300);
    // From now on the client reads nothing: the server's close frame is never answered.
    (socket as unknown as { _socket: net.Socket })._socket.pause();
    const exit = await within(service.stop("SIGTERM"), 20_000);
    expect(exit).toBe(0);
  } finally {
    socket.terminate();
  }
});

async function waitUntil(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("timed out");
    await sleep(20);
  }
}
