// Webhooks (CONTRACT: "Webhooks") with the real service as child processes, the admin command as
// a user runs it and real receivers on 127.0.0.1, on this project's database:
// - a process killed (kill -9) in the middle of deliveries loses none: the webhook is taken again
//   when the dead process's lease ends, the attempt in flight is made again with the same
//   webhook-id and body, and the events arrive first in sequence order;
// - a receiver down (connection refused) for 60 s, then up, gets every event, in order, within
//   seconds; the delivery log shows the failed attempts (retrying, with the error) and the deliveries;
// - PostgreSQL: two processes on one database make each attempt once (one per webhook and event);
// - the admin command end to end: add, list, test, deliveries, redeliver, rotate-secret, disable,
//   enable, remove, and its refusals (non-zero exit, a message on stderr, nothing stored);
// - a webhook disabled, its secret rotated or its URL changed while its worker delivers a backlog:
//   the change holds from the next attempt, and every attempt made is logged.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { runAdminAsync, startServiceProcess, type ServiceProcess } from "./support/process";
import { freshDatabase, testProvider, type FreshDatabase } from "./support/database";
import { startWebhookReceiver, verified, type ReceivedRequest } from "./support/webhookReceiver";
import { client, type Client } from "./support/http";
import { lingerMs } from "../src/webhooks/delivery";
import { startDiscordStandIn } from "./support/discordStandIn";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What every process here needs to reach the receivers on loopback. */
const loopbackAllowed = { WEBHOOK_ALLOWED_HOSTS: "127.0.0.1" };

// Everything a test starts, ended after it whatever happened.
const services: ServiceProcess[] = [];
const closers: (() => Promise<void>)[] = [];
const databases: FreshDatabase[] = [];

afterEach(async () => {
  await Promise.all(services.splice(0).map((service) => service.stop("SIGKILL")));
  await Promise.all(closers.splice(0).map((close) => close().catch(() => undefined)));
  await Promise.all(databases.splice(0).map((database) => database.drop()));
});

async function database(): Promise<FreshDatabase> {
  const fresh = await freshDatabase();
  databases.push(fresh);
  return fresh;
}

/** A service process on `db` (LOG_LEVEL warn: the start line is still written, see src/main.ts). */
async function service(db: FreshDatabase, env: Record<string, string> = {}): Promise<ServiceProcess> {
  const started = await startServiceProcess({ DATABASE_URL: db.url, LOG_LEVEL: "warn", ...loopbackAllowed, ...env }, 60_000);
  services.push(started);
  return started;
}

type AdminRun = { code: number | null; stdout: string; stderr: string };

/** The admin command on `db`; `env` replaces the loopback allowance (a refusal test runs without it). */
const adminRaw = (db: FreshDatabase, args: string[], env: Record<string, string> = loopbackAllowed): Promise<AdminRun> =>
  runAdminAsync(args, { DATABASE_URL: db.url, ...env });

async function admin(db: FreshDatabase, ...args: string[]): Promise<any> {
  const run = await adminRaw(db, args);
  expect({ args, code: run.code, stderr: run.stderr }).toEqual({ args, code: 0, stderr: expect.any(String) });
  return JSON.parse(run.stdout);
}

/** A network (admin `network create`) and its first key (read, write, admin). */
async function network(db: FreshDatabase): Promise<{ id: number; apiKey: string }> {
  const created = await admin(db, "network", "create", "--name", "Hooks", "--identifier-type", "steam");
  return { id: created.network.id, apiKey: created.apiKey };
}

async function addWebhook(db: FreshDatabase, networkId: number, url: string, ...more: string[]): Promise<{ webhook: any; secret: string }> {
  return admin(db, "webhook", "add", "--network", String(networkId), "--url", url, ...more);
}

const deliveries = async (db: FreshDatabase, webhookId: number): Promise<any[]> =>
  (await admin(db, "webhook", "deliveries", "--webhook", String(webhookId), "--per-page", "100")).attempts;

/**
 * Writes vehicles through REST, `parallel` at a time, alternating between the clients, each writer
 * pausing `pauseMs` after each write; answers their ids.
 */
