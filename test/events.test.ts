// The audit log (CONTRACT: "Events: the audit log"), through the public interfaces only: REST,
// GraphQL over HTTP and the admin command run as a process, on a real server and database.
// - Every write kind records exactly one event (type, subject, actor, data). The write kinds are
//   derived from the schema's Mutation fields, the route table's non-GET routes and the admin
//   command's table; the table below maps each to what performs it, so a new one without an
//   entry (and so without a checked event) fails. A webhook's test and redelivery record none:
//   they are checked to reach a receiver on 127.0.0.1 (allowed by WEBHOOK_ALLOWED_HOSTS) instead.
// - Sequences count per network from 1 without gaps, in commit order, under concurrent writes.
// - A refused or failed write records nothing.
// - GET /events (Laravel's cursor page, its filters), GraphQL events(...) and `admin events list`
//   answer the same events; networks never see each other's; the log needs scope `read`.
import { schema } from "../src/schema";
import { restRouteTable } from "../src/rest/routes";
import { commandTable } from "../src/admin/commands";
import { adminScope } from "../src/admin/keys";
import { createKey, hashApiKey } from "../src/resolvers/apiKeys";
import { eventTypeNames, type EventType } from "../src/model/eventTypes";
import type { Scope } from "../src/model/scopes";
import { defaultWebhookSettings } from "../src/config/webhooks";
import { silentObserver } from "../src/webhooks/attempts";
import { startService, type TestNetwork, type TestService } from "./support/service";
import { client, type Client } from "./support/http";
import { runAdminAsync } from "./support/process";
import { startWebhookReceiver, verified, type WebhookReceiver } from "./support/webhookReceiver";

jest.setTimeout(60_000);

let service: TestService;

beforeAll(async () => {
  // Webhooks may reach the receivers of these tests on 127.0.0.1 (no delivery worker runs here).
  service = await startService({ webhooks: { settings: { ...defaultWebhookSettings, allowedHosts: ["127.0.0.1"] }, observer: silentObserver } });
});
afterAll(() => service?.close());
afterEach(() => service?.clock.reset());

// ---------------------------------------------------------------------------------------------
// Helpers

interface Actor {
  kind: "key" | "admin" | "system";
  keyId: number | null;
  keyName: string | null;
}

interface Event {
  id: string;
  sequence: number;
  type: EventType;
  occurredAt: string;
  actor: Actor;
  subject: { type: string; id: string };
  data: Record<string, any>;
}

const isoInstant = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const adminActor: Actor = { kind: "admin", keyId: null, keyName: null };
const systemActor: Actor = { kind: "system", keyId: null, keyName: null };

/** A key of a network: its client, id, name (and its secret, to look for in events). */
interface TestKey {
  api: Client;
  id: number;
  name: string;
  apiKey: string;
  actor: Actor;
}

async function keyOf(network: { id: number }, name: string, scopes: Scope[]): Promise<TestKey> {
  const { apiKey, key } = await createKey(adminScope(service.db, network.id, new Date()), { name, scopes, origins: [], expiresAt: null });
  return { api: client(service.url, apiKey), id: key.id, name, apiKey, actor: { kind: "key", keyId: key.id, keyName: name } };
}

/** A network with a key of every data scope (`writer`), a read-only, a dutytime-only key. */
interface Net {
  network: TestNetwork;
  id: number;
  writer: TestKey;
  reader: TestKey;
  dutytime: TestKey;
}

let networks = 0;
async function newNetwork(name = `Events ${++networks}`): Promise<Net> {
  const network = await service.network({ name });
  const [writer, reader, dutytime] = [
    await keyOf(network, "writer", ["read", "write", "admin"]),
    await keyOf(network, "reader", ["read"]),
    await keyOf(network, "dutytime bot", ["dutytime"]),
  ];
  return { network, id: network.id, writer, reader, dutytime };
}

async function gql(api: Client, query: string, variables?: Record<string, unknown>): Promise<any> {
  const response = await api.graphql(query, variables);
  expect({ status: response.status, errors: response.body.errors }).toEqual({ status: 200, errors: undefined });
  return response.body.data;
}

/** A GraphQL operation that must fail: its first error's code. */
async function gqlCode(api: Client, query: string, variables?: Record<string, unknown>): Promise<string> {
  const response = await api.graphql(query, variables);
  expect(response.body.errors?.length).toBeGreaterThan(0);
  return response.body.errors[0].extensions.code;
}

/** The network's events after `mark`, in sequence order (GET /events, one page). */
async function eventsAfter(api: Client, mark: number): Promise<Event[]> {
  const response = await api.get(`/events?after=${mark}&per_page=200`);
  expect(response.status).toBe(200);
  return [...response.body.data].reverse();
}

/** The network's last sequence (0: none yet). */
async function lastSequence(api: Client): Promise<number> {
  const response = await api.get("/events?per_page=1");
  expect(response.status).toBe(200);
  return response.body.data[0]?.sequence ?? 0;
}

/** Every event of the network, newest first, by following `links.next` from the first page. */
async function everyEvent(api: Client, query = "per_page=200"): Promise<Event[][]> {
  const pages: Event[][] = [];
  let next: string | null = `${service.url}/events?${query}`;
  while (next !== null) {
    const response = await api.get(next.slice(service.url.length));
    expect(response.status).toBe(200);
    pages.push(response.body.data);
    next = response.body.links.next;
  }
  return pages;
}

type AdminRun = { code: number | null; stdout: string; stderr: string };
const adminRaw = (...args: string[]): Promise<AdminRun> => runAdminAsync(args, { DATABASE_URL: service.databaseUrl, WEBHOOK_ALLOWED_HOSTS: "127.0.0.1" });
async function admin(...args: string[]): Promise<any> {
  const run = await adminRaw(...args);
  expect({ args, code: run.code, stderr: run.code === 0 ? "" : run.stderr }).toEqual({ args, code: 0, stderr: "" });
  return JSON.parse(run.stdout);
}

const identifier = (value: string) => `steam:${value}`;
const at = (instant: string | number | Date) => new Date(instant).toISOString();

/** Entry id of the officer's open entry (GraphQL officer.currentEntry). */
async function openEntryOf(api: Client, officer: string): Promise<{ id: number; startedAt: string }> {
  const data = await gql(api, "query ($id: String!) { officer(identifier: $id) { currentEntry { id startedAt } } }", { id: officer });
  expect(data.officer.currentEntry).not.toBeNull();
  return data.officer.currentEntry;
}

/** Stops the service's clock at this instant (reset after each test). */
const setClock = (instant: number | string) => service.clock.set(new Date(instant));

/** Now, to the second, some time ago: the service's clock is set to it for exact durations. */
const secondsAgo = (seconds: number) => Math.floor(Date.now() / 1000) * 1000 - seconds * 1000;

const vehicleSelection = "id plate carType car owner generalInspection comment color wanted wantedReason synced syncId createdAt updatedAt";

// ---------------------------------------------------------------------------------------------
// 1. Every write kind records exactly one event.

/** What performing a write kind answers: the events it must have recorded, and where to read them. */
interface Performed {
  /** Reads the network's events (default: the shared network's writer). */
  reader?: Client;
  /** Its network's id (default: the shared network's). */
  networkId?: number;
  /** The network's last sequence before the write. */
  mark: number;
  /** The events the write recorded, in order (id, sequence and occurredAt are checked by the harness). */
  expected: (Omit<Event, "id" | "sequence" | "occurredAt"> & { occurredAt?: string })[];
  /** Secrets that must appear nowhere in the events' JSON. */
  secrets?: string[];
}

interface WriteKind {
  /** The event types the write kind records. */
  types: EventType[];
  perform: (net: Net) => Promise<Performed>;
}

/** The data-changing admin commands are every command but these, which only read (or copy). */
const readOnlyCommands = ["network list", "key list", "events list", "webhook list", "webhook deliveries", "backup"];

const derivedWriteKinds = () =>
  [
    ...Object.keys(schema.getMutationType()!.getFields()).map((field) => `Mutation.${field}`),
    ...restRouteTable.filter((route) => route.method !== "GET").map((route) => `${route.method} ${route.path}`),
    ...Object.keys(commandTable)
      .filter((command) => !readOnlyCommands.includes(command))
      .map((command) => `admin ${command}`),
  ].sort();

/** REST: a vehicle created, as answered. */
async function restVehicle(api: Client, body: Record<string, unknown>) {
  const created = await api.post("/vehicles", body);
  expect(created.status).toBe(201);
  return created.body.data;
}

async function gqlVehicle(api: Client, input: Record<string, unknown>) {
  return (await gql(api, `mutation ($input: CreateVehicleInput!) { createVehicle(input: $input) { ${vehicleSelection} } }`, { input })).createVehicle;
}

const keyFields = "id name prefix scopes origins expiresAt revokedAt";

/** A webhook's fields as its events show it (never its secret). */
const webhookFields = "id url description types format enabled disabledReason createdAt";
/** A public address, as an IP literal: saved without DNS, never contacted (no delivery worker runs here). */
const publicHook = (path: string) => `https://93.184.215.14/hooks/${path}`;

/** GraphQL: a webhook made, as answered, with its secret. */
async function gqlWebhook(api: Client, input: Record<string, unknown>): Promise<{ webhook: any; secret: string }> {
  const created = (await gql(api, `mutation ($input: CreateWebhookInput!) { createWebhook(input: $input) { secret webhook { ${webhookFields} } } }`, { input })).createWebhook;
  expect(created.secret).toMatch(/^whsec_/);
  return created;
}

/** A webhook as the admin command prints it, less what its events do not show (its delivery state). */
function adminWebhookShown(printed: Record<string, unknown>) {
  const { networkId: _network, deliveredThrough: _delivered, failedAttempts: _failed, ...shown } = printed;
  return shown;
}

/** Runs `use` with a receiver on 127.0.0.1 that answers 200, closed after. */
async function withReceiver<T>(use: (receiver: WebhookReceiver) => Promise<T>): Promise<T> {
  const receiver = await startWebhookReceiver();
  try {
    return await use(receiver);
  } finally {
    await receiver.close();
  }
}

/** A webhook.updated event's data when the secret was rotated: that it changed, never its values. */
const secretRotated = { changes: { secret: { from: "(hidden)", to: "(hidden)" } } };

