// docs/deployment.md, followed word for word on this machine (as root: see jest.config.js here),
// then the service proven through the real nginx in front of it: the README's first requests over
// HTTPS, subscriptions over SSE and WebSocket through the proxy, a disconnect and its resume, the
// body limit, the client's address in the log; then PostgreSQL with two processes behind one
// upstream, every event delivered once to each subscriber and each webhook attempt made once.
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { createClient } from "graphql-ws";
import WebSocket from "ws";
import { deploymentBlocks, readmeFirstRequests, repoRoot, type DeploymentBlock } from "./document";
import { domain, prepareMachine, resetMachine, type Machine } from "./machine";
import { subscribeSse, type SseSubscriber } from "../support/eventStream";
import { startWebhookReceiver, verified, type WebhookReceiver } from "../support/webhookReceiver";

const allowed = process.getuid?.() === 0 && (process.env.CI === "true" || process.env.DEPLOYMENT_TEST === "1");
if (!allowed) throw new Error("The deployment test installs the service on this machine: run it as root with CI=true or DEPLOYMENT_TEST=1 (on a throwaway machine).");

const base = `https://${domain}`;
const blocks = deploymentBlocks();
let machine: Machine;
let ca: Buffer;
/** The domain resolves to this machine, whatever /etc/hosts says. */
const lookup: LookupFunction = (_host, options, callback) => {
  if ((options as { all?: boolean }).all) (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address: "127.0.0.1", family: 4 }]);
  else callback(null, "127.0.0.1", 4);
};
const tls = () => ({ ca, lookup });

/** The blocks of the document's sections up to and including the one whose heading starts with `heading`. */
function runSections(from: string, through: string): string {
  const start = blocks.findIndex((block) => block.section.startsWith(from));
  const end = blocks.map((block) => block.section.startsWith(through)).lastIndexOf(true);
  expect(start).toBeGreaterThanOrEqual(0);
  expect(end).toBeGreaterThanOrEqual(start);
  return blocks.slice(start, end + 1).map((block: DeploymentBlock) => machine.run(block)).join("");
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function request(url: string, options: https.RequestOptions & { body?: string | Buffer } = {}): Promise<Answer> {
  const { body, ...rest } = options;
  const transport = url.startsWith("https:") ? https : http;
  return new Promise((resolve, reject) => {
    const outgoing = transport.request(url, { ...(url.startsWith("https:") ? tls() : {}), ...rest }, (response: http.IncomingMessage) => {
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (chunk) => (text += chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text }));
    });
    outgoing.on("error", reject);
    outgoing.end(body);
  });
}

const json = (key: string) => ({ "X-API-Key": key, "Content-Type": "application/json" });

async function waitFor<T>(what: string, check: () => Promise<T | undefined> | T | undefined, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await check();
      if (value !== undefined && value !== false) return value;
    } catch (error) {
      last = error;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ""}`);
}

const apiKeyIn = (output: string): string => {
  const key = /"apiKey":\s*"(vrd_[^"]+)"/.exec(output)?.[1];
  if (!key) throw new Error(`no apiKey in:\n${output}`);
  return key;
};

const liveEvents = `subscription Live($after: Int) { events(after: $after) { sequence type } }`;
const sequencesOf = (subscriber: SseSubscriber) =>
  subscriber.frames.filter((frame) => frame.event === "next").map((frame) => JSON.parse(frame.data).data.events.sequence as number);

/** A WebSocket subscription through the proxy: the sequences received, as they come. */
function subscribeWebSocket(key: string, after?: number, origin = `wss://${domain}`) {
  const caFile = ca;
  class TrustingWebSocket extends WebSocket {
    constructor(url: string, protocols?: string | string[]) {
      super(url, protocols, { ca: caFile, lookup });
    }
  }
  const sequences: number[] = [];
  const client = createClient({ url: `${origin}/graphql`, webSocketImpl: TrustingWebSocket, connectionParams: { "X-API-Key": key }, retryAttempts: 0, lazy: false, onNonLazyError: () => undefined });
  // An error or a refusal brings no sequence: the test waiting for one fails.
  const dispose = client.subscribe<{ events: { sequence: number } }>(
    { query: liveEvents, variables: after === undefined ? {} : { after } },
    { next: (result) => void (result.data && sequences.push(result.data.events.sequence)), error: () => undefined, complete: () => undefined },
  );
  return {
    sequences,
    close: async () => {
      dispose();
      await client.dispose();
    },
  };
}

