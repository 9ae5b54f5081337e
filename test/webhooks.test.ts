// Webhooks (CONTRACT: "Webhooks") through the public interfaces, with real receivers on 127.0.0.1
// and the delivery worker of src/webhooks/delivery.ts running beside a real server and database:
// - managed over GraphQL with scope `admin` only, per network; secrets shown once; refused URLs (422);
// - every delivery verifies with the `standardwebhooks` library; a changed byte or an old
//   timestamp does not; a rotated secret's old one signs for a day beside the new one;
// - a receiver down, then up, gets every event in order with the same webhook-id on every attempt;
//   Retry-After is honoured; after the schedule an event is given up and the next ones go on; 410
//   disables (the service's change, recorded); a redelivery carries the same webhook-id;
// - Discord: embeds batched, the stand-in's rate limits never exceeded, 429 honoured;
// - private addresses refused when saved and when connecting (a stubbed resolver).
import http from "node:http";
import type { AddressInfo, LookupFunction } from "node:net";
import type { Database } from "../src/db/client";
import { startService, type TestNetwork, type TestService } from "./support/service";
import { client, type Client } from "./support/http";
import { startWebhookReceiver, verified, type WebhookReceiver } from "./support/webhookReceiver";
import { startDiscordStandIn, type DiscordStandIn } from "./support/discordStandIn";
import { startWebhookDelivery, type WebhookDelivery } from "../src/webhooks/delivery";
import type { WebhookSettings } from "../src/config/webhooks";
import type { AttemptObserver } from "../src/webhooks/attempts";
import type { LookupAll } from "../src/webhooks/addresses";
import { createKey } from "../src/resolvers/apiKeys";
import { adminScope } from "../src/admin/keys";
import { maxWebhooksPerNetwork } from "../src/db/webhooks";
import { readBatch } from "../src/webhooks/eventReads";
import { removeExpiredEvents } from "../src/events/retention";
import { Prisma } from "../src/generated/prisma/client";

jest.setTimeout(120_000);

/** Names the tests resolve: public at save, private at connection (DNS rebinding). */
const stubbedNames: Record<string, { save: string; connect: string }> = {
  "rebinding.example": { save: "93.184.215.14", connect: "10.0.0.5" },
  "private.example": { save: "192.168.1.20", connect: "192.168.1.20" },
};

const lookupAll: LookupAll = async (host) => {
  const stubbed = stubbedNames[host];
  if (!stubbed) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" });
  return [{ address: stubbed.save, family: 4 }];
};

const lookup = ((host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
  const stubbed = stubbedNames[host];
  if (!stubbed) return callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" }));
  if (options.all) callback(null, [{ address: stubbed.connect, family: 4 }]);
  else callback(null, stubbed.connect, 4);
}) as unknown as LookupFunction;

const attempts: Parameters<AttemptObserver["attempted"]>[0][] = [];
const observer: AttemptObserver = { attempted: (entry) => attempts.push(entry), delivered: () => undefined };

const settings: WebhookSettings = {
  retryScheduleMs: [300, 300, 300],
  timeoutMs: 2_000,
  allowedHosts: ["127.0.0.1"],
  lookup,
  lookupAll,
};

let service: TestService;
let delivery: WebhookDelivery;

beforeAll(async () => {
  service = await startService({ webhooks: { settings, observer } });
  delivery = startWebhookDelivery(service.db, settings, observer);
});
afterAll(async () => {
  await delivery?.stop();
  await service?.close();
});

// ---------------------------------------------------------------------------------------------

async function gql(api: Client, query: string, variables?: Record<string, unknown>): Promise<any> {
  const response = await api.graphql(query, variables);
  expect({ status: response.status, errors: response.body.errors }).toEqual({ status: 200, errors: undefined });
  return response.body.data;
}

const webhookFields = "id url description types format enabled disabledReason deliveredThrough failedAttempts";

async function createWebhook(api: Client, input: Record<string, unknown>): Promise<{ webhook: any; secret: string | null }> {
  return (await gql(api, `mutation ($input: CreateWebhookInput!) { createWebhook(input: $input) { secret webhook { ${webhookFields} } } }`, { input }))
    .createWebhook;
}