const writeKinds: Record<string, WriteKind> = {
  "Mutation.createVehicle": {
    types: ["vehicle.created"],
    async perform({ writer }) {
      const mark = await lastSequence(writer.api);
      const vehicle = await gqlVehicle(writer.api, { plate: "GQL-1", cartyp: "Bravado", wanted: true, wanted_reason: "Hit and run", tuv: "2027-03-31" });
      expect(vehicle).toMatchObject({ plate: "GQL-1", carType: "Bravado", wanted: true, wantedReason: "Hit and run", generalInspection: "2027-03-31", synced: false });
      return { mark, expected: [{ type: "vehicle.created", actor: writer.actor, subject: { type: "vehicle", id: String(vehicle.id) }, data: vehicle }] };
    },
  },
  "Mutation.updateVehicle": {
    types: ["vehicle.updated"],
    async perform({ writer }) {
      const vehicle = await restVehicle(writer.api, { plate: "GQL-2", color: "red" });
      const mark = await lastSequence(writer.api);
      const update = `mutation ($id: ID!, $input: UpdateVehicleInput!) { updateVehicle(id: $id, input: $input) { ${vehicleSelection} } }`;
      // plate and color sent unchanged: not changes; wanted and owner changed.
      const updated = (await gql(writer.api, update, { id: String(vehicle.id), input: { plate: "GQL-2", color: "red", wanted: true, owner: "Max" } })).updateVehicle;
      expect(updated).toMatchObject({ wanted: true, owner: "Max", color: "red" });
      // The same values again: nothing changes, nothing is recorded.
      await gql(writer.api, update, { id: String(vehicle.id), input: { wanted: true, owner: "Max" } });
      return {
        mark,
        expected: [
          {
            type: "vehicle.updated",
            actor: writer.actor,
            subject: { type: "vehicle", id: String(vehicle.id) },
            data: { changes: { wanted: { from: false, to: true }, owner: { from: null, to: "Max" } } },
          },
        ],
      };
    },
  },
  "Mutation.deleteVehicle": {
    types: ["vehicle.deleted"],
    async perform({ writer }) {
      const vehicle = await restVehicle(writer.api, { plate: "GQL-3", comment: "to go" });
      const mark = await lastSequence(writer.api);
      const deleted = (await gql(writer.api, `mutation ($id: ID!) { deleteVehicle(id: $id) { ${vehicleSelection} } }`, { id: String(vehicle.id) })).deleteVehicle;
      expect(deleted).toEqual(vehicle);
      return { mark, expected: [{ type: "vehicle.deleted", actor: writer.actor, subject: { type: "vehicle", id: String(vehicle.id) }, data: vehicle }] };
    },
  },
  "Mutation.toggleDutytime": {
    types: ["dutytime.started", "dutytime.stopped"],
    async perform({ network, writer }) {
      const officer = await network.officer("t1", "Toggle Officer");
      const mark = await lastSequence(writer.api);
      const toggle = "mutation ($id: String!) { toggleDutytime(identifier: $id) { onDuty } }";
      const start = secondsAgo(600);
      setClock(start);
      expect((await gql(writer.api, toggle, { id: officer.identifier })).toggleDutytime.onDuty).toBe(true);
      const entry = await openEntryOf(writer.api, officer.identifier);
      expect(entry.startedAt).toBe(at(start));
      setClock(start + 90_000);
      expect((await gql(writer.api, toggle, { id: officer.identifier })).toggleDutytime.onDuty).toBe(false);
      const subject = { type: "officer", id: officer.identifier };
      const started = { identifier: officer.identifier, name: "Toggle Officer", entryId: entry.id, startedAt: at(start) };
      return {
        mark,
        expected: [
          { type: "dutytime.started", actor: writer.actor, subject, data: started, occurredAt: at(start) },
          {
            type: "dutytime.stopped",
            actor: writer.actor,
            subject,
            data: { ...started, endedAt: at(start + 90_000), durationSeconds: 90, reason: "toggle" },
            occurredAt: at(start + 90_000),
          },
        ],
      };
    },
  },
  "Mutation.stopDutytime": {
    types: ["dutytime.stopped"],
    async perform({ network, writer }) {
      const officer = await network.officer("s1", "Stop Officer");
      const start = secondsAgo(900);
      setClock(start);
      await gql(writer.api, "mutation ($id: String!) { toggleDutytime(identifier: $id) { onDuty } }", { id: officer.identifier });
      const entry = await openEntryOf(writer.api, officer.identifier);
      const mark = await lastSequence(writer.api);
      setClock(start + 125_000);
      const stop = "mutation ($id: String!) { stopDutytime(identifier: $id) { onDuty stoppedEntries } }";
      expect((await gql(writer.api, stop, { id: officer.identifier })).stopDutytime).toEqual({ onDuty: false, stoppedEntries: 1 });
      // Not on duty: succeeds, changes nothing, records nothing.
      expect((await gql(writer.api, stop, { id: officer.identifier })).stopDutytime).toEqual({ onDuty: false, stoppedEntries: 0 });
      return {
        mark,
        expected: [
          {
            type: "dutytime.stopped",
            actor: writer.actor,
            subject: { type: "officer", id: officer.identifier },
            data: { identifier: officer.identifier, name: "Stop Officer", entryId: entry.id, startedAt: at(start), endedAt: at(start + 125_000), durationSeconds: 125, reason: "stop" },
            occurredAt: at(start + 125_000),
          },
        ],
      };
    },
  },
  "Mutation.correctDutytimeEntry": {
    types: ["dutytime.corrected"],
    async perform({ network, writer }) {
      const officer = await network.officer("c1", "Corrected Officer");
      const start = secondsAgo(3600);
      const toggle = "mutation ($id: String!) { toggleDutytime(identifier: $id) { onDuty } }";
      setClock(start);
      await gql(writer.api, toggle, { id: officer.identifier });
      const entry = await openEntryOf(writer.api, officer.identifier);
      setClock(start + 600_000);
      await gql(writer.api, toggle, { id: officer.identifier });
      service.clock.reset();
      const mark = await lastSequence(writer.api);
      const correct = "mutation ($id: ID!, $input: CorrectDutytimeEntryInput!) { correctDutytimeEntry(id: $id, input: $input) { id startedAt endedAt } }";
      const corrected = await gql(writer.api, correct, { id: String(entry.id), input: { endedAt: at(start + 1_200_000) } });
      expect(corrected.correctDutytimeEntry).toEqual({ id: entry.id, startedAt: at(start), endedAt: at(start + 1_200_000) });
      // The same end again: no change, no event.
      await gql(writer.api, correct, { id: String(entry.id), input: { endedAt: at(start + 1_200_000) } });
      return {
        mark,
        expected: [
          {
            type: "dutytime.corrected",
            actor: writer.actor,
            subject: { type: "officer", id: officer.identifier },
            data: { entryId: entry.id, changes: { endedAt: { from: at(start + 600_000), to: at(start + 1_200_000) } } },
          },
        ],
      };
    },
  },
  "Mutation.createOfficer": {
    types: ["officer.added"],
    async perform({ writer }) {
      const mark = await lastSequence(writer.api);
      const added = await gql(writer.api, "mutation ($input: CreateOfficerInput!) { createOfficer(input: $input) { identifier name removedAt } }", {
        input: { identifier: identifier("a1"), name: "  Added Officer " },
      });
      expect(added.createOfficer).toEqual({ identifier: identifier("a1"), name: "Added Officer", removedAt: null });
      return {
        mark,
        expected: [
          { type: "officer.added", actor: writer.actor, subject: { type: "officer", id: identifier("a1") }, data: { identifier: identifier("a1"), name: "Added Officer", returned: false } },
        ],
      };
    },
  },
  "Mutation.renameOfficer": {
    types: ["officer.renamed"],
    async perform({ network, writer }) {
      const officer = await network.officer("r1", "Old Name");
      const mark = await lastSequence(writer.api);
      const rename = "mutation ($id: String!, $name: String!) { renameOfficer(identifier: $id, name: $name) { name } }";
      expect((await gql(writer.api, rename, { id: officer.identifier, name: "New Name" })).renameOfficer.name).toBe("New Name");
      // The same name: nothing recorded.
      await gql(writer.api, rename, { id: officer.identifier, name: "New Name" });
      return {
        mark,
        expected: [
          { type: "officer.renamed", actor: writer.actor, subject: { type: "officer", id: officer.identifier }, data: { changes: { name: { from: "Old Name", to: "New Name" } } } },
        ],
      };
    },
  },
  "Mutation.removeOfficer": {
    types: ["officer.removed"],
    async perform({ network, writer }) {
      const officer = await network.officer("x1", "Removed Officer");
      await gql(writer.api, "mutation ($id: String!) { toggleDutytime(identifier: $id) { onDuty } }", { id: officer.identifier });
      const entry = await openEntryOf(writer.api, officer.identifier);
      const mark = await lastSequence(writer.api);
      const removedAt = secondsAgo(0);
      setClock(removedAt);
      const removed = (await gql(writer.api, "mutation ($id: String!) { removeOfficer(identifier: $id) { removedAt } }", { id: officer.identifier })).removeOfficer;
      expect(removed.removedAt).toBe(at(removedAt));
      // On duty when removed: one officer.removed naming the entry it ended, no dutytime.stopped.
      return {
        mark,
        expected: [
          {
            type: "officer.removed",
            actor: writer.actor,
            subject: { type: "officer", id: officer.identifier },
            data: { identifier: officer.identifier, name: "Removed Officer", removedAt: removed.removedAt, endedEntryId: entry.id },
            occurredAt: removed.removedAt,
          },
        ],
      };
    },
  },
  "Mutation.createMissionReport": {
    types: ["missionReport.created"],
    async perform({ writer }) {
      const mark = await lastSequence(writer.api);
      const report = (await gql(writer.api, "mutation { createMissionReport(input: { title: \"Bank job\" }) { id title createdAt } }")).createMissionReport;
      expect(report).toEqual({ id: expect.any(Number), title: "Bank job", createdAt: expect.stringMatching(isoInstant) });
      return { mark, expected: [{ type: "missionReport.created", actor: writer.actor, subject: { type: "missionReport", id: String(report.id) }, data: report }] };
    },
  },
  "Mutation.createPatientFile": {
    types: ["patientFile.created"],
    async perform({ writer }) {
      const mark = await lastSequence(writer.api);
      const file = (await gql(writer.api, "mutation { createPatientFile(input: { patientName: \"Jane Doe\", createdAt: \"2026-01-02T03:04:05.000Z\" }) { id patientName createdAt } }"))
        .createPatientFile;
      expect(file).toEqual({ id: expect.any(Number), patientName: "Jane Doe", createdAt: "2026-01-02T03:04:05.000Z" });
      return { mark, expected: [{ type: "patientFile.created", actor: writer.actor, subject: { type: "patientFile", id: String(file.id) }, data: file }] };
    },
  },
  "Mutation.createOffenderFile": {
    types: ["offenderFile.created"],
    async perform({ writer }) {
      const mark = await lastSequence(writer.api);
      // createdAt null: unknown (an imported record).
      const file = (await gql(writer.api, "mutation { createOffenderFile(input: { offenderName: \"John Roe\", createdAt: null }) { id offenderName createdAt } }")).createOffenderFile;
      expect(file).toEqual({ id: expect.any(Number), offenderName: "John Roe", createdAt: null });
      return { mark, expected: [{ type: "offenderFile.created", actor: writer.actor, subject: { type: "offenderFile", id: String(file.id) }, data: file }] };
    },
  },
  "Mutation.createApiKey": {
    types: ["apiKey.created"],
    async perform({ writer }) {
      const mark = await lastSequence(writer.api);
      const expiresAt = at(Date.now() + 30 * 86_400_000);
      const created = (
        await gql(writer.api, `mutation ($input: CreateApiKeyInput!) { createApiKey(input: $input) { apiKey key { ${keyFields} } } }`, {
          input: { name: "dashboard", scopes: ["read"], origins: ["https://dash.example.org"], expiresAt },
        })
      ).createApiKey;
      const { apiKey, key } = created;
      expect(key).toEqual({ id: expect.any(Number), name: "dashboard", prefix: apiKey.slice(0, 12), scopes: ["read"], origins: ["https://dash.example.org"], expiresAt, revokedAt: null });
      return {
        mark,
        expected: [{ type: "apiKey.created", actor: writer.actor, subject: { type: "apiKey", id: String(key.id) }, data: key }],
        secrets: [apiKey],
      };
    },
  },
  "Mutation.revokeApiKey": {
    types: ["apiKey.revoked"],
    async perform({ network, writer }) {
      const doomed = await keyOf(network, "doomed", ["read", "dutytime"]);
      const mark = await lastSequence(writer.api);
      const revoked = (await gql(writer.api, `mutation ($id: ID!) { revokeApiKey(id: $id) { ${keyFields} } }`, { id: String(doomed.id) })).revokeApiKey;
      expect(revoked).toEqual({
        id: doomed.id,
        name: "doomed",
        prefix: doomed.apiKey.slice(0, 12),
        scopes: ["read", "dutytime"],
        origins: [],
        expiresAt: null,
        revokedAt: expect.stringMatching(isoInstant),
      });
      expect((await doomed.api.get("/events")).status).toBe(401);
      // Revoking it again changes nothing and records nothing.
      await writer.api.graphql(`mutation ($id: ID!) { revokeApiKey(id: $id) { id } }`, { id: String(doomed.id) });
      return {
        mark,
        expected: [{ type: "apiKey.revoked", actor: writer.actor, subject: { type: "apiKey", id: String(doomed.id) }, data: revoked }],
        secrets: [doomed.apiKey],
      };
    },
  },
  "Mutation.createWebhook": {
    types: ["webhook.created"],
    async perform({ writer }) {
      const mark = await lastSequence(writer.api);
      const { webhook, secret } = await gqlWebhook(writer.api, { url: publicHook("created"), types: ["vehicle.*", "dutytime.started"], description: " Archive " });
      expect(webhook).toEqual({
        id: expect.any(Number),
        url: publicHook("created"),
        description: "Archive",
        types: ["vehicle.*", "dutytime.started"],
        format: "standard",
        enabled: true,
        disabledReason: null,
        createdAt: expect.stringMatching(isoInstant),
      });
      return { mark, expected: [{ type: "webhook.created", actor: writer.actor, subject: { type: "webhook", id: String(webhook.id) }, data: webhook }], secrets: [secret] };
    },
  },
  "Mutation.updateWebhook": {
    types: ["webhook.updated"],
    async perform({ writer }) {
      const { webhook, secret } = await gqlWebhook(writer.api, { url: publicHook("before"), types: ["vehicle.*"], description: "Before" });
      const mark = await lastSequence(writer.api);
      const update = `mutation ($id: ID!, $input: UpdateWebhookInput!) { updateWebhook(id: $id, input: $input) { ${webhookFields} } }`;
      const input = { url: publicHook("after"), description: "After", types: ["vehicle.created", "officer.added"], enabled: false };
      const updated = (await gql(writer.api, update, { id: String(webhook.id), input })).updateWebhook;
      expect(updated).toEqual({ ...webhook, ...input });
      // The same values again: nothing changes, nothing is recorded.
      expect((await gql(writer.api, update, { id: String(webhook.id), input })).updateWebhook).toEqual(updated);
      return {
        mark,
        expected: [
          {
            type: "webhook.updated",
            actor: writer.actor,
            subject: { type: "webhook", id: String(webhook.id) },
            // Types as their filter's terms, comma-separated.
            data: {
              changes: {
                url: { from: publicHook("before"), to: publicHook("after") },
                description: { from: "Before", to: "After" },
                types: { from: ["vehicle.*"], to: ["vehicle.created", "officer.added"] },
                enabled: { from: true, to: false },
              },
            },
          },
        ],
        secrets: [secret],
      };
    },
  },
  "Mutation.deleteWebhook": {
    types: ["webhook.deleted"],
    async perform({ writer }) {
      const { webhook, secret } = await gqlWebhook(writer.api, { url: publicHook("deleted"), description: "To go" });
      const mark = await lastSequence(writer.api);
      const remove = `mutation ($id: ID!) { deleteWebhook(id: $id) { ${webhookFields} } }`;
      expect((await gql(writer.api, remove, { id: String(webhook.id) })).deleteWebhook).toEqual(webhook);
      // Deleted already: NOT_FOUND, nothing recorded.
      expect(await gqlCode(writer.api, remove, { id: String(webhook.id) })).toBe("NOT_FOUND");
      return { mark, expected: [{ type: "webhook.deleted", actor: writer.actor, subject: { type: "webhook", id: String(webhook.id) }, data: webhook }], secrets: [secret] };
    },
  },
  "Mutation.rotateWebhookSecret": {
    types: ["webhook.updated"],
    async perform({ writer }) {
      const { webhook, secret } = await gqlWebhook(writer.api, { url: publicHook("rotated") });
      const mark = await lastSequence(writer.api);
      const rotated = (await gql(writer.api, `mutation ($id: ID!) { rotateWebhookSecret(id: $id) { secret webhook { ${webhookFields} } } }`, { id: String(webhook.id) }))
        .rotateWebhookSecret;
      expect(rotated.secret).toMatch(/^whsec_/);
      expect(rotated.secret).not.toBe(secret);
      expect(rotated.webhook).toEqual(webhook);
      return {
        mark,
        expected: [{ type: "webhook.updated", actor: writer.actor, subject: { type: "webhook", id: String(webhook.id) }, data: secretRotated }],
        secrets: [secret, rotated.secret],
      };
    },
  },
  "Mutation.testWebhook": {
    types: [],
    async perform({ network, writer }) {
      return withReceiver(async (receiver) => {
        const { webhook, secret } = await gqlWebhook(writer.api, { url: `${receiver.url}/tested`, types: ["officer.added"] });
        const mark = await lastSequence(writer.api);
        const attempt = (await gql(writer.api, "mutation ($id: ID!) { testWebhook(id: $id) { eventId firstSequence lastSequence attempt status kind outcome } }", { id: String(webhook.id) }))
          .testWebhook;
        expect(attempt).toEqual({ eventId: expect.stringMatching(`^evt_${network.id}_test_`), firstSequence: null, lastSequence: null, attempt: 1, status: 200, kind: "test", outcome: "delivered" });
        // The receiver got the webhook.test event, signed with the webhook's secret.
        expect(receiver.requests.map((request) => request.path)).toEqual(["/tested"]);
        const [request] = receiver.requests;
        expect(request.headers["webhook-id"]).toBe(attempt.eventId);
        expect(verified(secret, request)).toEqual({
          id: attempt.eventId,
          sequence: 0,
          type: "webhook.test",
          occurredAt: expect.stringMatching(isoInstant),
          actor: writer.actor,
          subject: { type: "webhook", id: String(webhook.id) },
          data: { message: expect.any(String) },
        });
        // Not recorded as an event.
        return { mark, expected: [], secrets: [secret] };
      });
    },
  },
  "Mutation.redeliverWebhookEvent": {
    types: [],
    async perform({ network, writer }) {
      return withReceiver(async (receiver) => {
        const { webhook, secret } = await gqlWebhook(writer.api, { url: `${receiver.url}/redelivered` });
        await restVehicle(writer.api, { plate: "HOOK-1" });
        const mark = await lastSequence(writer.api);
        const [event] = await eventsAfter(writer.api, mark - 1);
        expect(event).toMatchObject({ sequence: mark, type: "vehicle.created" });
        const redeliver = "mutation ($id: ID!, $sequence: Int!) { redeliverWebhookEvent(id: $id, sequence: $sequence) { eventId firstSequence lastSequence attempt status kind outcome } }";
        const attempt = (await gql(writer.api, redeliver, { id: String(webhook.id), sequence: mark })).redeliverWebhookEvent;
        expect(attempt).toEqual({ eventId: `evt_${network.id}_${mark}`, firstSequence: mark, lastSequence: mark, attempt: 1, status: 200, kind: "redelivery", outcome: "delivered" });
        // The receiver got the event as /events shows it, signed with the webhook's secret.
        expect(receiver.requests.map((request) => request.path)).toEqual(["/redelivered"]);
        expect(receiver.requests[0].headers["webhook-id"]).toBe(event.id);
        expect(verified(secret, receiver.requests[0])).toEqual(event);
        // Not recorded as an event.
        return { mark, expected: [], secrets: [secret] };
      });
    },
  },
  "POST /vehicles": {
    types: ["vehicle.created"],
    async perform({ writer }) {
      const mark = await lastSequence(writer.api);
      const vehicle = await restVehicle(writer.api, { plate: " REST-1 ", cartyp: "Vapid", car: "Stanier", owner: "Ann", tuv: "2026-12-01", comment: "c", color: "blue", wanted: 1, wanted_reason: "r", synced: true, sync_id: "s-1" });
      expect(vehicle).toMatchObject({ plate: "REST-1", carType: "Vapid", generalInspection: "2026-12-01", wanted: true, synced: true, syncId: "s-1" });
      return { mark, expected: [{ type: "vehicle.created", actor: writer.actor, subject: { type: "vehicle", id: String(vehicle.id) }, data: vehicle }] };
    },
  },
  "PUT /vehicles/{vehicle}": {
    types: ["vehicle.updated"],
    async perform({ writer }) {
      const vehicle = await restVehicle(writer.api, { plate: "REST-2", tuv: "2026-01-01" });
      const mark = await lastSequence(writer.api);
      // Request names in, response names in the changes.
      const put = await writer.api.put(`/vehicles/${vehicle.id}`, { cartyp: "Albany", tuv: "2027-01-01", sync_id: null, plate: "REST-2" });
      expect(put.status).toBe(200);
      return {
        mark,
        expected: [
          {
            type: "vehicle.updated",
            actor: writer.actor,
            subject: { type: "vehicle", id: String(vehicle.id) },
            data: { changes: { carType: { from: null, to: "Albany" }, generalInspection: { from: "2026-01-01", to: "2027-01-01" } } },
          },
        ],
      };
    },
  },
  "PATCH /vehicles/{vehicle}": {
    types: ["vehicle.updated"],
    async perform({ writer }) {
      const vehicle = await restVehicle(writer.api, { plate: "REST-3", wanted_reason: "old" });
      const mark = await lastSequence(writer.api);
      const patch = await writer.api.patch(`/vehicles/${vehicle.id}`, { wanted: true });
      expect(patch.status).toBe(200);
      expect(patch.body.data.updatedAt).not.toBe(vehicle.updatedAt);
      // Nothing changes: 200, and no event.
      expect((await writer.api.patch(`/vehicles/${vehicle.id}`, { wanted: true, wanted_reason: "old" })).status).toBe(200);
      expect((await writer.api.patch(`/vehicles/${vehicle.id}`, {})).status).toBe(200);
      return {
        mark,
        expected: [{ type: "vehicle.updated", actor: writer.actor, subject: { type: "vehicle", id: String(vehicle.id) }, data: { changes: { wanted: { from: false, to: true } } } }],
      };
    },
  },
  "DELETE /vehicles/{vehicle}": {
    types: ["vehicle.deleted"],
    async perform({ writer }) {
      const vehicle = await restVehicle(writer.api, { plate: "REST-4", owner: "Bob" });
      const mark = await lastSequence(writer.api);
      expect((await writer.api.delete(`/vehicles/${vehicle.id}`)).status).toBe(204);
      return { mark, expected: [{ type: "vehicle.deleted", actor: writer.actor, subject: { type: "vehicle", id: String(vehicle.id) }, data: vehicle }] };
    },
  },
  "POST /dutytime/{identifier}/toggle": {
    types: ["dutytime.started", "dutytime.stopped"],
    async perform({ network, writer, dutytime }) {
      const officer = await network.officer("t2", "Rest Toggler");
      const mark = await lastSequence(writer.api);
      const path = `/dutytime/${encodeURIComponent(officer.identifier)}/toggle`;
      const start = secondsAgo(7200);
      setClock(start);
      const on = await dutytime.api.post(path);
      expect({ status: on.status, body: on.body }).toEqual({ status: 200, body: { data: expect.objectContaining({ onDuty: true, startedAt: at(start) }) } });
      const entry = await openEntryOf(writer.api, officer.identifier);
      setClock(start + 3_723_000);
      const off = await dutytime.api.post(path);
      expect({ status: off.status, onDuty: off.body.data.onDuty }).toEqual({ status: 200, onDuty: false });
      const subject = { type: "officer", id: officer.identifier };
      const started = { identifier: officer.identifier, name: "Rest Toggler", entryId: entry.id, startedAt: at(start) };
      return {
        mark,
        expected: [
          { type: "dutytime.started", actor: dutytime.actor, subject, data: started, occurredAt: at(start) },
          { type: "dutytime.stopped", actor: dutytime.actor, subject, data: { ...started, endedAt: at(start + 3_723_000), durationSeconds: 3723, reason: "toggle" } },
        ],
      };
    },
  },
  "POST /dutytime/{identifier}/stop": {
    types: ["dutytime.stopped"],
    async perform({ network, writer, dutytime }) {
      const officer = await network.officer("s2", "Rest Stopper");
      const path = (action: string) => `/dutytime/${encodeURIComponent(officer.identifier)}/${action}`;
      const start = secondsAgo(300);
      setClock(start);
      expect((await dutytime.api.post(path("toggle"))).status).toBe(200);
      const entry = await openEntryOf(writer.api, officer.identifier);
      const mark = await lastSequence(writer.api);
      setClock(start + 61_400);
      const stopped = await dutytime.api.post(path("stop"));
      expect({ status: stopped.status, body: stopped.body }).toEqual({ status: 200, body: { data: expect.objectContaining({ onDuty: false, stoppedEntries: 1 }) } });
      // Not on duty: 200, nothing stopped, nothing recorded.
      const again = await dutytime.api.post(path("stop"));
      expect({ status: again.status, stoppedEntries: again.body.data.stoppedEntries }).toEqual({ status: 200, stoppedEntries: 0 });
      return {
        mark,
        expected: [
          {
            type: "dutytime.stopped",
            actor: dutytime.actor,
            subject: { type: "officer", id: officer.identifier },
            // 61.4 s: whole seconds, rounded.
            data: { identifier: officer.identifier, name: "Rest Stopper", entryId: entry.id, startedAt: at(start), endedAt: at(start + 61_400), durationSeconds: 61, reason: "stop" },
          },
        ],
      };
    },
  },
  "admin network create": {
    types: ["apiKey.created"],
    async perform() {
      const out = await admin("network", "create", "--name", "Made By Admin", "--identifier-type", "steam", "--scopes", "read,dutytime");
      const reader = client(service.url, out.apiKey);
      expect(out.key).toMatchObject({ name: "first key", scopes: ["read", "dutytime"] });
      const { createdAt: _created, lastUsedAt: _used, ...listed } = out.key;
      return {
        reader,
        networkId: out.network.id,
        mark: 0,
        expected: [{ type: "apiKey.created", actor: adminActor, subject: { type: "apiKey", id: String(out.key.id) }, data: listed }],
        secrets: [out.apiKey],
      };
    },
  },
  "admin network regenerate-key": {
    types: ["apiKey.revoked", "apiKey.created"],
    async perform({ network, writer }) {
      // Scopes are kept in their declared order.
      const old = await keyOf(network, "game server", ["dutytime", "read"]);
      const mark = await lastSequence(writer.api);
      const out = await admin("network", "regenerate-key", "--network", String(network.id), "--key", String(old.id));
      expect(out.key).toMatchObject({ name: "game server", scopes: ["read", "dutytime"], revokedAt: null });
      expect((await old.api.get("/events")).status).toBe(401);
      const { createdAt: _created, lastUsedAt: _used, ...replacement } = out.key;
      return {
        mark,
        expected: [
          {
            type: "apiKey.revoked",
            actor: adminActor,
            subject: { type: "apiKey", id: String(old.id) },
            data: { id: old.id, name: "game server", prefix: old.apiKey.slice(0, 12), scopes: ["read", "dutytime"], origins: [], expiresAt: null, revokedAt: expect.stringMatching(isoInstant) },
          },
          { type: "apiKey.created", actor: adminActor, subject: { type: "apiKey", id: String(out.key.id) }, data: { ...replacement, replacesKeyId: old.id } },
        ],
        secrets: [old.apiKey, out.apiKey],
      };
    },
  },
  "admin network set": {
    types: ["network.updated"],
    async perform() {
      // A network of its own: its settings change.
      const own = await newNetwork("Settings PD");
      const mark = await lastSequence(own.writer.api);
      const out = await admin("network", "set", "--network", String(own.id), "--time-zone", "Europe/Berlin", "--event-retention-days", "30");
      expect(out.network).toMatchObject({ timeZone: "Europe/Berlin", eventRetentionDays: 30, autoStopAfterHours: null });
      // The same settings again: nothing changes, nothing is recorded.
      await admin("network", "set", "--network", String(own.id), "--time-zone", "Europe/Berlin", "--auto-stop-after", "off");
      return {
        reader: own.writer.api,
        networkId: own.id,
        mark,
        expected: [
          {
            type: "network.updated",
            actor: adminActor,
            subject: { type: "network", id: String(own.id) },
            data: { changes: { timeZone: { from: "UTC", to: "Europe/Berlin" }, eventRetentionDays: { from: 365, to: 30 } } },
          },
        ],
      };
    },
  },
  "admin key create": {
    types: ["apiKey.created"],
    async perform({ network, writer }) {
      const mark = await lastSequence(writer.api);
      const out = await admin("key", "create", "--network", String(network.id), "--name", "discord bot", "--scopes", "read,dutytime", "--origin", "https://dash.example.org");
      const { createdAt: _created, lastUsedAt: _used, ...listed } = out.key;
      expect(listed).toEqual({
        id: expect.any(Number),
        name: "discord bot",
        prefix: out.apiKey.slice(0, 12),
        scopes: ["read", "dutytime"],
        origins: ["https://dash.example.org"],
        expiresAt: null,
        revokedAt: null,
      });
      return { mark, expected: [{ type: "apiKey.created", actor: adminActor, subject: { type: "apiKey", id: String(out.key.id) }, data: listed }], secrets: [out.apiKey] };
    },
  },
  "admin key revoke": {
    types: ["apiKey.revoked"],
    async perform({ network, writer }) {
      const leaked = await keyOf(network, "leaked", ["read"]);
      const mark = await lastSequence(writer.api);
      const out = await admin("key", "revoke", "--network", String(network.id), "--key", String(leaked.id));
      const { createdAt: _created, lastUsedAt: _used, ...listed } = out.key;
      expect(listed).toEqual({ id: leaked.id, name: "leaked", prefix: leaked.apiKey.slice(0, 12), scopes: ["read"], origins: [], expiresAt: null, revokedAt: expect.stringMatching(isoInstant) });
      return { mark, expected: [{ type: "apiKey.revoked", actor: adminActor, subject: { type: "apiKey", id: String(leaked.id) }, data: listed }], secrets: [leaked.apiKey] };
    },
  },
  "admin officer add": {
    types: ["officer.added"],
    async perform({ network, writer }) {
      // A removed officer comes back: `returned`.
      await network.officer("b1", "Gone Once");
      await gql(writer.api, "mutation { removeOfficer(identifier: \"steam:b1\") { id } }");
      const mark = await lastSequence(writer.api);
      const added = await admin("officer", "add", "--network", String(network.id), "--identifier", identifier("b1"), "--name", "Back Again");
      expect(added.officer).toMatchObject({ identifier: identifier("b1"), name: "Back Again", removedAt: null });
      const fresh = await admin("officer", "add", "--network", String(network.id), "--identifier", identifier("b2"), "--name", "Admin Added");
      expect(fresh.officer).toMatchObject({ identifier: identifier("b2"), name: "Admin Added" });
      return {
        mark,
        expected: [
          { type: "officer.added", actor: adminActor, subject: { type: "officer", id: identifier("b1") }, data: { identifier: identifier("b1"), name: "Back Again", returned: true } },
          { type: "officer.added", actor: adminActor, subject: { type: "officer", id: identifier("b2") }, data: { identifier: identifier("b2"), name: "Admin Added", returned: false } },
        ],
      };
    },
  },
  "admin officer rename": {
    types: ["officer.renamed"],
    async perform({ network, writer }) {
      const officer = await network.officer("n1", "Before");
      const mark = await lastSequence(writer.api);
      const out = await admin("officer", "rename", "--network", String(network.id), "--identifier", officer.identifier, "--name", "After");
      expect(out.officer).toMatchObject({ identifier: officer.identifier, name: "After" });
      return {
        mark,
        expected: [{ type: "officer.renamed", actor: adminActor, subject: { type: "officer", id: officer.identifier }, data: { changes: { name: { from: "Before", to: "After" } } } }],
      };
    },
  },
  "admin officer remove": {
    types: ["officer.removed"],
    async perform({ network, writer, dutytime }) {
      const officer = await network.officer("m1", "Admin Removed");
      expect((await dutytime.api.post(`/dutytime/${encodeURIComponent(officer.identifier)}/toggle`)).status).toBe(200);
      const entry = await openEntryOf(writer.api, officer.identifier);
      const mark = await lastSequence(writer.api);
      const out = await admin("officer", "remove", "--network", String(network.id), "--identifier", officer.identifier);
      expect(out.officer.removedAt).toMatch(isoInstant);
      // Off duty now: the entry ended at the removal.
      const entries = await writer.api.get(`/officers/${encodeURIComponent(officer.identifier)}/dutytime`);
      expect(entries.body.data[0]).toMatchObject({ id: entry.id, endedAt: out.officer.removedAt });
      return {
        mark,
        expected: [
          {
            type: "officer.removed",
            actor: adminActor,
            subject: { type: "officer", id: officer.identifier },
            data: { identifier: officer.identifier, name: "Admin Removed", removedAt: out.officer.removedAt, endedEntryId: entry.id },
          },
        ],
      };
    },
  },
  "admin webhook add": {
    types: ["webhook.created"],
    async perform({ network, writer }) {
      const mark = await lastSequence(writer.api);
      const out = await admin("webhook", "add", "--network", String(network.id), "--url", publicHook("admin"), "--types", "vehicle.*, officer.added", "--description", "Admin made");
      expect(out.secret).toMatch(/^whsec_/);
      const shown = adminWebhookShown(out.webhook);
      expect(shown).toEqual({
        id: expect.any(Number),
        url: publicHook("admin"),
        description: "Admin made",
        types: ["vehicle.*", "officer.added"],
        format: "standard",
        enabled: true,
        disabledReason: null,
        createdAt: expect.stringMatching(isoInstant),
      });
      return { mark, expected: [{ type: "webhook.created", actor: adminActor, subject: { type: "webhook", id: String(out.webhook.id) }, data: shown }], secrets: [out.secret] };
    },
  },
  "admin webhook remove": {
    types: ["webhook.deleted"],
    async perform({ writer }) {
      const { webhook, secret } = await gqlWebhook(writer.api, { url: publicHook("admin-removed"), types: ["dutytime.*"] });
      const mark = await lastSequence(writer.api);
      const out = await admin("webhook", "remove", "--webhook", String(webhook.id));
      expect(adminWebhookShown(out.webhook)).toEqual(webhook);
      expect((await gql(writer.api, "{ webhooks { id } }")).webhooks.map((each: { id: number }) => each.id)).not.toContain(webhook.id);
      return { mark, expected: [{ type: "webhook.deleted", actor: adminActor, subject: { type: "webhook", id: String(webhook.id) }, data: webhook }], secrets: [secret] };
    },
  },
  "admin webhook rotate-secret": {
    types: ["webhook.updated"],
    async perform({ writer }) {
      const { webhook, secret } = await gqlWebhook(writer.api, { url: publicHook("admin-rotated") });
      const mark = await lastSequence(writer.api);
      const run = await adminRaw("webhook", "rotate-secret", "--webhook", String(webhook.id));
      expect(run.code).toBe(0);
      const out = JSON.parse(run.stdout);
      expect(out.secret).toMatch(/^whsec_/);
      expect(out.secret).not.toBe(secret);
      expect(adminWebhookShown(out.webhook)).toEqual(webhook);
      // The old secret (which still signs for a day) is never printed.
      expect(run.stdout).not.toContain(secret);
      return {
        mark,
        expected: [{ type: "webhook.updated", actor: adminActor, subject: { type: "webhook", id: String(webhook.id) }, data: secretRotated }],
        secrets: [secret, out.secret],
      };
    },
  },
  "admin webhook enable": {
    types: ["webhook.updated"],
    async perform({ writer }) {
      const { webhook, secret } = await gqlWebhook(writer.api, { url: publicHook("admin-enabled") });
      await gql(writer.api, "mutation ($id: ID!) { updateWebhook(id: $id, input: { enabled: false }) { id } }", { id: String(webhook.id) });
      const mark = await lastSequence(writer.api);
      const out = await admin("webhook", "enable", "--webhook", String(webhook.id));
      expect(adminWebhookShown(out.webhook)).toEqual({ ...webhook, enabled: true });
      // Enabled already: nothing changes, nothing is recorded.
      expect((await admin("webhook", "enable", "--webhook", String(webhook.id))).webhook.enabled).toBe(true);
      return {
        mark,
        expected: [{ type: "webhook.updated", actor: adminActor, subject: { type: "webhook", id: String(webhook.id) }, data: { changes: { enabled: { from: false, to: true } } } }],
        secrets: [secret],
      };
    },
  },
  "admin webhook disable": {
    types: ["webhook.updated"],
    async perform({ writer }) {
      const { webhook, secret } = await gqlWebhook(writer.api, { url: publicHook("admin-disabled") });
      const mark = await lastSequence(writer.api);
      const out = await admin("webhook", "disable", "--webhook", String(webhook.id));
      // Disabled by hand: no reason of the service's.
      expect(adminWebhookShown(out.webhook)).toEqual({ ...webhook, enabled: false, disabledReason: null });
      // Disabled already: nothing changes, nothing is recorded.
      expect((await admin("webhook", "disable", "--webhook", String(webhook.id))).webhook.enabled).toBe(false);
      return {
        mark,
        expected: [{ type: "webhook.updated", actor: adminActor, subject: { type: "webhook", id: String(webhook.id) }, data: { changes: { enabled: { from: true, to: false } } } }],
        secrets: [secret],
      };
    },
  },
  "admin webhook test": {
    types: [],
    async perform({ network, writer }) {
      return withReceiver(async (receiver) => {
        const { webhook, secret } = await gqlWebhook(writer.api, { url: `${receiver.url}/admin-tested` });
        const mark = await lastSequence(writer.api);
        const out = await admin("webhook", "test", "--webhook", String(webhook.id));
        expect(out.attempt).toMatchObject({ id: expect.any(Number), webhookId: webhook.id, firstSequence: null, lastSequence: null, attempt: 1, status: 200, kind: "test", outcome: "delivered", error: null });
        // The id of its entry in the delivery log.
        expect(out.attempt.id).toBeGreaterThan(0);
        expect(out.attempt.eventId).toMatch(new RegExp(`^evt_${network.id}_test_`));
        // The receiver got the webhook.test event, signed with the webhook's secret, sent by the operator.
        expect(receiver.requests.map((request) => request.path)).toEqual(["/admin-tested"]);
        expect(verified(secret, receiver.requests[0])).toMatchObject({
          id: out.attempt.eventId,
          type: "webhook.test",
          actor: adminActor,
          subject: { type: "webhook", id: String(webhook.id) },
        });
        // Not recorded as an event.
        return { mark, expected: [], secrets: [secret] };
      });
    },
  },
  "admin webhook redeliver": {
    types: [],
    async perform({ network, writer }) {
      return withReceiver(async (receiver) => {
        const { webhook, secret } = await gqlWebhook(writer.api, { url: `${receiver.url}/admin-redelivered`, types: ["vehicle.*"] });
        await restVehicle(writer.api, { plate: "HOOK-2" });
        const mark = await lastSequence(writer.api);
        const [event] = await eventsAfter(writer.api, mark - 1);
        expect(event).toMatchObject({ sequence: mark, type: "vehicle.created" });
        const out = await admin("webhook", "redeliver", "--webhook", String(webhook.id), "--sequence", String(mark));
        expect(out.attempt).toMatchObject({ id: expect.any(Number), webhookId: webhook.id, eventId: `evt_${network.id}_${mark}`, firstSequence: mark, lastSequence: mark, status: 200, kind: "redelivery", outcome: "delivered" });
        expect(out.attempt.id).toBeGreaterThan(0);
        // The receiver got the event as /events shows it, signed with the webhook's secret.
        expect(receiver.requests.map((request) => request.path)).toEqual(["/admin-redelivered"]);
        expect(verified(secret, receiver.requests[0])).toEqual(event);
        // Not recorded as an event.
        return { mark, expected: [], secrets: [secret] };
      });
    },
  },
};