async function writeVehicles(apis: Client[], count: number, prefix: string, parallel = 1, pauseMs = 0): Promise<number[]> {
  const ids: number[] = new Array(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < count) {
        const i = next++;
        const created = await apis[i % apis.length].post("/vehicles", { plate: `${prefix}-${i}` });
        expect(created.status).toBe(201);
        ids[i] = created.body.data.id;
        if (pauseMs > 0) await sleep(pauseMs);
      }
    }),
  );
  return ids;
}

interface ShownEvent {
  id: string;
  sequence: number;
  type: string;
  data: Record<string, unknown>;
}

/** The network's events as GET /events shows them, in sequence order (`query`: its filters). */
async function eventsOf(api: Client, query = ""): Promise<ShownEvent[]> {
  const response = await api.get(`/events?per_page=500${query}`);
  expect(response.status).toBe(200);
  expect(response.body.meta.next_cursor).toBeNull();
  return (response.body.data as ShownEvent[]).reverse();
}

/** The requests grouped by webhook-id, the groups in the order of their first arrival. */
function byWebhookId(requests: readonly ReceivedRequest[]): Map<string, ReceivedRequest[]> {
  const groups = new Map<string, ReceivedRequest[]>();
  for (const request of requests) {
    const id = String(request.headers["webhook-id"]);
    groups.set(id, [...(groups.get(id) ?? []), request]);
  }
  return groups;
}

async function eventually(holds: () => boolean, timeoutMs: number, what: () => string): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!holds()) {
    if (Date.now() > end) throw new Error(`waited ${timeoutMs} ms in vain: ${what()}`);
    await sleep(25);
  }
}

/**
 * A receiver that answers 200 each request `answerAfterMs` after it arrived (a slow receiver, so
 * deliveries are in flight), and calls `onArrival` the moment one arrives, before answering it.
 */
interface PacedReceiver {
  url: string;
  requests: ReceivedRequest[];
  onArrival: (request: ReceivedRequest) => void;
}