/** An SSE and a WebSocket subscriber through a proxy both receive the toggle of an officer, as it is made. */
async function expectToggleLive(origin: string, key: string, identifier: string): Promise<void> {
  const sse = await subscribeSse(origin, key, liveEvents, {}, {}, tls());
  expect(sse.status).toBe(200);
  const ws = subscribeWebSocket(key, undefined, origin.replace(/^https:/, "wss:"));
  await new Promise((resolve) => setTimeout(resolve, 500));
  const toggle = await request(`${origin}/dutytime/${identifier}/toggle`, { method: "POST", headers: json(key) });
  expect(toggle.status).toBe(200);
  const [frame] = await sse.nexts(1);
  expect(JSON.parse(frame.data).data.events.type).toBe("dutytime.started");
  await waitFor("the WebSocket event", () => ws.sequences.length >= 1 || undefined);
  expect(ws.sequences).toEqual(sequencesOf(sse));
  sse.close();
  await ws.close();
}

beforeAll(() => {
  machine = prepareMachine(repoRoot);
});

afterAll(() => {
  if (process.env.KEEP_DEPLOYMENT !== "1") resetMachine(machine?.stateDir);
});

describe("docs/deployment.md on a fresh server, then through nginx", () => {
  let key: string;

  test("every shell block of the document says where it runs, and the test runs each one", () => {
    const kinds = blocks.map((block) => block.kind);
    expect(kinds.filter((kind) => kind === "build")).toHaveLength(1);
    expect(kinds).toContain("certificate");
    // The two blocks the test cannot run as written are the only ones it replaces.
    expect(kinds.filter((kind) => kind !== "build" && kind !== "server")).toEqual(["node", "certificate"]);
  });

  test("sections 1 to 5: the release built, installed as a unit behind nginx with TLS, a first network", async () => {
    const output = runSections("1.", "5.");
    ca = fs.readFileSync(machine.certificate);
    key = apiKeyIn(output);
    expect(output).toContain('{"status":"ready"}');
    const ready = await request(`${base}/readyz`);
    expect(ready.status).toBe(200);
    // Plain HTTP is sent to HTTPS.
    const plain = await waitFor("the redirect", async () => {
      const answer = await request(`http://127.0.0.1/healthz`, { headers: { Host: domain } });
      return answer.status === 301 ? answer : undefined;
    });
    expect(plain.headers.location).toBe(`${base}/healthz`);
    // The release runs as the service's user with the settings of /etc/vehicle-records/env.
    const pid = fs.readFileSync(`${machine.stateDir}/vehicle-records@4000.pid`, "utf8").trim();
    expect(execFileSync("ps", ["-o", "user=", "-p", pid], { encoding: "utf8" }).trim()).toBe("vehicle-records");
    expect(fs.existsSync("/var/lib/vehicle-records/service.db")).toBe(true);
  });

  test("the README's first requests, over HTTPS through nginx", () => {
    const last = `${machine.stateDir}/last-admin.json`;
    const script = readmeFirstRequests()
      // One command a line (the README continues long ones with a backslash).
      .replace(/\\\n\s*/g, " ")
      .replaceAll("http://127.0.0.1:4000", base)
      // The subscription streams until Ctrl-C: three seconds of it.
      .replace(/^curl -sN (.*)$/m, "timeout 3 curl -sN $1 || [ $? = 124 ]")
      // "KEY=vrd_...   # the key printed above"
      .replace(/^([A-Z_]+)=vrd_\.\.\..*$/gm, `$1=$(sed -n 's/.*"apiKey": *"\\([^"]*\\)".*/\\1/p' ${last} | tail -1)`)
      // The README's network is the first of a fresh service: here, the one it creates.
      .replaceAll("--network 1 ", '--network "$README_NETWORK" ');
    // `npm run --silent admin -- ...` is the release's admin command on the server.
    const npm = `npm() {
  [ "$1 $2 $3 $4" = "run --silent admin --" ] || { echo "unexpected: npm $*" >&2; return 1; }
  shift 4
  local printed
  printed=$(admin "$@")
  printf '%s\\n' "$printed" | tee -a ${last}
  if [ "$1 $2" = "network create" ]; then README_NETWORK=$(printf '%s' "$printed" | sed -n 's/^    "id": \\([0-9]*\\),$/\\1/p' | head -1); fi
}`;
    const output = machine.shell(`${npm}\n${script}`);
    // The vehicle created, found, the duty toggled by the connector's key, the audit log.
    expect(output).toMatch(/"plate":\s*"LS-4711"/);
    expect(output).toMatch(/"total":\s*1/);
    expect(output).toMatch(/"dutytime\.started"/);
    expect(output).toMatch(/"name":\s*"dashboard"/);
    expect(output).not.toMatch(/"errors"|"message":/);
  });

  test("SSE and WebSocket subscriptions through nginx receive a toggle as it is made", async () => {
    machine.shell(`admin officer add --network 1 --identifier steam:110000112345679 --name "Erika Musterfrau"`);
    await expectToggleLive(base, key, "steam:110000112345679");
  });

  test("a subscriber that loses its connection resumes after its last sequence through nginx, missing nothing", async () => {
    const first = await subscribeSse(base, key, liveEvents, {}, {}, tls());
    const toggle = () => request(`${base}/dutytime/steam:110000112345679/toggle`, { method: "POST", headers: json(key) });
    await new Promise((resolve) => setTimeout(resolve, 300));
    await toggle();
    await first.nexts(1);
    const [seen] = sequencesOf(first);
    first.close();
    for (let i = 0; i < 3; i++) expect((await toggle()).status).toBe(200);
    const resumedSse = await subscribeSse(base, key, liveEvents, { after: seen }, {}, tls());
    await resumedSse.nexts(3);
    expect(sequencesOf(resumedSse)).toEqual([seen + 1, seen + 2, seen + 3]);
    resumedSse.close();
    const resumedWs = subscribeWebSocket(key, seen);
    await waitFor("the WebSocket replay", () => resumedWs.sequences.length >= 3 || undefined);
    expect(resumedWs.sequences).toEqual([seen + 1, seen + 2, seen + 3]);
    await resumedWs.close();
  });

  test("a body over 1 MiB is refused by nginx in the service's own words, REST and GraphQL, declared or chunked", async () => {
    const body = Buffer.alloc(1024 * 1024 + 1, " ");
    for (const route of ["/vehicles", "/graphql"]) {
      for (const length of [{ "Content-Length": String(body.length) }, { "Transfer-Encoding": "chunked" }]) {
        const options = { method: "POST", headers: { ...json(key), ...length }, body };
        const direct = await request(`http://127.0.0.1:4000${route}`, options);
        const proxied = await request(`${base}${route}`, options);
        expect({ route, length, direct: direct.status, proxied: proxied.status }).toEqual({ route, length, direct: 413, proxied: 413 });
        expect(JSON.parse(proxied.body)).toEqual(JSON.parse(direct.body));
        expect(proxied.headers["content-type"]).toMatch(/^application\/json/);
      }
    }
    // A body of exactly 1 MiB passes nginx: the service reads it (all blanks: no vehicle, 422).
    const fits = await request(`${base}/vehicles`, { method: "POST", headers: json(key), body: Buffer.alloc(1024 * 1024, " ") });
    expect(fits.status).toBe(422);
  });

  test("the request log shows the client's address from nginx, and not an address the client claims", async () => {
    const requestId = `deployment-${Date.now()}`;
    // The client on another address than the proxy (127.0.0.1, trusted): any of 127.0.0.0/8 is this machine.
    const answer = await request(`${base}/healthz`, { localAddress: "127.0.0.2", headers: { "X-Request-Id": requestId, "X-Forwarded-For": "203.0.113.9" } });
    expect(answer.headers["x-request-id"]).toBe(requestId);
    const line = await waitFor("the request's log line", () =>
      machine
        .journal("vehicle-records@4000")
        .split("\n")
        .find((entry) => entry.includes(requestId)),
    );
    const logged = JSON.parse(line);
    expect({ client: logged.clientAddress, proxy: logged.proxyAddress }).toEqual({ client: "127.0.0.2", proxy: "127.0.0.1" });
    expect(line).not.toContain("203.0.113.9");
  });
});