describe("every write kind records exactly one event", () => {
  let shared: Net;
  beforeAll(async () => {
    shared = await newNetwork("Write Kinds PD");
  });

  test("the table maps every Mutation field, non-GET route and data-changing admin command, and every event type", () => {
    expect(Object.keys(writeKinds).sort()).toEqual(derivedWriteKinds());
    // The derivation sees what it should.
    expect(derivedWriteKinds()).toEqual(
      expect.arrayContaining(["Mutation.createVehicle", "PATCH /vehicles/{vehicle}", "POST /dutytime/{identifier}/stop", "admin network set", "admin officer remove", "Mutation.createWebhook", "admin webhook test"]),
    );
    for (const command of readOnlyCommands) expect(Object.keys(commandTable)).toContain(command);
    // Every declared event type is recorded by some write kind.
    const covered = new Set(Object.values(writeKinds).flatMap((kind) => kind.types));
    expect(eventTypeNames.filter((type) => !covered.has(type))).toEqual([]);
  });

  test.each(Object.keys(writeKinds).sort())("%s", async (name) => {
    const kind = writeKinds[name];
    const performed = await kind.perform(shared);
    const reader = performed.reader ?? shared.writer.api;
    const networkId = performed.networkId ?? shared.id;
    const response = await reader.get(`/events?after=${performed.mark}&per_page=200`);
    expect(response.status).toBe(200);
    const events: Event[] = [...response.body.data].reverse();
    expect(events).toEqual(
      performed.expected.map((expected, i) => ({
        id: `evt_${networkId}_${performed.mark + i + 1}`,
        sequence: performed.mark + i + 1,
        occurredAt: expect.stringMatching(isoInstant),
        ...expected,
      })),
    );
    expect([...new Set(events.map((event) => event.type))].sort()).toEqual([...kind.types].sort());
    for (const secret of performed.secrets ?? []) {
      for (const text of [secret, secret.slice(12), hashApiKey(secret)]) expect(response.text).not.toContain(text);
    }
    // No event carries a hash or secret field under any name; a rotation names the secret as a
    // change (webhook.updated), its values hidden, and that alone.
    const hiddenSecretChange = JSON.stringify(secretRotated.changes).slice(1, -1);
    expect(response.text.replaceAll(hiddenSecretChange, "")).not.toMatch(/"(hash|secret|apiKey|keyHash)"\s*:/);
  });

  test("read-only admin commands record nothing", async () => {
    const { webhook, secret } = await gqlWebhook(shared.writer.api, { url: publicHook("listed") });
    const mark = await lastSequence(shared.writer.api);
    await admin("network", "list");
    await admin("key", "list", "--network", String(shared.id));
    const webhooks = await admin("webhook", "list", "--network", String(shared.id));
    expect(webhooks.webhooks.map((each: { id: number }) => each.id)).toContain(webhook.id);
    expect(JSON.stringify(webhooks)).not.toContain(secret);
    expect(await admin("webhook", "deliveries", "--webhook", String(webhook.id))).toEqual({ attempts: [] });
    const listed = await admin("events", "list", "--network", String(shared.id), "--per-page", "1");
    expect(listed.events.map((event: Event) => event.sequence)).toEqual([mark]);
    expect(await lastSequence(shared.writer.api)).toBe(mark);
  });
});