async function newNetwork(): Promise<TestNetwork & { api: Client }> {
  const network = await service.network();
  return { ...network, api: client(service.url, network.apiKey) };
}

/** Writes `count` vehicles; answers their ids. */
async function vehicles(api: Client, count: number, prefix = "WH"): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < count; i++) {
    const created = await api.post("/vehicles", { plate: `${prefix}-${i}` });
    expect(created.status).toBe(201);
    ids.push(created.body.data.id);
  }
  return ids;
}

async function webhookState(api: Client, id: number): Promise<any> {
  return (await gql(api, `{ webhooks { ${webhookFields} } }`)).webhooks.find((webhook: any) => webhook.id === id);
}

async function eventually<T>(read: () => Promise<T>, holds: (value: T) => boolean, timeoutMs = 20_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (holds(value)) return value;
    if (Date.now() > end) throw new Error(`never held: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

// ---------------------------------------------------------------------------------------------

describe("managing webhooks (GraphQL, scope admin)", () => {
  test("made with a secret shown once, listed without it, changed, rotated, deleted; each change recorded", async () => {
    const net = await newNetwork();
    const created = await createWebhook(net.api, { url: "https://93.184.215.14/hooks/vrd", types: ["vehicle.*", "dutytime.started"], description: "Archive" });
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(created.webhook).toMatchObject({ url: "https://93.184.215.14/hooks/vrd", types: ["vehicle.*", "dutytime.started"], format: "standard", enabled: true });
    const id = created.webhook.id;
    const listed = await net.api.graphql("{ webhooks { id url } }");
    expect(listed.text).not.toContain(created.secret!);

    const updated = (await gql(net.api, `mutation ($id: ID!) { updateWebhook(id: $id, input: { description: "Audit", enabled: false }) { ${webhookFields} } }`, { id })).updateWebhook;
    expect(updated).toMatchObject({ description: "Audit", enabled: false });
    const rotated = (await gql(net.api, `mutation ($id: ID!) { rotateWebhookSecret(id: $id) { secret } }`, { id })).rotateWebhookSecret;
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(created.secret);
    const deleted = (await gql(net.api, `mutation ($id: ID!) { deleteWebhook(id: $id) { id } }`, { id })).deleteWebhook;
    expect(deleted.id).toBe(id);
    expect(await webhookState(net.api, id)).toBeUndefined();

    const events = (await net.api.get("/events?type=webhook.*")).body.data.reverse();
    expect(events.map((event: any) => event.type)).toEqual(["webhook.created", "webhook.updated", "webhook.updated", "webhook.deleted"]);
    expect(events[1].data).toEqual({ changes: { description: { from: "Archive", to: "Audit" }, enabled: { from: true, to: false } } });
    expect(JSON.stringify(events)).not.toContain("whsec_");
  });

  test("only a key with admin manages them, only its network's", async () => {
    const net = await newNetwork();
    const other = await newNetwork();
    const { webhook } = await createWebhook(net.api, { url: "https://93.184.215.14/a" });
    const writer = await createKey(adminScope(service.db, net.id, new Date()), { name: "writer", scopes: ["read", "write"], origins: [], expiresAt: null });
    const writerApi = client(service.url, writer.apiKey);
    const refused = await writerApi.graphql("{ webhooks { id } }");
    expect(refused.status).toBe(403);
    expect(refused.body.errors[0].extensions.code).toBe("FORBIDDEN");
    expect((await writerApi.graphql(`mutation { createWebhook(input: { url: "https://93.184.215.14/b" }) { secret } }`)).status).toBe(403);
    // Another network's admin key: not its webhook.
    expect((await gql(other.api, "{ webhooks { id } }")).webhooks).toEqual([]);
    const foreign = await other.api.graphql(`mutation ($id: ID!) { deleteWebhook(id: $id) { id } }`, { id: webhook.id });
    expect(foreign.body.errors[0].extensions.code).toBe("NOT_FOUND");
    const foreignTest = await other.api.graphql(`mutation ($id: ID!) { testWebhook(id: $id) { status } }`, { id: webhook.id });
    expect(foreignTest.body.errors[0].extensions.code).toBe("NOT_FOUND");
    expect(await webhookState(net.api, webhook.id)).toBeDefined();
  });

  test("refused inputs: BAD_USER_INPUT (422) by field, nothing stored", async () => {
    const net = await newNetwork();
    const refusal = async (input: Record<string, unknown>) => {
      const response = await net.api.graphql(`mutation ($input: CreateWebhookInput!) { createWebhook(input: $input) { secret } }`, { input });
      expect(response.body.errors[0].extensions.code).toBe("BAD_USER_INPUT");
      return response.body.errors[0].extensions.errors as Record<string, string[]>;
    };
    expect((await refusal({ url: "http://93.184.215.14/hook" })).url[0]).toMatch(/https/);
    expect((await refusal({ url: "https://user:secret@93.184.215.14/hook" })).url).toBeDefined();
    expect((await refusal({ url: "https://10.1.2.3/hook" })).url[0]).toMatch(/private/);
    expect((await refusal({ url: "https://[::1]/hook" })).url[0]).toMatch(/loopback/);
    expect((await refusal({ url: "https://[::ffff:169.254.169.254]/hook" })).url[0]).toMatch(/refused/);
    expect((await refusal({ url: "https://100.64.0.1/hook" })).url[0]).toMatch(/refused/);
    expect((await refusal({ url: "https://private.example/hook" })).url[0]).toMatch(/192\.168\.1\.20/);
    expect((await refusal({ url: "https://nowhere.example/hook" })).url[0]).toMatch(/resolve/);
    expect((await refusal({ url: "not a url" })).url).toBeDefined();
    expect((await refusal({ url: "https://93.184.215.14/x", types: ["vehicle.flown"] })).types).toBeDefined();
    expect((await refusal({ url: "https://93.184.215.14/not-discord", format: "discord" })).url[0]).toMatch(/Discord/);
    expect((await refusal({ url: "https://93.184.215.14/x", description: "x".repeat(501) })).description).toBeDefined();
    expect((await gql(net.api, "{ webhooks { id } }")).webhooks).toEqual([]);
  });

  test(`a network holds at most ${maxWebhooksPerNetwork}`, async () => {
    const net = await newNetwork();
    await Promise.all(Array.from({ length: maxWebhooksPerNetwork + 3 }, (_, i) =>
      net.api.graphql(`mutation { createWebhook(input: { url: "https://93.184.215.14/${i}" }) { secret } }`),
    ));
    expect((await gql(net.api, "{ webhooks { id } }")).webhooks).toHaveLength(maxWebhooksPerNetwork);
    const over = await net.api.graphql(`mutation { createWebhook(input: { url: "https://93.184.215.14/over" }) { secret } }`);
    expect(over.body.errors[0].extensions.code).toBe("CONFLICT");
  });
});

describe("standard delivery", () => {
  let receiver: WebhookReceiver;
  beforeEach(async () => {
    receiver = await startWebhookReceiver();
  });
  afterEach(() => receiver.close());

  test("every event after its making, in order, each verifying with its secret; a changed byte or an old timestamp does not", async () => {
    const net = await newNetwork();
    const { webhook, secret } = await createWebhook(net.api, { url: `${receiver.url}/hook` });
    const ids = await vehicles(net.api, 5);
    await receiver.until((requests) => requests.length >= 6);
    const events = receiver.requests.map((request) => verified(secret!, request));
    expect(events.map((event) => event.type)).toEqual(["webhook.created", ...ids.map(() => "vehicle.created")]);
    expect(events.map((event) => event.sequence)).toEqual(events.map((_, i) => events[0].sequence + i));
    expect(events.map((event) => event.id)).toEqual(receiver.requests.map((request) => request.headers["webhook-id"]));
    expect(events.slice(1).map((event) => event.data.id)).toEqual(ids);
    // As /events shows them.
    const shown = (await net.api.get(`/events?after=${events[0].sequence - 1}`)).body.data.reverse();
    expect(events).toEqual(shown);
    const request = receiver.requests[1];
    expect(() => verified(secret!, { ...request, body: request.body.replace('"vehicle.created"', '"vehicle.createe"') })).toThrow();
    const old = String(Number(request.headers["webhook-timestamp"]) - 600);
    expect(() => verified(secret!, { ...request, headers: { ...request.headers, "webhook-timestamp": old } })).toThrow();
    expect((await webhookState(net.api, webhook.id)).deliveredThrough).toBe(events.at(-1)!.sequence);
  });

  test("types filter what is sent; another network's events never are", async () => {
    const net = await newNetwork();
    const other = await newNetwork();
    const { secret } = await createWebhook(net.api, { url: `${receiver.url}/filtered`, types: ["vehicle.deleted"] });
    const [first] = await vehicles(net.api, 2, "F");
    await vehicles(other.api, 2, "O");
    expect((await net.api.delete(`/vehicles/${first}`)).status).toBe(204);
    await receiver.until((requests) => requests.length >= 1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.requests.map((request) => verified(secret!, request).type)).toEqual(["vehicle.deleted"]);
  });

  test("webhooks of one network with different filters, under concurrent writes past one read's batch: each gets exactly its events, in order, once", async () => {
    const net = await newNetwork();
    const filters: Record<string, string[]> = { all: [], created: ["vehicle.created"], deleted: ["vehicle.deleted"], officers: ["officer.*"] };
    const secrets: Record<string, string> = {};
    const first = (await net.api.get("/events?per_page=1")).body.data[0].sequence;
    for (const [name, types] of Object.entries(filters)) secrets[name] = (await createWebhook(net.api, { url: `${receiver.url}/${name}`, types })).secret!;
    // 4 writers at once: 120 vehicles, every 30th deleted again, an officer now and then.
    await Promise.all(
      Array.from({ length: 4 }, async (_, writer) => {
        for (let i = 0; i < 30; i++) {
          const created = await net.api.post("/vehicles", { plate: `MIX-${writer}-${i}` });
          if (i % 15 === 14) expect((await net.api.delete(`/vehicles/${created.body.data.id}`)).status).toBe(204);
          if (i % 10 === 9) await net.officer(`mix${writer}${i}`);
        }
      }),
    );
    const all: { id: string; sequence: number; type: string }[] = [];
    for (let before = Infinity; ; ) {
      const page = (await net.api.get(`/events?after=${first}&per_page=100${before === Infinity ? "" : `&before=${before}`}`)).body.data;
      all.push(...page);
      if (page.length < 100) break;
      before = page.at(-1).sequence;
    }
    all.reverse();
    const expected = (name: string) => all.filter((event) => filters[name].length === 0 || filters[name].some((term) => (term.endsWith(".*") ? event.type.startsWith(term.slice(0, -1)) : event.type === term)));
    await receiver
      .until((requests) => Object.keys(filters).every((name) => requests.filter((request) => request.path === `/${name}`).length >= expected(name).length))
      .catch((error) => {
        throw new Error(`${error}: ${Object.keys(filters).map((name) => `${name} ${receiver.requests.filter((request) => request.path === `/${name}`).length}/${expected(name).length}`)}`);
      });
    await new Promise((resolve) => setTimeout(resolve, 300));
    for (const name of Object.keys(filters)) {
      const got = receiver.requests.filter((request) => request.path === `/${name}`).map((request) => verified(secrets[name], request));
      expect({ name, ids: got.map((event) => event.id) }).toEqual({ name, ids: expected(name).map((event) => event.id) });
    }
    expect(expected("all").length).toBeGreaterThan(2 * readBatch);
  });

  test("after a rotation both secrets sign for a day; the new one alone verifies the next", async () => {
    const net = await newNetwork();
    const { webhook, secret: first } = await createWebhook(net.api, { url: `${receiver.url}/rotated`, types: ["vehicle.created"] });
    const { secret: second } = (await gql(net.api, `mutation ($id: ID!) { rotateWebhookSecret(id: $id) { secret } }`, { id: webhook.id })).rotateWebhookSecret;
    await vehicles(net.api, 1, "R");
    await receiver.until((requests) => requests.length >= 1);
    const [request] = receiver.requests;
    expect(String(request.headers["webhook-signature"]).split(" ")).toHaveLength(2);
    expect(verified(first!, request).type).toBe("vehicle.created");
    expect(verified(second, request).type).toBe("vehicle.created");
  });

  test("a receiver down, then up: every event, in order, the same webhook-id on each attempt", async () => {
    const net = await newNetwork();
    const { secret } = await createWebhook(net.api, { url: `${receiver.url}/down`, types: ["vehicle.created"] });
    receiver.answerWith(() => ({ status: 503 }));
    await vehicles(net.api, 4, "D");
    await receiver.until((requests) => requests.length >= 2);
    receiver.answerWith(() => ({ status: 200 }));
    await receiver.until((requests) => requests.filter((request) => request.status === 200).length >= 4);
    const ids = receiver.requests.map((request) => String(request.headers["webhook-id"]));
    // The first event was tried until it went through; then each of the others once.
    const delivered = receiver.delivered().map((request) => verified(secret!, request));
    expect(delivered.map((event) => event.data.plate)).toEqual(["D-0", "D-1", "D-2", "D-3"]);
    expect(new Set(ids.slice(0, ids.length - 3))).toEqual(new Set([delivered[0].id]));
  });

  test("Retry-After is honoured", async () => {
    const net = await newNetwork();
    await createWebhook(net.api, { url: `${receiver.url}/later`, types: ["vehicle.created"] });
    let first = true;
    receiver.answerWith(() => {
      if (!first) return { status: 204 };
      first = false;
      return { status: 503, headers: { "Retry-After": "2" } };
    });
    await vehicles(net.api, 1, "L");
    await receiver.until((requests) => requests.length >= 2);
    expect(receiver.requests[1].at - receiver.requests[0].at).toBeGreaterThanOrEqual(1_900);
  });

  test("after the schedule an event is given up, logged, and the next ones go on; it can be redelivered with the same webhook-id", async () => {
    const net = await newNetwork();
    const { webhook, secret } = await createWebhook(net.api, { url: `${receiver.url}/flaky`, types: ["vehicle.created"] });
    receiver.answerWith((request) => (request.body.includes('"G-0"') ? { status: 500 } : { status: 200 }));
    await vehicles(net.api, 2, "G");
    await receiver.until((requests) => requests.some((request) => request.body.includes('"G-1"')));
    const tried = receiver.requests.filter((request) => request.body.includes('"G-0"'));
    expect(tried).toHaveLength(settings.retryScheduleMs.length + 1);
    const log = (await gql(net.api, `{ webhooks { id attempts(perPage: 20) { eventId attempt status outcome kind error } } }`)).webhooks.find(
      (each: any) => each.id === webhook.id,
    ).attempts;
    const g0 = verified(secret!, tried[0]);
    expect(log.filter((entry: any) => entry.eventId === g0.id).map((entry: any) => entry.outcome)).toEqual(["gave-up", "retrying", "retrying", "retrying"]);
    receiver.answerWith(() => ({ status: 200 }));
    const again = (await gql(net.api, `mutation ($id: ID!, $sequence: Int!) { redeliverWebhookEvent(id: $id, sequence: $sequence) { status outcome kind eventId } }`, {
      id: webhook.id,
      sequence: g0.sequence,
    })).redeliverWebhookEvent;
    expect(again).toEqual({ status: 200, outcome: "delivered", kind: "redelivery", eventId: g0.id });
    expect(verified(secret!, receiver.requests.at(-1)!).id).toBe(g0.id);
  });

  test("410 disables the webhook at once: the service's change, recorded; enabling it goes on from there", async () => {
    const net = await newNetwork();
    const { webhook } = await createWebhook(net.api, { url: `${receiver.url}/gone`, types: ["vehicle.created"] });
    receiver.answerWith(() => ({ status: 410 }));
    await vehicles(net.api, 2, "X");
    const state = await eventually(() => webhookState(net.api, webhook.id), (each) => !each.enabled);
    expect(state.disabledReason).toMatch(/410/);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(receiver.requests).toHaveLength(1);
    const [disabled] = (await net.api.get("/events?type=webhook.updated")).body.data;
    expect(disabled).toMatchObject({ actor: { kind: "system" }, subject: { type: "webhook", id: String(webhook.id) }, data: { changes: { enabled: { from: true, to: false } } } });
    receiver.answerWith(() => ({ status: 200 }));
    await gql(net.api, `mutation ($id: ID!) { updateWebhook(id: $id, input: { enabled: true }) { id } }`, { id: webhook.id });
    await receiver.until((requests) => requests.filter((request) => request.status === 200).length >= 2);
  });

  test("failing for 5 days in a row disables the webhook (the run of failures counted on the database's clock)", async () => {
    const net = await newNetwork();
    const { webhook } = await createWebhook(net.api, { url: `${receiver.url}/failing`, types: ["vehicle.created"] });
    receiver.answerWith(() => ({ status: 500 }));
    await vehicles(net.api, 1, "F5");
    await receiver.until((requests) => requests.length >= 1);
    // The run of failures began 5 days ago (as if the receiver had been failing since).
    const fiveDaysMs = 5 * 86_400_000;
    await service.db.write.execute(Prisma.sql`UPDATE webhooks SET failing_since_ms = failing_since_ms - ${fiveDaysMs} WHERE id = ${webhook.id}`);
    const state = await eventually(() => webhookState(net.api, webhook.id), (each) => !each.enabled);
    expect(state.disabledReason).toMatch(/5 days/);
  });

  test("the delivery log keeps 7 days: older attempts go with the events' retention round", async () => {
    const net = await newNetwork();
    const { webhook } = await createWebhook(net.api, { url: `${receiver.url}/log`, types: ["vehicle.created"] });
    await vehicles(net.api, 2, "LOG");
    await receiver.until((requests) => requests.length >= 2);
    await eventually(async () => (await service.db.webhooks.attempts(webhook.id, { before: null, limit: 10 })).length, (count) => count === 2);
    const eightDaysAgo = new Date(Date.now() - 8 * 86_400_000);
    const [oldest] = (await service.db.webhooks.attempts(webhook.id, { before: null, limit: 10 })).slice(-1);
    await service.db.write.execute(Prisma.sql`UPDATE webhook_attempts SET attempted_at = ${eightDaysAgo} WHERE id = ${oldest.id}`);
    await removeExpiredEvents(service.db, new Date());
    const kept = await service.db.webhooks.attempts(webhook.id, { before: null, limit: 10 });
    expect(kept.map((attempt) => attempt.id)).not.toContain(oldest.id);
    expect(kept).toHaveLength(1);
  });

  test("webhook test: a webhook.test event to that webhook alone, verifying, not recorded", async () => {
    const net = await newNetwork();
    const { webhook, secret } = await createWebhook(net.api, { url: `${receiver.url}/test`, types: ["officer.added"] });
    const before = (await net.api.get("/events")).body.data.length;
    const attempt = (await gql(net.api, `mutation ($id: ID!) { testWebhook(id: $id) { status outcome kind } }`, { id: webhook.id })).testWebhook;
    expect(attempt).toEqual({ status: 200, outcome: "delivered", kind: "test" });
    expect(verified(secret!, receiver.requests[0])).toMatchObject({ type: "webhook.test", subject: { type: "webhook", id: String(webhook.id) } });
    expect((await net.api.get("/events")).body.data).toHaveLength(before);
  });
});

describe("outcomes written together", () => {
  // The webhooks of a network get each event at about the same moment; their outcomes wait a
  // little for the attempts still in flight (here up to 2 s), and commit in one transaction
  // (src/webhooks/delivery.ts).
  test("the outcomes of attempts in flight together commit in one transaction, though answered 20 ms apart", async () => {
    // This test's own worker counts its transactions: the file's worker rests meanwhile.
    await delivery.stop();
    const hooks = 8;
    let received = 0;
    let held: http.ServerResponse[] = [];
    const receiver = http.createServer((req, res) => {
      req.resume();
      req.on("end", () => {
        received++;
        held.push(res);
        if (held.length < hooks) return;
        // All eight in flight at once; answered 0, 20, 40 and 60 ms later: in different turns of the worker's event loop.
        held.forEach((each, i) => setTimeout(() => each.writeHead(204).end(), (i % 4) * 20));
        held = [];
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    const port = (receiver.address() as AddressInfo).port;
    const ours = new Set<number>();
    /** Transactions that wrote an outcome of this test's webhooks. */
    let transactions = 0;
    const counted: Database = {
      ...service.db,
      inTransaction: (work, networkId, shape) =>
        service.db.inTransaction((tx, turn) => {
          let counted = false;
          const settle: typeof tx.webhooks.settle = (owner, id, ...rest) => {
            if (ours.has(id) && !counted) transactions++;
            counted ||= ours.has(id);
            return tx.webhooks.settle(owner, id, ...rest);
          };
          return work({ ...tx, webhooks: { ...tx.webhooks, settle } }, turn);
        }, networkId, shape),
    };
    // The receiver holds each attempt until all eight are in: an attempt timed out meanwhile (a
    // busy machine starts them seconds apart) would be retried, and counted, so none times out here.
    const own = startWebhookDelivery(counted, { ...settings, settleWaitMs: 2_000, timeoutMs: 30_000 }, observer);
    try {
      const net = await newNetwork();
      for (let i = 0; i < hooks; i++) ours.add((await createWebhook(net.api, { url: `http://127.0.0.1:${port}/${i}`, types: ["vehicle.created"] })).webhook.id);
      /** Until every outcome is written: each webhook delivered through the network's last event. */
      const allDelivered = async () => {
        const last = (await net.api.get("/events")).body.data[0].sequence;
        await eventually(
          () => Promise.all([...ours].map(async (id) => (await webhookState(net.api, id)).deliveredThrough)),
          (through) => through.every((sequence) => sequence === last),
        );
      };
      await vehicles(net.api, 1, "TOGETHER-A");
      await eventually(async () => received, (count) => count === hooks);
      // A's outcomes written before counting starts (a slow machine writes them after any fixed pause).
      await allDelivered();
      // Every webhook now waits for the next event (lingering, or taken again once that has ended): one write, eight attempts at once.
      await new Promise((resolve) => setTimeout(resolve, 200));
      transactions = 0;
      await vehicles(net.api, 1, "TOGETHER-B");
      await eventually(async () => received, (count) => count === 2 * hooks);
      await allDelivered();
      expect(transactions).toBe(1);
    } finally {
      await own.stop();
      receiver.closeAllConnections();
      await new Promise((resolve) => receiver.close(resolve));
      delivery = startWebhookDelivery(service.db, settings, observer);
    }
  });
});