describe("deploy/Caddyfile instead of nginx, in front of the same service", () => {
  // Caddy beside nginx on other ports, with the test's certificate instead of one from an ACME
  // server it cannot reach: what the test adds to the Caddyfile, the rest as shipped.
  const port = 8443;
  const caddyBase = `https://${domain}:${port}`;
  let caddy: ChildProcess;
  let key: string;
  let output = "";

  beforeAll(async () => {
    const created = machine.shell(`admin network create --name "Caddy PD" --identifier-type steam`);
    key = apiKeyIn(created);
    const network = JSON.parse(created).network.id;
    machine.shell(`admin officer add --network ${network} --identifier steam:110000112345670 --name "Kai Caddy"`);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "vrd-caddy-"));
    const shipped = fs.readFileSync(path.join(repoRoot, "deploy", "Caddyfile"), "utf8");
    const certificate = path.dirname(machine.certificate);
    const config = `{\n\tadmin off\n\thttp_port 8080\n\thttps_port ${port}\n\tauto_https disable_redirects\n}\n\n${shipped.replace(
      `${domain} {\n`,
      `${domain} {\n\ttls ${certificate}/fullchain.pem ${certificate}/privkey.pem\n`,
    )}`;
    expect(config).toContain("\ttls ");
    fs.writeFileSync(path.join(dir, "Caddyfile"), config);
    caddy = spawn("caddy", ["run", "--adapter", "caddyfile", "--config", path.join(dir, "Caddyfile")], { cwd: dir, env: { ...process.env, HOME: dir, XDG_DATA_HOME: dir, XDG_CONFIG_HOME: dir } });
    caddy.stdout!.on("data", (chunk) => (output += chunk));
    caddy.stderr!.on("data", (chunk) => (output += chunk));
    await waitFor(`Caddy on ${port}`, () => new Promise<true | undefined>((resolve) => net.connect(port, "127.0.0.1").once("connect", function (this: net.Socket) { this.destroy(); resolve(true); }).once("error", () => resolve(undefined))), 20_000).catch((error) => {
      throw new Error(`${error}\n${output}`);
    });
  });

  afterAll(() => {
    caddy?.kill("SIGTERM");
  });

  test("SSE and WebSocket subscriptions through Caddy receive a toggle as it is made", async () => {
    await expectToggleLive(caddyBase, key, "steam:110000112345670");
  });

  test("a body over 1 MiB is refused through Caddy in the service's own words, REST and GraphQL, declared or chunked", async () => {
    const body = Buffer.alloc(1024 * 1024 + 1, " ");
    for (const route of ["/vehicles", "/graphql"]) {
      for (const length of [{ "Content-Length": String(body.length) }, { "Transfer-Encoding": "chunked" }]) {
        const options = { method: "POST", headers: { ...json(key), ...length }, body };
        const direct = await request(`http://127.0.0.1:4000${route}`, options);
        const proxied = await request(`${caddyBase}${route}`, options);
        expect({ route, length, status: proxied.status }).toEqual({ route, length, status: 413 });
        expect(JSON.parse(proxied.body)).toEqual(JSON.parse(direct.body));
      }
    }
  });

  test("the request log shows the client's address from Caddy, not the one the client claims", async () => {
    const requestId = `caddy-${Date.now()}`;
    await request(`${caddyBase}/healthz`, { localAddress: "127.0.0.2", headers: { "X-Request-Id": requestId, "X-Forwarded-For": "203.0.113.9" } });
    const line = await waitFor("the request's log line", () =>
      machine
        .journal("vehicle-records@4000")
        .split("\n")
        .find((entry) => entry.includes(requestId)),
    );
    const logged = JSON.parse(line);
    expect({ client: logged.clientAddress, proxy: logged.proxyAddress }).toEqual({ client: "127.0.0.2", proxy: "127.0.0.1" });
  });
});