// ---------------------------------------------------------------------------------------------
// Auto-stop: the service's rule, actor system.

describe("auto-stop", () => {
  test("an entry past --auto-stop-after ends at its limit when a read notices it: one dutytime.stopped, reason auto-stop, actor system", async () => {
    const net = await newNetwork("Auto-stop PD");
    const officer = await net.network.officer("z1", "Forgetful");
    let mark = await lastSequence(net.writer.api);
    const out = await admin("network", "set", "--network", String(net.id), "--auto-stop-after", "1");
    expect(out.network.autoStopAfterHours).toBe(1);
    expect(await eventsAfter(net.writer.api, mark)).toEqual([
      expect.objectContaining({ type: "network.updated", actor: adminActor, subject: { type: "network", id: String(net.id) }, data: { changes: { autoStopAfterHours: { from: null, to: 1 } } } }),
    ]);
    // The server sees the setting with a later request (another process changed it).
    for (let tries = 0; ; tries++) {
      const seen = await gql(net.reader.api, "{ network { autoStopAfterHours } }");
      if (seen.network.autoStopAfterHours === 1) break;
      if (tries > 100) throw new Error("the server does not see autoStopAfterHours 1");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    mark = await lastSequence(net.writer.api);
    const start = secondsAgo(3 * 3600);
    setClock(start);
    expect((await net.dutytime.api.post(`/dutytime/${encodeURIComponent(officer.identifier)}/toggle`)).body.data.onDuty).toBe(true);
    const entry = await openEntryOf(net.writer.api, officer.identifier);
    // Two hours later: five reads at once notice it; the entry ends once, at start + 1 h.
    setClock(start + 2 * 3_600_000);
    const reads = await Promise.all([1, 2, 3, 4, 5].map(() => net.reader.api.get("/statistics/active-users")));
    for (const read of reads) expect({ status: read.status, body: read.body }).toEqual({ status: 200, body: { data: [], count: 0 } });
    expect((await net.reader.api.get("/officers?on_duty=true")).body.data).toEqual([]);
    const subject = { type: "officer", id: officer.identifier };
    const started = { identifier: officer.identifier, name: "Forgetful", entryId: entry.id, startedAt: at(start) };
    expect(await eventsAfter(net.writer.api, mark)).toEqual([
      { id: `evt_${net.id}_${mark + 1}`, sequence: mark + 1, type: "dutytime.started", occurredAt: at(start), actor: net.dutytime.actor, subject, data: started },
      {
        id: `evt_${net.id}_${mark + 2}`,
        sequence: mark + 2,
        type: "dutytime.stopped",
        occurredAt: at(start + 2 * 3_600_000),
        actor: systemActor,
        subject,
        data: { ...started, endedAt: at(start + 3_600_000), durationSeconds: 3600, reason: "auto-stop" },
      },
    ]);
    // A toggle now starts a new entry: the stale one is not stopped a second time.
    expect((await net.dutytime.api.post(`/dutytime/${encodeURIComponent(officer.identifier)}/toggle`)).body.data.onDuty).toBe(true);
    expect((await eventsAfter(net.writer.api, mark + 2)).map((event) => [event.type, event.actor.kind])).toEqual([["dutytime.started", "key"]]);
  });
});

// ---------------------------------------------------------------------------------------------
// 2. Sequences.

describe("sequences", () => {
  test("40 concurrent writes: the network's sequences are exactly 1..N, N = its committed changes, in commit order; another network's are its own", async () => {
    const [s, t] = [await newNetwork("Busy PD"), await newNetwork("Quiet PD")];
    const officers = [];
    for (const value of ["q1", "q2", "q3", "q4"]) officers.push(await s.network.officer(value));
    const before = { s: await lastSequence(s.writer.api), t: await lastSequence(t.writer.api) };
    // Both start from 1: the first key, the three keys of newNetwork, and s's four officers.
    expect(before).toEqual({ s: 8, t: 4 });

    const writes: Promise<{ status: number; kind: string; id?: number }>[] = [];
    for (let i = 0; i < 40; i++) {
      if (i % 5 === 0 || i % 5 === 3) {
        writes.push(s.writer.api.post("/vehicles", { plate: `SEQ-${i}` }).then((r) => ({ status: r.status, kind: "vehicle", id: r.body?.data?.id })));
      } else if (i % 5 === 1 || i % 5 === 4) {
        const officer = officers[i % officers.length];
        writes.push(s.dutytime.api.post(`/dutytime/${encodeURIComponent(officer.identifier)}/toggle`).then((r) => ({ status: r.status, kind: "toggle" })));
      } else {
        writes.push(s.writer.api.graphql("mutation { createMissionReport(input: {}) { id } }").then((r) => ({ status: r.body.errors ? 500 : r.status, kind: "report", id: r.body.data?.createMissionReport?.id })));
      }
      // The other network writes at the same time.
      if (i % 4 === 0) writes.push(t.writer.api.post("/vehicles", { plate: `OTHER-${i}` }).then((r) => ({ status: r.status, kind: "other" })));
    }
    const results = await Promise.all(writes);
    expect(results.filter((result) => result.status >= 300)).toEqual([]);
    const count = (kind: string) => results.filter((result) => result.kind === kind).length;
    expect([count("vehicle"), count("toggle"), count("report"), count("other")]).toEqual([16, 16, 8, 10]);

    const pages = await everyEvent(s.reader.api, "per_page=7");
    const events = pages.flat().reverse();
    expect(events.map((event) => event.sequence)).toEqual(Array.from({ length: before.s + 40 }, (_, i) => i + 1));
    expect(events.map((event) => event.id)).toEqual(events.map((event) => `evt_${s.id}_${event.sequence}`));
    const recorded = events.slice(before.s);
    const typeCount = (type: string) => recorded.filter((event) => event.type === type).length;
    expect([typeCount("vehicle.created"), typeCount("missionReport.created"), typeCount("dutytime.started") + typeCount("dutytime.stopped")]).toEqual([16, 8, 16]);
    expect(recorded.filter((event) => event.type === "vehicle.created").map((event) => Number(event.subject.id)).sort((a, b) => a - b)).toEqual(
      results.filter((result) => result.kind === "vehicle").map((result) => result.id).sort((a, b) => a! - b!),
    );
    // Commit order: each officer's events alternate started, stopped, the stop naming the entry started before it.
    for (const officer of officers) {
      const own = recorded.filter((event) => event.subject.id === officer.identifier);
      expect(own.map((event) => event.type)).toEqual(["dutytime.started", "dutytime.stopped", "dutytime.started", "dutytime.stopped"]);
      expect(own[1].data.entryId).toBe(own[0].data.entryId);
      expect(own[3].data.entryId).toBe(own[2].data.entryId);
      expect(own[2].data.entryId).not.toBe(own[0].data.entryId);
    }

    const other = (await everyEvent(t.reader.api)).flat().reverse();
    expect(other.map((event) => event.sequence)).toEqual(Array.from({ length: before.t + 10 }, (_, i) => i + 1));
    expect(other.slice(before.t).every((event) => event.type === "vehicle.created" && event.id.startsWith(`evt_${t.id}_`))).toBe(true);
  });
});

// ---------------------------------------------------------------------------------------------
// 3. Refused and failed writes record nothing.

describe("a refused or failed write records nothing", () => {
  test("validation (422), not found (404), scope (403), conflict (409): no event", async () => {
    const net = await newNetwork("Refusals PD");
    const officer = await net.network.officer("f1", "Fine");
    const vehicle = await restVehicle(net.writer.api, { plate: "REF-1" });
    const start = secondsAgo(7200);
    setClock(start);
    await net.dutytime.api.post(`/dutytime/${encodeURIComponent(officer.identifier)}/toggle`);
    const first = await openEntryOf(net.writer.api, officer.identifier);
    setClock(start + 600_000);
    await net.dutytime.api.post(`/dutytime/${encodeURIComponent(officer.identifier)}/toggle`);
    setClock(start + 1_200_000);
    await net.dutytime.api.post(`/dutytime/${encodeURIComponent(officer.identifier)}/toggle`);
    setClock(start + 1_800_000);
    await net.dutytime.api.post(`/dutytime/${encodeURIComponent(officer.identifier)}/toggle`);
    service.clock.reset();
    const mark = await lastSequence(net.writer.api);
    const w = net.writer.api;
    const statuses = {
      emptyPlate: (await w.post("/vehicles", { plate: "  " })).status,
      longPlate: (await w.post("/vehicles", { plate: "x".repeat(33) })).status,
      badFlag: (await w.patch(`/vehicles/${vehicle.id}`, { wanted: "maybe", owner: "X" })).status,
      badDate: (await w.put(`/vehicles/${vehicle.id}`, { tuv: "2026-02-30" })).status,
      patchMissing: (await w.patch("/vehicles/999999999", { wanted: true })).status,
      deleteMissing: (await w.delete("/vehicles/999999999")).status,
      toggleMissing: (await net.dutytime.api.post(`/dutytime/${encodeURIComponent(identifier("nobody"))}/toggle`)).status,
      stopMissing: (await net.dutytime.api.post(`/dutytime/${encodeURIComponent(identifier("nobody"))}/stop`)).status,
      badIdentifier: (await net.dutytime.api.post(`/dutytime/${encodeURIComponent("discord:1")}/toggle`)).status,
      readCreates: (await net.reader.api.post("/vehicles", { plate: "NO-1" })).status,
      readToggles: (await net.reader.api.post(`/dutytime/${encodeURIComponent(officer.identifier)}/toggle`)).status,
      dutytimeDeletes: (await net.dutytime.api.delete(`/vehicles/${vehicle.id}`)).status,
    };
    expect(statuses).toEqual({
      emptyPlate: 422,
      longPlate: 422,
      badFlag: 422,
      badDate: 422,
      patchMissing: 404,
      deleteMissing: 404,
      toggleMissing: 404,
      stopMissing: 404,
      badIdentifier: 422,
      readCreates: 403,
      readToggles: 403,
      dutytimeDeletes: 403,
    });
    const codes = {
      duplicateOfficer: await gqlCode(w, `mutation { createOfficer(input: { identifier: "${officer.identifier}", name: "Twin" }) { id } }`),
      emptyName: await gqlCode(w, `mutation { renameOfficer(identifier: "${officer.identifier}", name: " ") { id } }`),
      removeMissing: await gqlCode(w, `mutation { removeOfficer(identifier: "${identifier("nobody")}") { id } }`),
      overlap: await gqlCode(w, "mutation ($id: ID!, $input: CorrectDutytimeEntryInput!) { correctDutytimeEntry(id: $id, input: $input) { id } }", {
        id: String(first.id),
        input: { endedAt: at(start + 1_500_000) },
      }),
      future: await gqlCode(w, "mutation ($id: ID!, $input: CorrectDutytimeEntryInput!) { correctDutytimeEntry(id: $id, input: $input) { id } }", {
        id: String(first.id),
        input: { endedAt: at(Date.now() + 3_600_000) },
      }),
      longTitle: await gqlCode(w, `mutation { createMissionReport(input: { title: "${"t".repeat(256)}" }) { id } }`),
      keyNameTaken: await gqlCode(w, `mutation { createApiKey(input: { name: "reader", scopes: [read] }) { apiKey } }`),
      keyNoScopes: await gqlCode(w, `mutation { createApiKey(input: { name: "empty", scopes: [] }) { apiKey } }`),
      revokeMissing: await gqlCode(w, `mutation { revokeApiKey(id: "999999") { id } }`),
      readMutates: await gqlCode(net.reader.api, `mutation { createMissionReport(input: {}) { id } }`),
      dutytimeAddsKey: await gqlCode(net.dutytime.api, `mutation { createApiKey(input: { name: "sneaky", scopes: [admin] }) { apiKey } }`),
    };
    expect(codes).toEqual({
      duplicateOfficer: "CONFLICT",
      emptyName: "BAD_USER_INPUT",
      removeMissing: "NOT_FOUND",
      overlap: "BAD_USER_INPUT",
      future: "BAD_USER_INPUT",
      longTitle: "BAD_USER_INPUT",
      keyNameTaken: "CONFLICT",
      keyNoScopes: "BAD_USER_INPUT",
      revokeMissing: "NOT_FOUND",
      readMutates: "FORBIDDEN",
      dutytimeAddsKey: "FORBIDDEN",
    });
    // The admin command refuses a duplicate officer too.
    const duplicate = await adminRaw("officer", "add", "--network", String(net.id), "--identifier", officer.identifier, "--name", "Twin");
    expect({ code: duplicate.code, stdout: duplicate.stdout }).toEqual({ code: 1, stdout: "" });
    expect(duplicate.stderr).toMatch(/already exists/);
    expect(await eventsAfter(w, mark)).toEqual([]);
    expect(await lastSequence(w)).toBe(mark);
  });

  test("races: concurrent toggles of one officer (unique violations, retried) and concurrent duplicate writes record one event per committed change", async () => {
    const net = await newNetwork("Races PD");
    const officer = await net.network.officer("r1", "Raced");
    const vehicle = await restVehicle(net.writer.api, { plate: "RACE-1" });
    const mark = await lastSequence(net.writer.api);

    const n = 12;
    const toggles = await Promise.all(Array.from({ length: n }, () => net.dutytime.api.post(`/dutytime/${encodeURIComponent(officer.identifier)}/toggle`)));
    expect(toggles.map((toggle) => toggle.status)).toEqual(Array(n).fill(200));
    expect(toggles.filter((toggle) => toggle.body.data.onDuty).length).toBe(n / 2);
    // One event per call: as if the calls came one after another.
    const toggled = await eventsAfter(net.writer.api, mark);
    expect(toggled.map((event) => event.sequence)).toEqual(Array.from({ length: n }, (_, i) => mark + i + 1));
    expect(toggled.map((event) => event.type)).toEqual(Array.from({ length: n }, (_, i) => (i % 2 === 0 ? "dutytime.started" : "dutytime.stopped")));
    for (let i = 0; i < n; i += 2) expect(toggled[i + 1].data.entryId).toBe(toggled[i].data.entryId);
    expect(new Set(toggled.map((event) => event.data.entryId)).size).toBe(n / 2);
    // Exactly the entries that exist: no event names an entry a rolled-back attempt made.
    const entries = await net.reader.api.get(`/officers/${encodeURIComponent(officer.identifier)}/dutytime?per_page=100`);
    expect(entries.body.data.map((entry: { id: number }) => entry.id).sort((x: number, y: number) => x - y)).toEqual(
      toggled.filter((event) => event.type === "dutytime.started").map((event) => event.data.entryId).sort((x, y) => x - y),
    );
    expect((await net.reader.api.get("/statistics/active-users")).body.count).toBe(0);

    // Five deletes of one vehicle: one 204, four 404, one event.
    const deletes = await Promise.all(Array.from({ length: 5 }, () => net.writer.api.delete(`/vehicles/${vehicle.id}`)));
    expect(deletes.map((each) => each.status).sort()).toEqual([204, 404, 404, 404, 404]);
    // Five creations of one officer: one created, four CONFLICT, one event.
    const adds = await Promise.all(
      Array.from({ length: 5 }, () => net.writer.api.graphql(`mutation { createOfficer(input: { identifier: "${identifier("r2")}", name: "Once" }) { id } }`)),
    );
    expect(adds.map((add) => add.body.errors?.[0]?.extensions?.code ?? "ok").sort()).toEqual(["CONFLICT", "CONFLICT", "CONFLICT", "CONFLICT", "ok"]);
    expect((await eventsAfter(net.writer.api, mark + n)).map((event) => [event.sequence, event.type, event.subject.id])).toEqual([
      [mark + n + 1, "vehicle.deleted", String(vehicle.id)],
      [mark + n + 2, "officer.added", identifier("r2")],
    ]);
  });
});

// ---------------------------------------------------------------------------------------------
// 4. The audit log: GET /events, GraphQL events(...), admin events list.

describe("the audit log", () => {
  let net: Net;
  let other: TestKey;
  /** Sequence of the last event before the clocked writes. */
  let pre: number;
  let v1: any;
  let v2: any;
  // A month ago, to the minute: before every event made at the real time (keys, the officer).
  const base = Math.floor((Date.now() - 30 * 86_400_000) / 60_000) * 60_000;
  const minute = (n: number) => at(base + n * 60_000);

  beforeAll(async () => {
    net = await newNetwork("Audit PD");
    other = await keyOf(net.network, "second writer", ["write"]);
    await net.network.officer("o1", "Logged");
    pre = await lastSequence(net.writer.api);
    const w = net.writer.api;
    const clockAt = (n: number) => setClock(minute(n));
    const toggle = () => net.dutytime.api.post(`/dutytime/${encodeURIComponent(identifier("o1"))}/toggle`);
    clockAt(0);
    v1 = await restVehicle(w, { plate: "LOG-1" });
    clockAt(1);
    v2 = await restVehicle(w, { plate: "LOG-2" });
    clockAt(2);
    expect((await w.patch(`/vehicles/${v1.id}`, { wanted: true })).status).toBe(200);
    clockAt(3);
    expect((await toggle()).status).toBe(200);
    clockAt(4);
    await gql(w, "mutation { createMissionReport(input: { title: \"Log\" }) { id } }");
    clockAt(5);
    expect((await toggle()).status).toBe(200);
    clockAt(6);
    expect((await w.delete(`/vehicles/${v2.id}`)).status).toBe(204);
    clockAt(7);
    await gql(w, "mutation { createPatientFile(input: { patientName: \"P\" }) { id } }");
    clockAt(8);
    expect((await other.api.patch(`/vehicles/${v1.id}`, { owner: "Second" })).status).toBe(200);
    clockAt(9);
    await gql(w, "mutation { createOffenderFile(input: { offenderName: \"O\" }) { id } }");
    service.clock.reset();
  });

  /** The sequence of the clocked write made at minute n. */
  const seq = (n: number) => pre + 1 + n;
  const sequences = (events: Event[]) => events.map((event) => event.sequence);

  test("GET /events: newest first, Laravel's cursor envelope; next to the end visits every event once, prev goes back", async () => {
    const all = await net.reader.api.get("/events");
    expect(all.status).toBe(200);
    expect(Object.keys(all.body)).toEqual(["data", "links", "meta"]);
    expect(all.body.links).toEqual({ prev: null, next: null });
    expect(all.body.meta).toEqual({ path: `${service.url}/events`, per_page: 50, prev_cursor: null, next_cursor: null });
    expect(sequences(all.body.data)).toEqual(Array.from({ length: seq(9) }, (_, i) => seq(9) - i));
    expect(all.body.data[0]).toEqual({
      id: `evt_${net.id}_${seq(9)}`,
      sequence: seq(9),
      type: "offenderFile.created",
      occurredAt: minute(9),
      actor: net.writer.actor,
      subject: { type: "offenderFile", id: expect.any(String) },
      data: { id: Number(all.body.data[0].subject.id), offenderName: "O", createdAt: minute(9) },
    });
    expect(Object.keys(all.body.data[0])).toEqual(["id", "sequence", "type", "occurredAt", "actor", "subject", "data"]);

    // Pages of 4, forward to the end.
    const pages: any[] = [];
    let next: string | null = `${service.url}/events?per_page=4`;
    while (next) {
      const page = await net.reader.api.get(next.slice(service.url.length));
      expect(page.status).toBe(200);
      pages.push(page.body);
      next = page.body.links.next;
      if (next) expect(next).toBe(`${service.url}/events?per_page=4&cursor=${page.body.meta.next_cursor}`);
    }
    expect(pages.length).toBe(Math.ceil(seq(9) / 4));
    expect(pages.flatMap((page) => sequences(page.data))).toEqual(sequences(all.body.data));
    expect(pages[0].links.prev).toBeNull();
    expect(pages[0].meta).toEqual({ path: `${service.url}/events`, per_page: 4, prev_cursor: null, next_cursor: expect.any(String) });
    expect(pages[pages.length - 1].meta.next_cursor).toBeNull();
    // Back from the last page by prev: the same pages in reverse.
    const back: number[][] = [];
    let prev: string | null = pages[pages.length - 1].links.prev;
    while (prev) {
      const page = await net.reader.api.get(prev.slice(service.url.length));
      expect(page.status).toBe(200);
      back.push(sequences(page.body.data));
      prev = page.body.links.prev;
    }
    expect(back).toEqual(pages.slice(0, -1).map((page) => sequences(page.data)).reverse());
  });

  test("GET /events filters: type (list, family), subject, key, from/to, after/before; links keep them", async () => {
    const get = async (query: string) => {
      const response = await net.reader.api.get(`/events?${query}`);
      expect({ query, status: response.status }).toEqual({ query, status: 200 });
      return sequences(response.body.data);
    };
    expect(await get("type=vehicle.created,dutytime.stopped")).toEqual([seq(5), seq(1), seq(0)]);
    expect(await get("type=vehicle.*")).toEqual([seq(8), seq(6), seq(2), seq(1), seq(0)]);
    expect(await get("type=vehicle.*,missionReport.created,vehicle.updated")).toEqual([seq(8), seq(6), seq(4), seq(2), seq(1), seq(0)]);
    expect(await get(`subject_type=vehicle&subject_id=${v1.id}`)).toEqual([seq(8), seq(2), seq(0)]);
    expect(await get(`subject_type=officer&subject_id=${encodeURIComponent(identifier("o1"))}`)).toEqual([seq(5), seq(3), pre]);
    expect(await get(`subject_id=${v2.id}&type=vehicle.deleted`)).toEqual([seq(6)]);
    expect(await get(`key_id=${other.id}`)).toEqual([seq(8)]);
    expect(await get(`key_id=${net.dutytime.id}`)).toEqual([seq(5), seq(3)]);
    expect(await get(`from=${minute(2)}&to=${minute(5)}`)).toEqual([seq(4), seq(3), seq(2)]);
    expect(await get(`from=${minute(8)}&to=${minute(60)}`)).toEqual([seq(9), seq(8)]);
    // from alone: the later events too (the keys and the officer were made at the real time).
    expect(await get(`from=${minute(9)}`)).toEqual([seq(9), ...Array.from({ length: pre }, (_, i) => pre - i)]);
    expect(await get(`after=${seq(2)}&before=${seq(6)}`)).toEqual([seq(5), seq(4), seq(3)]);
    expect(await get(`after=${seq(9)}`)).toEqual([]);
    expect(await get("subject_type=webhook")).toEqual([]);

    // Filters kept by the links: pages of 2 of vehicle.* to the end.
    const pages = await everyEvent(net.reader.api, `type=${encodeURIComponent("vehicle.*")}&per_page=2`);
    expect(pages.map((page) => sequences(page))).toEqual([[seq(8), seq(6)], [seq(2), seq(1)], [seq(0)]]);
    const first = await net.reader.api.get(`/events?type=${encodeURIComponent("vehicle.*")}&per_page=2`);
    expect(new URL(first.body.links.next).searchParams.get("type")).toBe("vehicle.*");
  });

  test("GET /events refuses per_page 0, an unknown type or subject type, a bad cursor or instant: 422 in the contract's shape", async () => {
    for (const [query, field, message] of [
      ["per_page=0", "per_page", "The per page field must be between 1 and 500."],
      ["type=vehicle.exploded", "type", 'The selected type "vehicle.exploded" is not an event type or family (e.g. vehicle.updated, vehicle.*).'],
      ["type=vehicle.created,nothing.*", "type", 'The selected type "nothing.*" is not an event type or family (e.g. vehicle.updated, vehicle.*).'],
      ["subject_type=car", "subject_type", expect.stringMatching(/^The selected subject type is invalid\./)],
      ["cursor=not-a-cursor", "cursor", "The cursor field is not a cursor of this list: use next_cursor or prev_cursor as answered."],
      ["from=yesterday", "from", expect.stringMatching(/^The from field must be an ISO-8601 date and time/)],
    ] as const) {
      const response = await net.reader.api.get(`/events?${query}`);
      expect({ query, status: response.status, body: response.body }).toEqual({ query, status: 422, body: { message, errors: { [field]: [message] } } });
    }
    expect((await net.reader.api.get("/events?per_page=1")).body.data.length).toBe(1);
  });

  test("GET /events: per_page 500 (the contract's most) answers a page, 501 is refused on per_page", async () => {
    const most = await net.reader.api.get("/events?per_page=500");
    expect({ status: most.status, message: most.body.message, perPage: most.body.meta?.per_page, count: most.body.data?.length }).toEqual({
      status: 200,
      message: undefined,
      perPage: 500,
      count: seq(9),
    });
    const over = await net.reader.api.get("/events?per_page=501");
    const message = "The per page field must be between 1 and 500.";
    expect({ status: over.status, body: over.body }).toEqual({ status: 422, body: { message, errors: { per_page: [message] } } });
  });

  test("GraphQL events(...) answers the same events and cursors as GET /events", async () => {
    const selection = "data { id sequence type occurredAt actor { kind keyId keyName } subject { type id } data } meta { perPage prevCursor nextCursor }";
    const cases: [string, Record<string, unknown>][] = [
      ["", {}],
      ["type=vehicle.*,dutytime.started", { type: "vehicle.*,dutytime.started" }],
      [`subject_type=vehicle&subject_id=${v1.id}`, { subjectType: "vehicle", subjectId: String(v1.id) }],
      [`key_id=${other.id}`, { keyId: String(other.id) }],
      [`from=${minute(2)}&to=${minute(5)}`, { from: minute(2), to: minute(5) }],
      [`after=${seq(2)}&before=${seq(6)}&per_page=2`, { after: seq(2), before: seq(6), perPage: 2 }],
    ];
    for (const [query, args] of cases) {
      const rest = await net.reader.api.get(`/events?${query}`);
      const data = await gql(
        net.reader.api,
        `query ($type: String, $subjectType: String, $subjectId: String, $keyId: ID, $from: DateTime, $to: DateTime, $after: Int, $before: Int, $perPage: Int, $cursor: String) {
          events(type: $type, subjectType: $subjectType, subjectId: $subjectId, keyId: $keyId, from: $from, to: $to, after: $after, before: $before, perPage: $perPage, cursor: $cursor) { ${selection} } }`,
        args,
      );
      expect({ query, data: data.events.data }).toEqual({ query, data: rest.body.data });
      expect(data.events.meta).toEqual({ perPage: rest.body.meta.per_page, prevCursor: rest.body.meta.prev_cursor, nextCursor: rest.body.meta.next_cursor });
      expect(rest.body.data.length).toBeGreaterThan(0);
    }
    // The next page by GraphQL's cursor is REST's next page.
    const page1 = await gql(net.reader.api, `{ events(perPage: 3) { ${selection} } }`);
    const page2 = await gql(net.reader.api, `query ($c: String) { events(perPage: 3, cursor: $c) { ${selection} } }`, { c: page1.events.meta.nextCursor });
    expect(sequences(page2.events.data)).toEqual([seq(6), seq(5), seq(4)]);
    expect(await gqlCode(net.reader.api, "{ events(perPage: 0) { data { id } } }")).toBe("BAD_USER_INPUT");
    expect(await gqlCode(net.reader.api, "{ events(type: \"nope\") { data { id } } }")).toBe("BAD_USER_INPUT");
  });

  test("admin events list --network ID prints the same events as JSON", async () => {
    const rest = await net.reader.api.get(`/events?type=${encodeURIComponent("vehicle.*")}&subject_id=${v1.id}`);
    const listed = await admin("events", "list", "--network", String(net.id), "--type", "vehicle.*", "--subject-id", String(v1.id));
    expect(listed).toEqual({ events: rest.body.data, nextBefore: null });
    expect(sequences(listed.events)).toEqual([seq(8), seq(2), seq(0)]);

    const window = await admin("events", "list", "--network", String(net.id), "--since", minute(1), "--until", minute(9), "--key", String(net.writer.id), "--per-page", "3");
    const restWindow = await net.reader.api.get(`/events?from=${minute(1)}&to=${minute(9)}&key_id=${net.writer.id}&per_page=3`);
    expect(window).toEqual({ events: restWindow.body.data, nextBefore: seq(4) });
    expect(sequences(window.events)).toEqual([seq(7), seq(6), seq(4)]);
  });
});

// ---------------------------------------------------------------------------------------------
// 5. Isolation and scope.

describe("isolation and scope", () => {
  test("network B's key sees none of network A's events, by REST and GraphQL, even filtered by A's ids", async () => {
    const a = await newNetwork("Alpha PD");
    const b = await newNetwork("Bravo PD");
    const officerA = await a.network.officer("shared", "Alpha Officer");
    const vehicleA = await restVehicle(a.writer.api, { plate: "ALPHA-1" });
    await a.dutytime.api.post(`/dutytime/${encodeURIComponent(officerA.identifier)}/toggle`);
    await restVehicle(b.writer.api, { plate: "BRAVO-1" });
    const lastA = await lastSequence(a.reader.api);

    const seenByB = (await everyEvent(b.reader.api)).flat();
    expect(seenByB.length).toBe(5);
    expect(seenByB.every((event) => event.id.startsWith(`evt_${b.id}_`))).toBe(true);
    expect(JSON.stringify(seenByB)).not.toMatch(/ALPHA|Alpha Officer/);

    for (const query of [
      `subject_type=vehicle&subject_id=${vehicleA.id}`,
      `subject_type=officer&subject_id=${encodeURIComponent(officerA.identifier)}`,
      `key_id=${a.writer.id}`,
      `key_id=${a.dutytime.id}`,
      `after=0&type=${encodeURIComponent("dutytime.*")}`,
    ]) {
      const response = await b.reader.api.get(`/events?${query}`);
      expect({ query, status: response.status, data: response.body.data }).toEqual({ query, status: 200, data: [] });
    }
    const viaGraphql = await gql(b.reader.api, "query ($v: String, $k: ID) { byVehicle: events(subjectType: \"vehicle\", subjectId: $v) { data { id } } byKey: events(keyId: $k) { data { id } } all: events { data { id } } }", {
      v: String(vehicleA.id),
      k: String(a.writer.id),
    });
    expect(viaGraphql.byVehicle.data).toEqual([]);
    expect(viaGraphql.byKey.data).toEqual([]);
    expect(viaGraphql.all.data.map((event: { id: string }) => event.id)).toEqual(seenByB.map((event) => event.id));
    // A's own key sees them.
    expect((await a.reader.api.get(`/events?subject_type=vehicle&subject_id=${vehicleA.id}`)).body.data.map((event: Event) => event.type)).toEqual(["vehicle.created"]);
    // B's events did not move A's sequence.
    expect(await lastSequence(a.reader.api)).toBe(lastA);
  });

  test("the audit log needs scope read: a dutytime-only key gets 403 by REST and GraphQL", async () => {
    const net = await newNetwork("Scoped Log PD");
    const rest = await net.dutytime.api.get("/events");
    expect({ status: rest.status, body: rest.body }).toEqual({ status: 403, body: { message: "This action is unauthorized." } });
    const graphql = await net.dutytime.api.graphql("{ events { data { id } } }");
    expect({ status: graphql.status, code: graphql.body.errors?.[0]?.extensions?.code, data: graphql.body.data ?? null }).toEqual({ status: 403, code: "FORBIDDEN", data: null });
    const writeOnly = await keyOf(net.network, "writes only", ["write"]);
    expect((await writeOnly.api.get("/events")).status).toBe(403);
    expect((await net.reader.api.get("/events")).status).toBe(200);
    expect((await client(service.url, null).get("/events")).status).toBe(401);
  });
});
