// The request log (issue 24, part 1): one line per request with its id, method, route template,
// status, duration, network, key prefix, GraphQL operation and refusal reason, and never the key,
// a query value or a body; X-Request-Id taken when sane, else made, and echoed in every answer.
// In-process through a captured logger, and once through a real process's stdout.
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { observabilitySpecs, defaultLogSettings } from "../src/config/observability";
import { webhookSpecs } from "../src/config/webhooks";
import { proxySpecs } from "../src/config/proxies";
import { readSettings } from "../src/config/env";
import { generateApiKey, hashApiKey } from "../src/resolvers/apiKeys";
import { keyPrefixLength, RequestRecord } from "../src/server/observability/requestRecord";
import { requestObserver } from "../src/server/observability/requestObserver";
import { startService, temporaryDir, type TestService } from "./support/service";
import { startServiceProcess } from "./support/process";
import { captureLog, type CapturedLog } from "./support/logCapture";
import { client } from "./support/http";

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

test("the README's configuration table lists the log, metrics, proxy and webhook settings with their defaults and meanings", () => {
  const readme = fs.readFileSync(path.join(__dirname, "..", "README.md"), "utf8");
  for (const spec of [...Object.values(observabilitySpecs), ...Object.values(proxySpecs), ...Object.values(webhookSpecs)]) expect(readme).toContain(`| \`${spec.env}\` | ${spec.shown} | ${spec.meaning} |`);
});

test("the settings are read from the environment; values that mean nothing are refused", () => {
  expect(readSettings({}).log).toEqual(defaultLogSettings);
  expect(readSettings({}).metrics).toEqual({ port: null, host: "127.0.0.1" });
  expect(readSettings({ LOG_LEVEL: "silent", LOG_FORMAT: "pretty" }).log).toEqual({ level: "silent", format: "pretty" });
  expect(readSettings({ METRICS_PORT: "9464", METRICS_HOST: "::1" }).metrics).toEqual({ port: 9464, host: "::1" });
  expect(() => readSettings({ LOG_LEVEL: "verbose" })).toThrow("LOG_LEVEL");
  expect(() => readSettings({ LOG_FORMAT: "xml" })).toThrow("LOG_FORMAT");
  expect(() => readSettings({ METRICS_PORT: "70000" })).toThrow("METRICS_PORT");
});

test("the logged key prefix is the prefix the admin command shows", () => {
  const issued = generateApiKey();
  expect(issued.apiKey.slice(0, keyPrefixLength)).toBe(issued.prefix);
});

test("a request's line is the line pino makes of its record: same fields, same order, same level", () => {
  const captured = captureLog("info");
  const full = Object.assign(new RequestRecord("same-1", "POST"), {
    route: "/graphql",
    status: 503,
    durationMs: 12.34,
    clientAddress: "2001:db8::7",
    proxyAddress: "127.0.0.1",
    network: 7,
    keyPrefix: "vrd_abcdef",
    operation: "Dash_board2",
    operationType: "query" as const,
    refusal: "timeout" as const,
  });
  const sparse = Object.assign(new RequestRecord("same-2", "GET"), { status: 404, durationMs: 0.5 });
  for (const [record, level] of [[full, "warn"], [sparse, "info"]] as const) {
    captured.log.request(record, level);
    captured.log[level](record);
  }
  const [mine, pinos] = [0, 1].map((parity) => captured.lines().filter((_, i) => i % 2 === parity));
  const withoutTime = ({ time, ...rest }: Record<string, any>) => (expect(typeof time).toBe("number"), rest);
  expect(mine.map(withoutTime)).toEqual(pinos.map(withoutTime));
  expect(mine.map((line) => Object.keys(line))).toEqual(pinos.map((line) => Object.keys(line)));
  expect(mine.map((line) => line.level)).toEqual([40, 30]);
  expect(Object.keys(mine[1])).not.toContain("keyPrefix");
});

test("a request's line is left out below the logger's level", () => {
  const captured = captureLog("warn");
  captured.log.request(new RequestRecord("quiet-1", "GET"), "info");
  captured.log.request(new RequestRecord("loud-1", "GET"), "warn");
  expect(captured.lines().map((line) => line.requestId)).toEqual(["loud-1"]);
});