describe("addresses", () => {
  test("a name that resolved to a public address when saved but a private one when connecting is refused at connection", async () => {
    const net = await newNetwork();
    const { webhook } = await createWebhook(net.api, { url: "https://rebinding.example/hook", types: ["vehicle.created"] });
    const before = attempts.length;
    await vehicles(net.api, 1, "S");
    await eventually(async () => attempts.slice(before).filter((entry) => entry.webhookId === webhook.id), (entries) => entries.length >= 1);
    const entry = attempts.slice(before).find((each) => each.webhookId === webhook.id)!;
    expect(entry).toMatchObject({ status: null, outcome: "retrying" });
    expect(entry.error).toMatch(/refused: 10\.0\.0\.5/);
  });
});

describe("Discord", () => {
  let discord: DiscordStandIn;
  beforeAll(async () => {
    discord = await startDiscordStandIn();
  });
  afterAll(() => discord.stop());

  test("every duty change posted as embeds, batched, within the rate limit; 429 honoured", async () => {
    const net = await newNetwork();
    const path = `/api/webhooks/${net.id}/token-${net.id}`;
    const { secret } = await createWebhook(net.api, { url: discord.url(path), format: "discord" });
    expect(secret).toBeNull();
    const officers = await Promise.all(Array.from({ length: 5 }, (_, i) => net.officer(`d${i}`, `Officer ${i}`)));
    discord.answer429Next(1, 0.5);
    // 5 officers on and off duty 4 times: 40 duty changes, faster than 5 requests per 2 s could post one each.
    for (let round = 0; round < 4; round++) {
      for (const officer of officers) {
        expect((await net.api.post(`/dutytime/${encodeURIComponent(officer.identifier)}/toggle`)).status).toBe(200);
        expect((await net.api.post(`/dutytime/${encodeURIComponent(officer.identifier)}/toggle`)).status).toBe(200);
      }
    }
    await vehicles(net.api, 2, "N");
    const embeds = () => discord.messages.filter((message) => message.path === path).flatMap((message) => message.body.embeds);
    const start = Date.now();
    while (embeds().length < 40 && Date.now() - start < 60_000) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(embeds()).toHaveLength(40);
    expect(embeds().map((embed: any) => embed.title)).toEqual(Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? "On duty" : "Off duty")));
    expect(discord.early()).toEqual([]);
    expect(discord.messages.filter((message) => message.path === path).every((message) => message.body.embeds.length <= 10)).toBe(true);
  });
});