async function startPacedReceiver(answerAfterMs: number): Promise<PacedReceiver> {
  const timers = new Set<NodeJS.Timeout>();
  const receiver: PacedReceiver = { url: "", requests: [], onArrival: () => undefined };
  const server = http.createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (body += chunk));
    // A sender killed mid-request leaves a broken socket: nothing to answer then.
    req.on("error", () => undefined);
    res.on("error", () => undefined);
    req.on("end", () => {
      const request: ReceivedRequest = { path: req.url ?? "/", headers: req.headers, body, at: Date.now(), status: 0 };
      receiver.requests.push(request);
      receiver.onArrival(request);
      const timer = setTimeout(() => {
        timers.delete(timer);
        if (res.destroyed) return;
        request.status = 200;
        res.writeHead(200).end();
      }, answerAfterMs);
      timers.add(timer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  closers.push(async () => {
    for (const timer of timers) clearTimeout(timer);
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return receiver;
}

// ---------------------------------------------------------------------------------------------

test(
  "kill -9 in the middle of deliveries loses none: the dead process's lease ends, the attempt in flight is made again with the same webhook-id and body, first arrivals in sequence order",
  async () => {
    const db = await database();
    const net = await network(db);
    const receiver = await startPacedReceiver(150);
    const { webhook, secret } = await addWebhook(db, net.id, `${receiver.url}/crash`, "--types", "vehicle.created");
    // The lease is the dead process's own: WEBHOOK_TIMEOUT_MS + 5 s from its last write.
    const first = await service(db, { WEBHOOK_TIMEOUT_MS: "1000" });

    // Killed the moment the 5th event arrives, before the receiver answers it: that attempt is in flight.
    let killedAt: ReceivedRequest | null = null;
    receiver.onArrival = (request) => {
      if (killedAt === null && byWebhookId(receiver.requests).size === 5) {
        first.child.kill("SIGKILL");
        killedAt = request;
      }
    };
    await writeVehicles([client(first.url, net.apiKey)], 30, "K", 3);
    await eventually(() => killedAt !== null, 20_000, () => `${receiver.requests.length} requests before the kill`);
    expect(await first.stop()).toBeNull();
    const atKill = receiver.requests.length;
    expect(byWebhookId(receiver.requests).size).toBe(5);

    const second = await service(db, { WEBHOOK_TIMEOUT_MS: "1000" });
    const api = client(second.url, net.apiKey);
    const events = await eventsOf(api, "&type=vehicle.created");
    expect(events).toHaveLength(30);
    await eventually(() => byWebhookId(receiver.requests).size >= 30, 40_000, () => `${byWebhookId(receiver.requests).size} of 30 events arrived`);
    await eventually(() => receiver.requests.every((request) => request.status === 200 || request === killedAt), 5_000, () => "answers");
    await sleep(500);

    // Every vehicle.created event reached the receiver and verifies, as /events shows it; nothing else came.
    const groups = byWebhookId(receiver.requests);
    expect([...groups.keys()].sort()).toEqual(events.map((event) => event.id).sort());
    for (const request of receiver.requests) {
      const event = verified(secret, request);
      expect(event.id).toBe(request.headers["webhook-id"]);
      expect(event).toEqual(events.find((shown) => shown.id === event.id));
    }
    // Each event's attempts carry one webhook-id and one body.
    for (const [id, attempts] of groups) expect({ id, bodies: new Set(attempts.map((request) => request.body)).size }).toEqual({ id, bodies: 1 });
    // The attempt in flight at the kill was made again; it was the only one made twice.
    const inFlight = String(killedAt!.headers["webhook-id"]);
    expect(groups.get(inFlight)).toHaveLength(2);
    expect([...groups].filter(([, attempts]) => attempts.length > 1).map(([id]) => id)).toEqual([inFlight]);
    // First arrivals are in sequence order.
    expect([...groups.keys()]).toEqual(events.map((event) => event.id));
    // Nothing was sent for the dead process's webhook until its lease (1 s + 5 s from its last write) ended.
    const afterKill = receiver.requests.slice(atKill);
    expect(afterKill[0].headers["webhook-id"]).toBe(inFlight);
    expect(afterKill[0].at - killedAt!.at).toBeGreaterThanOrEqual(5_500);
    // The delivery log: each event delivered once (the killed attempt never wrote its outcome).
    const log = await deliveries(db, webhook.id);
    expect(log.filter((attempt) => attempt.outcome === "delivered").map((attempt) => attempt.eventId).sort()).toEqual(events.map((event) => event.id).sort());
    expect(log).toHaveLength(30);
  },
  150_000,
);

test(
  "a receiver down (connection refused) for 60 s, then up, gets every event in order within seconds; the delivery log shows the retries with their error, then the deliveries",
  async () => {
    const db = await database();
    const net = await network(db);
    const receiver = await startWebhookReceiver();
    closers.push(() => receiver.close());
    const { webhook, secret } = await addWebhook(db, net.id, `${receiver.url}/down`, "--types", "vehicle.created");
    await receiver.down();
    const running = await service(db, { WEBHOOK_RETRY_SCHEDULE: Array(20).fill("5").join(","), WEBHOOK_TIMEOUT_MS: "2000" });
    const api = client(running.url, net.apiKey);

    // 10 writes spread over the 60 s the receiver is down.
    const downAt = Date.now();
    for (let i = 0; i < 10; i++) {
      await sleep(downAt + i * 6_000 - Date.now());
      await writeVehicles([api], 1, `DOWN${i}`);
    }
    await sleep(downAt + 60_000 - Date.now());
    expect(receiver.requests).toHaveLength(0);
    await receiver.up();
    const upAt = Date.now();
    await receiver.until((requests) => requests.length >= 10, 12_000);
    await sleep(500);

    const events = await eventsOf(api, "&type=vehicle.created");
    expect(events).toHaveLength(10);
    // Each once, in order, verifying, within 10 s of the receiver's return (the retry due within 5 s).
    expect(receiver.requests.map((request) => verified(secret, request).id)).toEqual(events.map((event) => event.id));
    expect(receiver.requests.every((request) => request.status === 200)).toBe(true);
    expect(receiver.requests.at(-1)!.at - upAt).toBeLessThan(10_000);

    // The log, oldest first: the first event's failed attempts every 5 s (the others wait behind
    // it), then each event delivered once.
    const log = (await deliveries(db, webhook.id)).reverse();
    const failed = log.filter((attempt) => attempt.outcome === "retrying");
    const delivered = log.filter((attempt) => attempt.outcome === "delivered");
    expect(failed.length + delivered.length).toBe(log.length);
    expect(failed.length).toBeGreaterThanOrEqual(8);
    expect(log.slice(0, failed.length)).toEqual(failed);
    for (const [i, attempt] of failed.entries()) {
      expect(attempt).toMatchObject({ eventId: events[0].id, attempt: i + 1, status: null, kind: "delivery", error: expect.stringMatching(/ECONNREFUSED/) });
    }
    const spacing = failed.slice(1).map((attempt, i) => Date.parse(attempt.attemptedAt) - Date.parse(failed[i].attemptedAt));
    expect(Math.min(...spacing)).toBeGreaterThanOrEqual(4_900);
    expect(delivered.map((attempt) => attempt.eventId)).toEqual(events.map((event) => event.id));
    expect(delivered.map((attempt) => [attempt.status, attempt.error])).toEqual(events.map(() => [200, null]));
    expect(delivered[0].attempt).toBe(failed.length + 1);
    expect(delivered.slice(1).every((attempt) => attempt.attempt === 1)).toBe(true);
  },
  150_000,
);

(testProvider === "postgresql" ? test : test.skip)(
  "PostgreSQL: a Discord webhook delivered by two processes in turn keeps Discord's 5 requests per 2 s over both, and posts every duty change",
  async () => {
    const db = await database();
    const net = await network(db);
    const discord = await startDiscordStandIn();
    closers.push(() => discord.stop());
    const path = `/api/webhooks/${net.id}/two-processes`;
    await addWebhook(db, net.id, discord.url(path), "--format", "discord");
    const processes = await Promise.all([service(db, { LOG_LEVEL: "info" }), service(db, { LOG_LEVEL: "info" })]);
    const apis = processes.map((each) => client(each.url, net.apiKey));
    const officers = ["d1", "d2", "d3", "d4"];
    for (const officer of officers) await admin(db, "officer", "add", "--network", String(net.id), "--identifier", `steam:${officer}`, "--name", `Officer ${officer}`);
    // Bursts of paced toggles (each its own message, so the window fills), each burst written to
    // the other process once the one before is posted and a little longer than a process keeps
    // an idle webhook has passed, but less than Discord's window: the writer hears of its event
    // first and takes the webhook over with a window that is still full.
    const embeds = () => discord.messages.filter((message) => message.path === path).flatMap((message) => message.body.embeds as { title: string }[]);
    let changes = 0;
    for (let burst = 0; burst < 4; burst++) {
      for (const officer of officers) {
        for (let toggle = 0; toggle < 2; toggle++) {
          expect((await apis[burst % 2].post(`/dutytime/steam:${officer}/toggle`)).status).toBe(200);
          changes++;
          await sleep(60);
        }
      }
      await eventually(() => embeds().length >= changes, 30_000, () => `${embeds().length} of ${changes} duty changes posted`);
      await sleep(lingerMs + 300);
    }
    expect(embeds().map((embed) => embed.title)).toEqual(Array.from({ length: changes }, (_, i) => (i % 2 === 0 ? "On duty" : "Off duty")));
    // Never a request while the path was limited, whichever process sent it.
    expect(discord.early()).toEqual([]);
    const sent = processes.map((each) => each.output().split("\n").filter((line) => line.includes('"msg":"webhook attempt"')).length);
    // Usually both processes posted (each burst's writer takes the webhook over); under load the
    // holder may keep it, which the assertions above hold for too.
    expect(sent[0] + sent[1]).toBeGreaterThanOrEqual(changes / 10);
    // The window was full at least once: some requests had to wait.
    expect(discord.requests.filter((request) => request.path === path).length).toBeGreaterThan(5);
  },
  120_000,
);

(testProvider === "postgresql" ? test : test.skip)(
  "PostgreSQL: two processes on one database, two webhooks, 70 writes split between them (the last 10 after the busier one stopped): each (webhook, event) attempt is made once",
  async () => {
    const db = await database();
    const net = await network(db);
    // Answered at once, and writes paced: a webhook is mostly free when a burst's first event
    // commits, so both processes race to claim it (the writer hears of its own event first, the
    // other by NOTIFY).
    const receiver = await startPacedReceiver(0);
    const all = await addWebhook(db, net.id, `${receiver.url}/all`);
    const vehicles = await addWebhook(db, net.id, `${receiver.url}/vehicles`, "--types", "vehicle.created");
    const processes = await Promise.all([service(db, { LOG_LEVEL: "info" }), service(db, { LOG_LEVEL: "info" })]);
    const apis = processes.map((each) => client(each.url, net.apiKey));

    // In bursts with pauses longer than a process keeps an idle webhook (lingerMs): each burst's
    // webhooks are free again, and both processes race to claim them.
    for (let burst = 0; burst < 6; burst++) {
      // Each process writes the first event of every other burst: it hears of it first, so the
      // claims alternate too.
      await writeVehicles(burst % 2 === 0 ? apis : [...apis].reverse(), 10, `TWO${burst}`, 2, 20);
      await sleep(lingerMs + 500);
    }
    // Under load one process may have claimed every burst. The busier one then stops (SIGTERM:
    // it finishes its attempts and lets the webhooks go) and a last burst goes to the other, so
    // that both take part whatever the machine's pace; exactly-once is checked over all of it.
    const attemptsSoFar = processes.map((each) => each.output().split("\n").filter((line) => line.includes('"msg":"webhook attempt"')).length);
    const busier = attemptsSoFar[0] >= attemptsSoFar[1] ? 0 : 1;
    expect(await processes[busier].stop("SIGTERM")).toBe(0);
    await writeVehicles([apis[1 - busier]], 10, "TWO6", 2, 20);
    const events = await eventsOf(apis[1 - busier]);
    const expected = {
      "/all": events.filter((event) => event.sequence > all.webhook.deliveredThrough),
      "/vehicles": events.filter((event) => event.sequence > vehicles.webhook.deliveredThrough && event.type === "vehicle.created"),
    };
    // Everything since each webhook's making: the 70 vehicles, and for /all both webhooks' creation.
    expect(expected["/vehicles"]).toHaveLength(70);
    expect(expected["/all"].map((event) => event.type).sort()).toEqual([...Array(70).fill("vehicle.created"), "webhook.created", "webhook.created"].sort());
    const total = expected["/all"].length + expected["/vehicles"].length;
    await eventually(() => receiver.requests.length >= total, 40_000, () => `${receiver.requests.length} of ${total} requests`);
    // Room for a second attempt that should not come.
    await sleep(2_500);

    for (const [path, shown] of Object.entries(expected)) {
      const secret = path === "/all" ? all.secret : vehicles.secret;
      const requests = receiver.requests.filter((request) => request.path === path);
      const ids = requests.map((request) => verified(secret, request).id);
      // Each webhook-id exactly once, in sequence order.
      expect({ path, ids }).toEqual({ path, ids: shown.map((event) => event.id) });
    }
    expect(receiver.requests).toHaveLength(total);

    // The delivery logs: one attempt per event, delivered.
    for (const [hook, shown] of [[all, expected["/all"]], [vehicles, expected["/vehicles"]]] as const) {
      const log = (await deliveries(db, hook.webhook.id)).reverse();
      expect(log.map((attempt: any) => [attempt.eventId, attempt.attempt, attempt.outcome])).toEqual(shown.map((event) => [event.id, 1, "delivered"]));
    }
    // Both processes' own log lines: one attempt per (webhook, event), over both.
    const attemptLines = processes.map((each) =>
      each
        .output()
        .split("\n")
        .filter((line) => line.includes('"msg":"webhook attempt"'))
        .map((line) => JSON.parse(line) as { webhook: number; eventId: string }),
    );
    const made = attemptLines.flat().map((line) => `${line.webhook}:${line.eventId}`);
    expect(made).toHaveLength(total);
    expect(new Set(made).size).toBe(total);
    // Both took part: the exactly-once above held across both, not by one process doing all.
    expect(attemptLines.map((lines) => lines.length >= 1)).toEqual([true, true]);
  },
  150_000,
);

test(
  "the admin command end to end: add (the secret once), list, test, deliveries, redeliver, rotate-secret, disable, enable (from where it stopped), remove; refusals exit non-zero and store nothing",
  async () => {
    const db = await database();
    const net = await network(db);
    const receiver = await startWebhookReceiver();
    closers.push(() => receiver.close());
    const running = await service(db);
    const api = client(running.url, net.apiKey);
    const webhookEvents = () => eventsOf(api, "&type=webhook.*");

    // Refusals: a private address, loopback without WEBHOOK_ALLOWED_HOSTS, an unknown webhook.
    const [privateUrl, loopback] = await Promise.all([
      adminRaw(db, ["webhook", "add", "--network", String(net.id), "--url", "https://10.0.0.1/x"], {}),
      adminRaw(db, ["webhook", "add", "--network", String(net.id), "--url", `https://127.0.0.1:${receiver.port}/x`], {}),
    ]);
    expect(privateUrl).toMatchObject({ code: 1, stdout: "" });
    expect(privateUrl.stderr).toMatch(/refused: 10\.0\.0\.1 is a private address/);
    expect(loopback).toMatchObject({ code: 1, stdout: "" });
    expect(loopback.stderr).toMatch(/refused: 127\.0\.0\.1 is a loopback address/);
    const unknown = await Promise.all(
      [["test"], ["deliveries"], ["rotate-secret"], ["disable"], ["enable"], ["remove"], ["redeliver", "--sequence", "1"]].map(([command, ...rest]) =>
        adminRaw(db, ["webhook", command, "--webhook", "987654", ...rest]),
      ),
    );
    for (const run of unknown) {
      expect(run.code).not.toBe(0);
      expect(run.stdout).toBe("");
      expect(run.stderr.trim()).toBe("No webhook with id 987654.");
    }
    expect((await admin(db, "webhook", "list", "--network", String(net.id))).webhooks).toEqual([]);
    expect(await webhookEvents()).toEqual([]);
    expect(receiver.requests).toHaveLength(0);

    // add: the secret printed this once; list never shows it.
    const add = await adminRaw(db, ["webhook", "add", "--network", String(net.id), "--url", `${receiver.url}/admin`, "--types", "vehicle.created", "--description", "Archive"]);
    expect(add.code).toBe(0);
    const { webhook, secret } = JSON.parse(add.stdout);
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32,}={0,2}$/);
    expect(add.stdout.split(secret)).toHaveLength(2);
    expect(webhook).toMatchObject({ networkId: net.id, url: `${receiver.url}/admin`, description: "Archive", types: ["vehicle.created"], format: "standard", enabled: true });
    const listRun = await adminRaw(db, ["webhook", "list", "--network", String(net.id)]);
    expect(listRun.code).toBe(0);
    // (Its delivery state moves on: its own webhook.created is past the types filter.)
    expect(JSON.parse(listRun.stdout).webhooks).toEqual([{ ...webhook, deliveredThrough: expect.any(Number) }]);
    expect(listRun.stdout).not.toContain("whsec_");
    const id = String(webhook.id);

    // test: the receiver gets a verifying webhook.test, the attempt is printed; it is not recorded.
    const tested = await adminRaw(db, ["webhook", "test", "--webhook", id]);
    expect(tested.code).toBe(0);
    const { attempt } = JSON.parse(tested.stdout);
    expect(attempt).toMatchObject({ webhookId: webhook.id, status: 200, kind: "test", outcome: "delivered", error: null });
    expect(receiver.requests).toHaveLength(1);
    const testEvent = verified(secret, receiver.requests[0]);
    expect(testEvent).toMatchObject({ id: attempt.eventId, type: "webhook.test" });
    expect((await eventsOf(api)).map((event) => event.type)).not.toContain("webhook.test");

    // deliveries: the test attempt.
    expect(await deliveries(db, webhook.id)).toEqual([{ ...attempt, id: expect.any(Number) }]);
    // A test the receiver refuses: the attempt is printed, and the exit code says it failed.
    receiver.answerWith(() => ({ status: 500 }));
    const refusedTest = await adminRaw(db, ["webhook", "test", "--webhook", id]);
    expect(refusedTest.code).toBe(1);
    expect(JSON.parse(refusedTest.stdout).attempt).toMatchObject({ status: 500, kind: "test", outcome: "failed", error: "HTTP 500" });
    receiver.answerWith(() => ({ status: 200 }));
    receiver.requests.splice(1);

    // A delivery, and its redelivery: the same webhook-id and body, signed anew.
    const [firstVehicle] = await writeVehicles([api], 1, "ADM");
    await receiver.until((requests) => requests.length >= 2);
    const delivered = verified(secret, receiver.requests[1]);
    expect(delivered).toMatchObject({ type: "vehicle.created", data: expect.objectContaining({ id: firstVehicle }) });
    const redelivery = await admin(db, "webhook", "redeliver", "--webhook", id, "--sequence", String(delivered.sequence));
    expect(redelivery.attempt).toMatchObject({ eventId: delivered.id, status: 200, kind: "redelivery", outcome: "delivered" });
    expect(receiver.requests).toHaveLength(3);
    expect(receiver.requests[2].headers["webhook-id"]).toBe(delivered.id);
    expect(receiver.requests[2].body).toBe(receiver.requests[1].body);

    // rotate-secret: a new secret, printed once; the next delivery verifies with both.
    const rotateRun = await adminRaw(db, ["webhook", "rotate-secret", "--webhook", id]);
    expect(rotateRun.code).toBe(0);
    const rotated = JSON.parse(rotateRun.stdout).secret as string;
    expect(rotated).toMatch(/^whsec_/);
    expect(rotated).not.toBe(secret);
    // The new secret only: neither the old one nor any other secret field is printed.
    expect(Object.keys(JSON.parse(rotateRun.stdout).webhook).sort()).toEqual(Object.keys(webhook).sort());
    expect(rotateRun.stdout.split("whsec_")).toHaveLength(2);
    await writeVehicles([api], 1, "ROT");
    await receiver.until((requests) => requests.length >= 4);
    expect(String(receiver.requests[3].headers["webhook-signature"]).split(" ")).toHaveLength(2);
    expect(verified(secret, receiver.requests[3]).type).toBe("vehicle.created");
    expect(verified(rotated, receiver.requests[3]).type).toBe("vehicle.created");

    // disable: nothing is delivered while disabled; enable: the events written meanwhile arrive, in order.
    expect((await admin(db, "webhook", "disable", "--webhook", id)).webhook.enabled).toBe(false);
    const whileDisabled = await writeVehicles([api], 3, "OFF");
    await sleep(3_000);
    expect(receiver.requests).toHaveLength(4);
    expect((await admin(db, "webhook", "enable", "--webhook", id)).webhook.enabled).toBe(true);
    await receiver.until((requests) => requests.length >= 7, 15_000);
    expect(receiver.requests.slice(4).map((request) => verified(rotated, request).data.id)).toEqual(whileDisabled);

    // remove: gone from the list, nothing delivered after it, its log gone with it.
    expect((await admin(db, "webhook", "remove", "--webhook", id)).webhook.id).toBe(webhook.id);
    expect((await admin(db, "webhook", "list", "--network", String(net.id))).webhooks).toEqual([]);
    await writeVehicles([api], 1, "GONE");
    const afterRemove = await adminRaw(db, ["webhook", "deliveries", "--webhook", id]);
    expect(afterRemove.code).not.toBe(0);
    expect(afterRemove.stderr.trim()).toBe(`No webhook with id ${id}.`);
    await sleep(1_500);
    expect(receiver.requests).toHaveLength(7);

    // What was recorded: the changes the commands made, never a secret.
    const recorded = await webhookEvents();
    expect(recorded.map((event) => event.type)).toEqual(["webhook.created", "webhook.updated", "webhook.updated", "webhook.updated", "webhook.deleted"]);
    expect(JSON.stringify(recorded)).not.toContain("whsec_");
  },
  150_000,
);

// A webhook changed while its worker delivers a backlog: the change applies from the next attempt
// (at most the attempts already made, or signed, when the change commits go as before).
describe("changed while a backlog is being delivered", () => {
  /** A service delivering 40 events to a receiver answering each after 100 ms, 3 of them delivered. */
  async function busyWebhook() {
    const db = await database();
    const net = await network(db);
    const receiver = await startPacedReceiver(100);
    const { webhook, secret } = await addWebhook(db, net.id, `${receiver.url}/busy`, "--types", "vehicle.created");
    // A lease of 2 s + 5 s: a webhook its worker let go of without releasing it is taken again soon.
    const running = await service(db, { WEBHOOK_TIMEOUT_MS: "2000" });
    const api = client(running.url, net.apiKey);
    await writeVehicles([api], 40, "BUSY", 4);
    await eventually(() => receiver.requests.length >= 3, 20_000, () => `${receiver.requests.length} requests`);
    return { db, api, receiver, id: String(webhook.id), secret };
  }

  test(
    "disable: no delivery after the attempt in flight; enable: the rest, from where it stopped; every attempt made is logged",
    async () => {
      const { db, api, receiver, id, secret } = await busyWebhook();
      expect((await admin(db, "webhook", "disable", "--webhook", id)).webhook.enabled).toBe(false);
      const atDisable = receiver.requests.length;
      expect(atDisable).toBeLessThan(30);
      await sleep(2_000);
      expect(receiver.requests.length - atDisable).toBeLessThanOrEqual(2);

      expect((await admin(db, "webhook", "enable", "--webhook", id)).webhook.enabled).toBe(true);
      await eventually(() => byWebhookId(receiver.requests).size >= 40, 20_000, () => `${byWebhookId(receiver.requests).size} of 40 events`);
      await sleep(500);
      const events = await eventsOf(api, "&type=vehicle.created");
      expect([...byWebhookId(receiver.requests).keys()]).toEqual(events.map((event) => event.id));
      for (const request of receiver.requests) verified(secret, request);
      // The log holds every attempt the receiver got, the one cut short by the disabling too.
      const logged = (await deliveries(db, Number(id))).filter((attempt) => attempt.kind === "delivery");
      const received = receiver.requests.map((request) => String(request.headers["webhook-id"]));
      const count = (ids: string[]) => ids.reduce((counts, eventId) => counts.set(eventId, (counts.get(eventId) ?? 0) + 1), new Map<string, number>());
      const loggedCounts = count(logged.map((attempt) => attempt.eventId));
      const unlogged = [...count(received)].filter(([eventId, times]) => loggedCounts.get(eventId) !== times);
      expect({ received: received.length, logged: logged.length, unlogged }).toEqual({ received: received.length, logged: received.length, unlogged: [] });
    },
    60_000,
  );

  test(
    "rotate-secret: after the attempt in flight, every delivery verifies with the new secret (and the old one)",
    async () => {
      const { db, receiver, id, secret } = await busyWebhook();
      const rotated = (await admin(db, "webhook", "rotate-secret", "--webhook", id)).secret as string;
      const atRotation = receiver.requests.length;
      expect(atRotation).toBeLessThan(30);
      await eventually(() => receiver.requests.length >= 40, 20_000, () => `${receiver.requests.length} of 40 requests`);
      const later = receiver.requests.slice(atRotation + 2);
      const verifying = (key: string) =>
        later.filter((request) => {
          try {
            return verified(key, request).type === "vehicle.created";
          } catch {
            return false;
          }
        }).length;
      expect({ sentAfterRotation: later.length, verifyingWithOld: verifying(secret), verifyingWithNew: verifying(rotated) }).toEqual({
        sentAfterRotation: later.length,
        verifyingWithOld: later.length,
        verifyingWithNew: later.length,
      });
    },
    60_000,
  );

  test(
    "a new URL (GraphQL updateWebhook): the deliveries after the attempt in flight go there",
    async () => {
      const { api, receiver, id } = await busyWebhook();
      const moved = await api.graphql(`mutation ($id: ID!, $url: String!) { updateWebhook(id: $id, input: { url: $url }) { url } }`, {
        id,
        url: `${receiver.url}/moved`,
      });
      expect(moved.body).toEqual({ data: { updateWebhook: { url: `${receiver.url}/moved` } } });
      const atMove = receiver.requests.length;
      expect(atMove).toBeLessThan(30);
      await eventually(() => byWebhookId(receiver.requests).size >= 40, 20_000, () => `${byWebhookId(receiver.requests).size} of 40 events`);
      const later = receiver.requests.slice(atMove + 2);
      expect({ sentAfterMove: later.length, toOldUrl: later.filter((request) => request.path === "/busy").length }).toEqual({
        sentAfterMove: later.length,
        toOldUrl: 0,
      });
    },
    60_000,
  );
});