describe("section 6: PostgreSQL and two processes behind one upstream", () => {
  let key: string;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
  });

  afterAll(async () => {
    await receiver?.close();
  });

  test("the document's commands move the service to PostgreSQL with two processes", async () => {
    // The webhook receiver of this test is on loopback, which webhooks may not reach unless allowed.
    fs.appendFileSync("/etc/vehicle-records/env", "WEBHOOK_ALLOWED_HOSTS=127.0.0.1\n");
    const output = runSections("6.", "6.");
    key = apiKeyIn(output);
    for (const port of [4000, 4001]) {
      await waitFor(`process ${port}`, async () => (await request(`http://127.0.0.1:${port}/readyz`)).status === 200 || undefined);
    }
    await waitFor("the second process's start in its journal", () => machine.journal("vehicle-records@4001").includes("listening on") || undefined);
  });

  test("every event reaches each subscriber once, in order, and each webhook attempt is made once, whichever process served what", async () => {
    const network = Number(/"id":\s*(\d+)/.exec(machine.shell(`admin network list`))?.[1]);
    machine.shell(`admin officer add --network ${network} --identifier steam:110000112345678 --name "Max Mustermann"`);
    const hook = machine.shell(`admin webhook add --network ${network} --url ${receiver.url} --types 'vehicle.*,dutytime.*'`);
    const secret = /"secret":\s*"(whsec_[^"]+)"/.exec(hook)?.[1];
    expect(secret).toBeDefined();
    // nginx takes turns: subscribers and writes land on both processes.
    const sse = await Promise.all(Array.from({ length: 4 }, () => subscribeSse(base, key, liveEvents, {}, {}, tls())));
    const ws = Array.from({ length: 2 }, () => subscribeWebSocket(key));
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const writes = 20;
    for (let i = 0; i < writes; i++) {
      const answer =
        i % 2 === 0
          ? await request(`${base}/vehicles`, { method: "POST", headers: json(key), body: JSON.stringify({ plate: `PG-${i}`, cartyp: "Vapid", owner: "Max Mustermann", tuv: "2027-03-01" }) })
          : await request(`${base}/dutytime/steam:110000112345678/toggle`, { method: "POST", headers: json(key) });
      expect(answer.status).toBeLessThan(300);
    }
    const events = machine.shell(`curl -s --cacert ${machine.certificate} --resolve ${domain}:443:127.0.0.1 -H "X-API-Key: ${key}" "${base}/events?type=vehicle.*,dutytime.*&per_page=100"`);
    const expected = (JSON.parse(events).data as { sequence: number }[])
      .map((event) => event.sequence)
      .sort((a, b) => a - b);
    expect(expected).toHaveLength(writes);
    for (const subscriber of sse) {
      await subscriber.nexts(expected.length, 20_000);
      const seen = sequencesOf(subscriber).filter((sequence) => sequence >= expected[0]);
      expect(seen).toEqual(expected);
    }
    for (const subscriber of ws) {
      await waitFor("WebSocket events", () => subscriber.sequences.length >= expected.length || undefined);
      expect(subscriber.sequences.filter((sequence) => sequence >= expected[0])).toEqual(expected);
    }
    await receiver.until((requests) => requests.filter((entry) => entry.status === 200).length >= expected.length, 30_000);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const delivered = receiver.requests.map((entry) => verified(secret!, entry).sequence);
    expect(delivered).toEqual(expected);
    // Both processes took part: each wrote to its journal requests that changed something.
    for (const unit of ["vehicle-records@4000", "vehicle-records@4001"]) {
      expect(machine.journal(unit)).toMatch(/"method":"POST","route":"\/(vehicles|dutytime\/\{identifier\}\/toggle)"/);
    }
    for (const subscriber of sse) subscriber.close();
    for (const subscriber of ws) await subscriber.close();
  });

  test("updating: both processes restart gracefully (SIGTERM, within the unit's timeout) and serve again", async () => {
    const update = blocks.find((block) => block.section === "Updating");
    expect(update).toBeDefined();
    machine.shell(`tar -czf vehicle-records.tar.gz -C /opt/vehicle-records .`);
    machine.run(update!);
    for (const unit of ["vehicle-records@4000", "vehicle-records@4001"]) expect(machine.journal(unit)).toContain("SIGTERM: finishing requests in flight");
    await waitFor("the service after the update", async () => (await request(`${base}/readyz`)).status === 200 || undefined);
    const list = await request(`${base}/vehicles?per_page=1`, { headers: json(key) });
    expect(JSON.parse(list.body).meta.total).toBe(10);
  });
});