describe("request lines", () => {
  let service: TestService;
  let captured: CapturedLog;
  let apiKey: string;
  let networkId: number;

  beforeAll(async () => {
    captured = captureLog();
    service = await startService({ log: captured.log });
    ({ apiKey, id: networkId } = await service.network());
  });
  afterAll(() => service.close());

  const send = (pathname: string, init: RequestInit & { headers?: Record<string, string> } = {}) => fetch(service.url + pathname, init);

  test("every field is there, with the route's template; never the key, a query value or a body", async () => {
    const keyed = { "X-API-Key": apiKey, "Content-Type": "application/json" };
    const created = await send("/vehicles", {
      method: "POST",
      headers: { ...keyed, "X-Request-Id": "log-create" },
      body: JSON.stringify({ plate: "SECRETPLATE", owner: "SECRETOWNER", cartyp: "Vapid" }),
    });
    expect(created.status).toBe(201);
    const id = (await created.json()).data.id;
    expect((await send(`/vehicles/${id}`, { headers: { ...keyed, "X-Request-Id": "log-get" } })).status).toBe(200);
    expect((await send("/vehicles?search=SECRETTERM123&per_page=5", { headers: { ...keyed, "X-Request-Id": "log-search" } })).status).toBe(200);
    const query = 'query DashboardVehicles { vehicles(search: "SECRETTERM123") { meta { total } } }';
    for (const requestId of ["log-query-1", "log-query-2"]) {
      expect((await send("/graphql", { method: "POST", headers: { ...keyed, "X-Request-Id": requestId }, body: JSON.stringify({ query }) })).status).toBe(200);
    }
    const mutation = "mutation AddVehicle($input: CreateVehicleInput!) { createVehicle(input: $input) { id } }";
    const added = await send("/graphql", {
      method: "POST",
      headers: { ...keyed, "X-Request-Id": "log-mutation" },
      body: JSON.stringify({ query: mutation, variables: { input: { plate: "SECRETPLATE2", owner: "SECRETOWNER" } } }),
    });
    expect(added.status).toBe(200);
    expect((await send("/healthz", { headers: { "X-Request-Id": "log-health" } })).status).toBe(200);
    expect((await send("/SECRETPATH/42", { headers: { ...keyed, "X-Request-Id": "log-missing" } })).status).toBe(404);

    const keyPrefix = apiKey.slice(0, keyPrefixLength);
    const get = captured.lineOf("log-get");
    // Fields that do not apply are left out: a REST request has no operation, an answered one no refusal.
    expect(Object.keys(get)).toEqual(["level", "time", "pid", "hostname", "requestId", "method", "route", "status", "durationMs", "clientAddress", "network", "keyPrefix", "keyId", "keyName"]);
    // No proxy is trusted here: the socket's peer (test/trustedProxies.test.ts has the others).
    expect(get).toMatchObject({ level: 30, pid: process.pid, clientAddress: "127.0.0.1" });
    expect(Math.abs(get.time - Date.now())).toBeLessThan(60_000);
    expect(get.durationMs).toBeGreaterThanOrEqual(0);
    const network = networkId;
    // The admitted key's id and name, as stored.
    const { id: keyId, name: keyName } = (await service.db.apiKeys.byHash(hashApiKey(apiKey)))!;
    expect(captured.requestOf("log-get")).toEqual({ method: "GET", route: "/vehicles/{vehicle}", status: 200, network, keyPrefix, keyId, keyName });
    expect(captured.requestOf("log-create")).toEqual({ method: "POST", route: "/vehicles", status: 201, network, keyPrefix, keyId, keyName });
    expect(captured.requestOf("log-search")).toEqual({ method: "GET", route: "/vehicles", status: 200, network, keyPrefix, keyId, keyName });
    // The first run goes through Yoga, the second is a known query: both name the operation.
    for (const requestId of ["log-query-1", "log-query-2"]) {
      expect(captured.requestOf(requestId)).toEqual({ method: "POST", route: "/graphql", status: 200, network, keyPrefix, keyId, keyName, operation: "DashboardVehicles", operationType: "query" });
    }
    expect(captured.requestOf("log-mutation")).toEqual({ method: "POST", route: "/graphql", status: 200, network, keyPrefix, keyId, keyName, operation: "AddVehicle", operationType: "mutation" });
    expect(captured.requestOf("log-health")).toEqual({ method: "GET", route: "/healthz", status: 200 });
    expect(captured.requestOf("log-missing")).toEqual({ method: "GET", route: null, status: 404 });

    const text = captured.text();
    for (const secret of [apiKey, "SECRETPLATE", "SECRETOWNER", "SECRETTERM123", "SECRETPATH", `/vehicles/${id}`, "per_page"]) expect(text).not.toContain(secret);
  });

  test("X-Request-Id: a sane one is echoed, another or none is replaced by a new one; the line has the answer's", async () => {
    const targets: { name: string; path: string; init?: RequestInit }[] = [
      { name: "REST", path: "/vehicles/1" },
      { name: "GraphQL, known query", path: "/graphql", init: { method: "POST", body: JSON.stringify({ query: "{ network { id } }" }) } },
      { name: "GraphQL through Yoga", path: "/graphql?query=%7Bnetwork%7Bid%7D%7D" },
      { name: "public endpoint", path: "/openapi.json" },
      { name: "unknown path", path: "/nowhere" },
      { name: "wrong method", path: "/healthz", init: { method: "DELETE" } },
      { name: "refused body", path: "/vehicles", init: { method: "POST", body: "x".repeat(1024 * 1024 + 1) } },
    ];
    for (const [index, { name, path: pathname, init = {} }] of targets.entries()) {
      const sane = `client-${index}_1.2:3`;
      for (const sent of [sane, "has spaces", "x".repeat(129), "<script>", null]) {
        const headers: Record<string, string> = { "X-API-Key": apiKey, "Content-Type": "application/json" };
        if (sent !== null) headers["X-Request-Id"] = sent;
        const response = await send(pathname, { ...init, headers });
        await response.arrayBuffer();
        const echoed = response.headers.get("x-request-id");
        if (sent === sane) expect({ name, echoed }).toEqual({ name, echoed: sent });
        else expect({ name, echoed }).toEqual({ name, echoed: expect.stringMatching(uuid) });
        expect(captured.lineOf(echoed!).status).toBe(response.status);
      }
    }
    expect(captured.text()).not.toContain("has spaces");
  });

  test("node's own answer to a request that is not HTTP carries an id too", async () => {
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(Number(new URL(service.url).port), "127.0.0.1", () => socket.write("NOT HTTP AT ALL\r\n\r\n"));
      let text = "";
      socket.on("data", (chunk) => (text += chunk));
      socket.on("end", () => resolve(text));
      socket.on("error", reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(answer).toMatch(/\r\nX-Request-Id: [0-9a-f-]{36}\r\n/);
  });

  test("refusals say why: no key, unknown key, not a key of ours", async () => {
    const unknownKey = `vrd_${"Q".repeat(43)}`;
    for (const [requestId, headers] of [
      ["refused-none", {}],
      ["refused-unknown", { "X-API-Key": unknownKey }],
      ["refused-foreign", { Authorization: "Bearer hunter2-my-password" }],
      ["refused-two", { "X-API-Key": apiKey, Authorization: `Bearer ${unknownKey}` }],
    ] as const) {
      expect((await send("/vehicles", { headers: { ...headers, "X-Request-Id": requestId } })).status).toBe(401);
    }
    const refused = { method: "GET", route: "/vehicles", status: 401 };
    expect(captured.requestOf("refused-none")).toEqual({ ...refused, refusal: "no_key" });
    expect(captured.requestOf("refused-unknown")).toEqual({ ...refused, refusal: "unknown_key", keyPrefix: "vrd_QQQQQQQQ" });
    expect(captured.requestOf("refused-foreign")).toEqual({ ...refused, refusal: "unknown_key" });
    expect(captured.requestOf("refused-two")).toEqual({ ...refused, refusal: "no_key" });
    expect(captured.text()).not.toContain("hunter2");
    expect(captured.text()).not.toContain(unknownKey);
  });

  test("an unexpected error is logged with its stack and the request's id, at error", () => {
    const record = new RequestRecord("boom-1", "GET");
    requestObserver(captured.log, undefined).internalError(new Error("kaboom"), record);
    const line = captured.lines().find((each) => each.requestId === "boom-1")!;
    expect(line).toMatchObject({ level: 50, msg: "internal error", err: { type: "Error", message: "kaboom" } });
    expect(line.err.stack).toContain("requestLog.test.ts");
  });
});

test("refusals by the rate limit and by the operation limits are logged with their reason", async () => {
  const captured = captureLog();
  // Three requests per key and minute: the second key sends three.
  const service = await startService({ log: captured.log, rateLimit: { perMinute: 3 }, limits: { graphqlMaxAliases: 2, graphqlMaxCost: 50 } });
  try {
    const limited = client(service.url, (await service.network()).apiKey);
    for (const requestId of ["rate-1", "rate-2", "rate-3", "rate-4"]) await limited.get("/statistics/missions/total", { headers: { "X-Request-Id": requestId } });
    expect(captured.lineOf("rate-3")).not.toHaveProperty("refusal");
    expect(captured.lineOf("rate-4")).toMatchObject({ status: 429, refusal: "rate_limit", route: "/statistics/missions/total" });

    const api = client(service.url, (await service.network()).apiKey);
    const aliases = await api.graphql("query TooMany { a: network { id } b: network { id } c: network { id } }", undefined, { headers: { "X-Request-Id": "over-aliases" } });
    expect(aliases.status).toBe(400);
    expect(captured.lineOf("over-aliases")).toMatchObject({ status: 400, refusal: "operation_limit", route: "/graphql" });
    const costly = "query Costly { vehicles(perPage: 100) { data { id plate owner } } }";
    for (const requestId of ["over-cost-1", "over-cost-2"]) {
      expect((await api.graphql(costly, undefined, { headers: { "X-Request-Id": requestId } })).status).toBe(400);
      expect(captured.lineOf(requestId)).toMatchObject({ status: 400, refusal: "operation_cost", operation: "Costly", operationType: "query" });
    }
  } finally {
    await service.close();
  }
});

test("LOG_LEVEL=silent writes nothing", async () => {
  const captured = captureLog("silent");
  const service = await startService({ log: captured.log });
  try {
    expect((await fetch(`${service.url}/healthz`)).status).toBe(200);
    expect(captured.text()).toBe("");
  } finally {
    await service.close();
  }
});

describe("a real process", () => {
  /** Waits until the process has written a line with this text (its destination writes asynchronously). */
  async function outputLine(output: () => string, text: string): Promise<string> {
    for (let waited = 0; waited < 5_000; waited += 50) {
      const line = output().split("\n").find((each) => each.includes(text));
      if (line) return line;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`no line with ${text} in:\n${output()}`);
  }

  test("writes JSON lines on stdout: its start, each request", async () => {
    const dataDir = temporaryDir();
    const child = await startServiceProcess({ DATA_DIR: dataDir });
    try {
      const response = await fetch(`${child.url}/vehicles?search=SECRETTERM123`, { headers: { "X-Request-Id": "process-1", "X-API-Key": "vrd_SECRETKEY_not_issued" } });
      expect(response.headers.get("x-request-id")).toBe("process-1");
      const line = JSON.parse(await outputLine(child.output, '"process-1"'));
      expect(line).toMatchObject({ level: 30, requestId: "process-1", method: "GET", route: "/vehicles", status: 401, refusal: "unknown_key", keyPrefix: "vrd_SECRETKE" });
      expect(JSON.parse(await outputLine(child.output, "listening on")).msg).toMatch(/^Vehicle Records and Duty Time Service listening on http/);
      expect(child.output()).not.toContain("SECRETTERM123");
      expect(child.output()).not.toContain("SECRETKEY_not_issued");
      expect(await child.stop()).toBe(0);
    } finally {
      await child.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  test("LOG_LEVEL=warn leaves out the lines of answered requests, not the start and stop lines", async () => {
    const dataDir = temporaryDir();
    const child = await startServiceProcess({ DATA_DIR: dataDir, LOG_LEVEL: "warn" });
    try {
      expect((await fetch(`${child.url}/nowhere`, { headers: { "X-Request-Id": "warn-1" } })).status).toBe(404);
      expect(await child.stop()).toBe(0);
      expect(child.output()).toContain("listening on");
      expect(child.output()).toContain("SIGTERM: finishing requests in flight");
      expect(child.output()).not.toContain("warn-1");
    } finally {
      await child.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  test("LOG_FORMAT=pretty writes a readable line per request", async () => {
    const dataDir = temporaryDir();
    const child = await startServiceProcess({ DATA_DIR: dataDir, LOG_FORMAT: "pretty" });
    try {
      await (await fetch(`${child.url}/healthz`, { headers: { "X-Request-Id": "pretty-1" } })).text();
      const line = await outputLine(child.output, "pretty-1");
      expect(line).toMatch(/INFO.*GET \/healthz 200 [\d.]+ ms/);
      expect(child.output()).toMatch(/INFO.*listening on/);
    } finally {
      await child.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
