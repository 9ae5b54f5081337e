// Hostile HTTP, case by case (hardening spec: "Input errors", "Nothing for strangers", "GraphQL
// over HTTP", "Connection hygiene"): each case asserts the status, a JSON body of the contract's
// shape, and that nothing was stored. Protocol-level cases talk to the socket directly (node:net),
// since fetch cannot send duplicate or malformed headers.
import http from "node:http";
import net from "node:net";
import { startService, type TestNetwork, type TestService } from "./support/service";
import { client, type ApiResponse, type Client } from "./support/http";

let service: TestService;
let network: TestNetwork;
let api: Client;

beforeAll(async () => {
  service = await startService();
  network = await service.network();
  api = client(service.url, network.apiKey);
  await network.officer("1001", "Nul Officer");
  expect((await api.post("/vehicles", { plate: "HOST-1", owner: "Host Owner" })).status).toBe(201);
});
afterAll(() => service.close());

const apolloAccept = "application/graphql-response+json,application/json;q=0.9";

// --- helpers ----------------------------------------------------------------------------------

async function vehiclesTotal(key = network.apiKey): Promise<number> {
  const list = await client(service.url, key).get("/vehicles?per_page=1");
  expect(list.status).toBe(200);
  return list.body.meta.total;
}

async function activeUsers(): Promise<number> {
  const answer = await api.get("/statistics/active-users");
  expect(answer.status).toBe(200);
  return answer.body.count;
}

function expectJson(response: ApiResponse) {
  expect(response.headers.get("content-type")).toMatch(/^application\/json/);
  expect(typeof response.body).toBe("object");
  expect(response.body).not.toBeNull();
}

function expectMessageOnly(response: ApiResponse) {
  expectJson(response);
  expect(Object.keys(response.body)).toEqual(["message"]);
  expect(typeof response.body.message).toBe("string");
}

/** A 422 whose `errors` has exactly these fields. */
function expectValidation(response: ApiResponse, fields: string[]) {
  expect({ status: response.status, text: response.text.slice(0, 300) }).toEqual({ status: 422, text: expect.any(String) });
  expectJson(response);
  expect(typeof response.body.message).toBe("string");
  expect(Object.keys(response.body.errors ?? {}).sort()).toEqual([...fields].sort());
}

/** A GraphQL error answer: an `errors` array of messages, the first one's code. */
function graphqlErrorCode(body: any): string | undefined {
  if (!Array.isArray(body?.errors)) throw new Error(`expected an errors array, got ${JSON.stringify(body)?.slice(0, 300)}`);
  expect(body.errors.length).toBeGreaterThan(0);
  for (const error of body.errors) expect(typeof error.message).toBe("string");
  return body.errors[0].extensions?.code;
}

/** The response is a GraphQL refusal with status 400 (never 5xx): JSON with an `errors` array. */
function expectGraphql400(response: ApiResponse) {
  expect({ status: response.status, text: response.text.slice(0, 300) }).toEqual({ status: 400, text: expect.any(String) });
  expect(response.headers.get("content-type")).toMatch(/^application\/(graphql-response\+)?json/);
  graphqlErrorCode(response.body);
}

interface RawResponse {
  status: number;
  headers: Record<string, string[]>;
  body: string;
}

/** Parses one response at `offset` of `text` (latin1); null while it is incomplete. */
function parseResponse(text: string, offset: number, closed: boolean): { response: RawResponse; end: number } | null {
  const headEnd = text.indexOf("\r\n\r\n", offset);
  if (headEnd === -1) return null;
  const [statusLine, ...lines] = text.slice(offset, headEnd).split("\r\n");
  const status = Number(statusLine.split(" ")[1]);
  const headers: Record<string, string[]> = {};
  for (const line of lines) {
    const colon = line.indexOf(":");
    const name = line.slice(0, colon).trim().toLowerCase();
    (headers[name] ??= []).push(line.slice(colon + 1).trim());
  }
  const bodyStart = headEnd + 4;
  const utf8 = (latin1: string) => Buffer.from(latin1, "latin1").toString("utf8");
  if (status < 200 || status === 204 || status === 304) return { response: { status, headers, body: "" }, end: bodyStart };
  if (headers["content-length"]) {
    const end = bodyStart + Number(headers["content-length"][0]);
    return text.length >= end ? { response: { status, headers, body: utf8(text.slice(bodyStart, end)) }, end } : null;
  }
  if (headers["transfer-encoding"]?.some((value) => /chunked/i.test(value))) {
    let at = bodyStart;
    let body = "";
    for (;;) {
      const lineEnd = text.indexOf("\r\n", at);
      if (lineEnd === -1) return null;
      const size = parseInt(text.slice(at, lineEnd), 16);
      if (size === 0) {
        const end = text.indexOf("\r\n\r\n", lineEnd);
        return end === -1 ? null : { response: { status, headers, body: utf8(body) }, end: end + 4 };
      }
      if (text.length < lineEnd + 2 + size + 2) return null;
      body += text.slice(lineEnd + 2, lineEnd + 2 + size);
      at = lineEnd + 2 + size + 2;
    }
  }
  return closed ? { response: { status, headers, body: utf8(text.slice(bodyStart)) }, end: text.length } : null;
}

/** A raw connection to the service: write bytes as they are, watch what comes back. */
class RawConnection {
  private received: Buffer[] = [];
  closed = false;
  error: Error | null = null;
  private listeners = new Set<() => void>();

  private constructor(private socket: net.Socket) {
    socket.on("data", (chunk) => {
      this.received.push(chunk);
      this.notify();
    });
    socket.on("end", () => {
      this.closed = true;
      this.notify();
    });
    socket.on("close", () => {
      this.closed = true;
      this.notify();
    });
    socket.on("error", (error) => {
      this.error = error;
      this.closed = true;
      this.notify();
    });
  }

  static open(): Promise<RawConnection> {
    const { hostname, port } = new URL(service.url);
    return new Promise((resolve, reject) => {
      const socket = net.connect(Number(port), hostname, () => resolve(new RawConnection(socket)));
      socket.once("error", reject);
    });
  }

  private notify() {
    for (const listener of this.listeners) listener();
  }

  /** Written as it is: no line endings are changed. */
  write(data: string | Buffer) {
    if (!this.socket.destroyed) this.socket.write(data);
  }

  text(): string {
    return Buffer.concat(this.received).toString("latin1");
  }

  /** Every complete response so far (a 100 Continue included). */
  responses(): RawResponse[] {
    const text = this.text();
    const found: RawResponse[] = [];
    let offset = 0;
    while (offset < text.length) {
      const parsed = parseResponse(text, offset, this.closed);
      if (!parsed) break;
      found.push(parsed.response);
      offset = parsed.end;
    }
    return found;
  }

  /** The first final (non-1xx) response, once complete. */
  finalResponse(): RawResponse | undefined {
    return this.responses().find((response) => response.status >= 200);
  }

  /** Resolves true once `predicate` holds, false after `ms`. */
  waitFor(predicate: () => boolean, ms: number): Promise<boolean> {
    if (predicate()) return Promise.resolve(true);
    return new Promise((resolve) => {
      const check = () => {
        if (!predicate()) return;
        done(true);
      };
      const timer = setTimeout(() => done(predicate()), ms);
      const done = (value: boolean) => {
        clearTimeout(timer);
        this.listeners.delete(check);
        resolve(value);
      };
      this.listeners.add(check);
    });
  }

  destroy() {
    this.socket.destroy();
  }
}

/** Lines joined with CRLF, ending the head with an empty line. */
const head = (...lines: string[]) => lines.join("\r\n") + "\r\n\r\n";

/** A whole request with a JSON body and these key lines, closing its connection after the answer. */
const jsonRequest = (requestLine: string, keyLines: string[], body: string) =>
  head(
    requestLine,
    "Host: records.test",
    ...keyLines,
    "Content-Type: application/json",
    "Accept: application/json",
    `Content-Length: ${body.length}`,
    "Connection: close",
  ) + body;

/** Sends a whole request and waits (up to `ms`) for its final answer. */
async function rawRequest(request: string | Buffer, ms = 5_000): Promise<{ response: RawResponse | undefined; connection: RawConnection }> {
  const connection = await RawConnection.open();
  connection.write(request);
  await connection.waitFor(() => connection.finalResponse() !== undefined, ms);
  const response = connection.finalResponse();
  return { response, connection };
}

/** A protocol error answer in the contract's shape: the status, JSON `{"message": "..."}`. */
function expectProtocolError(response: RawResponse | undefined, status: number) {
  expect(response).toBeDefined();
  expect({ status: response!.status, body: response!.body.slice(0, 200) }).toEqual({ status, body: expect.any(String) });
  expect(response!.headers["content-type"]?.[0]).toMatch(/^application\/json/);
  const body = JSON.parse(response!.body);
  expect(Object.keys(body)).toEqual(["message"]);
  expect(typeof body.message).toBe("string");
}

// --- Input errors: NUL ------------------------------------------------------------------------

describe("NUL (U+0000) in a string a client sends", () => {
  test.each([
    { field: "plate", body: { plate: "\u0000" } },
    { field: "owner", body: { plate: "NUL-1", owner: "a\u0000b" } },
  ])("REST create with a NUL in $field -> 422 errors.$field, nothing stored", async ({ field, body }) => {
    const before = await vehiclesTotal();
    const response = await api.post("/vehicles", body);
    expectValidation(response, [field]);
    expect(await vehiclesTotal()).toBe(before);
  });

  test("REST update with a NUL in comment -> 422 errors.comment, vehicle unchanged", async () => {
    const created = (await api.post("/vehicles", { plate: "NUL-UPD", comment: "clean" })).body.data;
    const response = await api.patch(`/vehicles/${created.id}`, { comment: "x\u0000y" });
    expectValidation(response, ["comment"]);
    expect((await api.get(`/vehicles/${created.id}`)).body.data).toEqual(created);
  });

  test("GET /vehicles?search=%00 -> 422 errors.search", async () => {
    const response = await api.get("/vehicles?search=%00");
    expectValidation(response, ["search"]);
  });

  test("POST /dutytime/steam%3A1001%00/toggle -> 422 errors.identifier, nobody on duty", async () => {
    const before = await activeUsers();
    const response = await api.post("/dutytime/steam%3A1001%00/toggle");
    expectValidation(response, ["identifier"]);
    expect(await activeUsers()).toBe(before);
  });

  test("GraphQL toggleDutytime(identifier: \"steam:1001\\u0000\") -> BAD_USER_INPUT, nobody on duty", async () => {
    const before = await activeUsers();
    const response = await api.graphql("mutation($id: String!) { toggleDutytime(identifier: $id) { onDuty } }", { id: "steam:1001\u0000" });
    expect(response.status).toBeLessThan(500);
    expect(graphqlErrorCode(response.body)).toBe("BAD_USER_INPUT");
    expect(await activeUsers()).toBe(before);
  });

  test("GraphQL createVehicle with a NUL in plate (a literal) -> BAD_USER_INPUT, nothing stored", async () => {
    const before = await vehiclesTotal();
    const response = await api.graphql('mutation { createVehicle(input: {plate: "NUL\\u0000GQL"}) { id } }');
    expect(response.status).toBeLessThan(500);
    expect(graphqlErrorCode(response.body)).toBe("BAD_USER_INPUT");
    expect(await vehiclesTotal()).toBe(before);
  });

  test("GraphQL createMissionReport with a NUL in title -> BAD_USER_INPUT, nothing stored", async () => {
    const total = async () => (await api.graphql("{ missionsTotal { count } }")).body.data.missionsTotal.count;
    const before = await total();
    const response = await api.graphql("mutation($input: CreateMissionReportInput!) { createMissionReport(input: $input) { id } }", {
      input: { title: "Report\u0000" },
    });
    expect(response.status).toBeLessThan(500);
    expect(graphqlErrorCode(response.body)).toBe("BAD_USER_INPUT");
    expect(await total()).toBe(before);
  });
});

// --- Every method on every kind of path ------------------------------------------------------

describe("every method node's server passes on, on every kind of path", () => {
  // Each path with the methods it serves (HEAD wherever GET is); every other method is a 405.
  const served: [string, string[]][] = [
    ["/healthz", ["GET", "HEAD"]],
    ["/readyz", ["GET", "HEAD"]],
    ["/openapi.json", ["GET", "HEAD"]],
    ["/docs", ["GET", "HEAD"]],
    ["/docs/assets/swagger-ui.css", ["GET", "HEAD"]],
    ["/dashboard", ["GET", "HEAD"]],
    ["/dashboard/assets/dashboard.js", ["GET", "HEAD"]],
    ["/graphql", ["GET", "HEAD", "POST"]],
    ["/vehicles", ["GET", "HEAD", "POST"]],
    ["/vehicles/1", ["GET", "HEAD", "PUT", "PATCH", "DELETE"]],
    ["/dutytime/steam%3A1001/toggle", ["POST"]],
  ];
  // CONNECT names a host, not a path: node's server hands it to 'connect' listeners (there are none) and closes.
  const methods = http.METHODS.filter((method) => method !== "CONNECT");

  async function answer(method: string, path: string, keyLines: string[]): Promise<RawResponse> {
    if (method === "HEAD") {
      // An answer to HEAD has no body whatever its Content-Length: read by fetch, which knows.
      const headers = Object.fromEntries(keyLines.map((line) => line.split(": ") as [string, string]));
      const response = await fetch(`${service.url}${path}`, { method, headers: { ...headers, Accept: "application/json" } });
      return { status: response.status, headers: Object.fromEntries([...response.headers].map(([name, value]) => [name, [value]])), body: "{}" };
    }
    const { response, connection } = await rawRequest(head(`${method} ${path} HTTP/1.1`, "Host: records.test", ...keyLines, "Accept: application/json", "Connection: close"));
    connection.destroy();
    expect({ method, path, answered: response !== undefined }).toEqual({ method, path, answered: true });
    return response!;
  }

  test.each(served)("%s: every other method answers 405 with Allow, in JSON, with or without a key", async (path, allowed) => {
    for (const method of methods.filter((each) => !allowed.includes(each))) {
      for (const keyLines of [[], [`X-API-Key: ${network.apiKey}`]]) {
        const response = await answer(method, path, keyLines);
        const allow = (response.headers["allow"]?.[0] ?? "").split(", ").sort();
        expect({ method, path, status: response.status, allow }).toEqual({ method, path, status: 405, allow: [...allowed].sort() });
        expect(response.headers["content-type"]?.[0]).toMatch(/^application\/json/);
        if (method === "HEAD") continue;
        const body = JSON.parse(response.body);
        expect(typeof (path === "/graphql" ? body.errors[0].message : body.message)).toBe("string");
      }
    }
  });

  test("an unknown path answers 404 to every method; CONNECT is closed without an answer", async () => {
    for (const method of methods.filter((each) => each !== "HEAD")) {
      const response = await answer(method, "/no/such/path", [`X-API-Key: ${network.apiKey}`]);
      expect({ method, status: response.status, body: JSON.parse(response.body) }).toEqual({ method, status: 404, body: { message: "Not Found." } });
    }
    const { response, connection } = await rawRequest(head("CONNECT records.test:443 HTTP/1.1", "Host: records.test:443"), 2_000);
    connection.destroy();
    expect(response === undefined || response.status < 500).toBe(true);
  });
});

// --- Input errors: GET /graphql variables, methods --------------------------------------------

describe("GraphQL over GET and other methods", () => {
  test.each(["{", "not json", "[1,2]", '"text"', "42", "true"])("GET /graphql with variables=%p -> 400 in GraphQL's shape", async (variables) => {
    const query = encodeURIComponent("query($s: String) { vehicles(search: $s) { meta { total } } }");
    const response = await api.get(`/graphql?query=${query}&variables=${encodeURIComponent(variables)}`);
    expectGraphql400(response);
  });

  test.each(["TRACE", "PROPFIND", "PUT", "DELETE"])("%s /graphql -> 405 with Allow", async (method) => {
    const body = JSON.stringify({ query: "{ network { name } }" });
    const { response, connection } = await rawRequest(jsonRequest(`${method} /graphql HTTP/1.1`, [`X-API-Key: ${network.apiKey}`], body));
    connection.destroy();
    expect(response?.status).toBe(405);
    const allow = (response!.headers["allow"] ?? []).join(",").toUpperCase();
    expect(allow).toMatch(/GET/);
    expect(allow).toMatch(/POST/);
    expect(allow).not.toMatch(new RegExp(`\\b${method}\\b`));
    expect(response!.headers["content-type"]?.[0]).toMatch(/^application\/json/);
    graphqlErrorCode(JSON.parse(response!.body));
  });
});

// --- Input errors: deep nesting ---------------------------------------------------------------

describe("nesting 10,000 deep is a 400, never a 5xx", () => {
  const depth = 10_000;

  test("a document of 10,000 nested inline fragments", async () => {
    const query = `{ ${"...{ ".repeat(depth)}network { name }${" }".repeat(depth)} }`;
    expectGraphql400(await api.graphql(query));
  });

  test("a list argument value nested 10,000 deep", async () => {
    const query = `{ vehicles(search: ${"[".repeat(depth)}"x"${"]".repeat(depth)}) { meta { total } } }`;
    expectGraphql400(await api.graphql(query));
  });

  test("an object argument value nested 10,000 deep", async () => {
    const query = `{ vehicles(search: ${"{a: ".repeat(depth)}1${"}".repeat(depth)}) { meta { total } } }`;
    expectGraphql400(await api.graphql(query));
  });

  test.each([10_000, 100])("REST POST /vehicles with a JSON body nested %p deep -> 400 {message}, nothing stored", async (levels) => {
    const before = await vehiclesTotal();
    const rawBody = `{"plate":"DEEP-${levels}","padding":${"[".repeat(levels)}${"]".repeat(levels)}}`;
    const response = await api.request("POST", "/vehicles", { rawBody, headers: { "Content-Type": "application/json" } });
    expect(response.status).toBe(400);
    expectMessageOnly(response);
    expect(await vehiclesTotal()).toBe(before);
  });

  test("REST POST /vehicles with a JSON body nested 30 deep is read as usual (unknown fields ignored)", async () => {
    const rawBody = `{"plate":"NEST-30","padding":${"[".repeat(30)}${"]".repeat(30)}}`;
    const response = await api.request("POST", "/vehicles", { rawBody, headers: { "Content-Type": "application/json" } });
    expect(response.status).toBe(201);
  });

  test("POST /graphql with variables nested 10,000 deep -> 400 {errors}, nothing runs", async () => {
    const before = await vehiclesTotal();
    const rawBody = `{"query":"mutation($input: CreateVehicleInput!) { createVehicle(input: $input) { id } }","variables":{"input":{"plate":"DEEPVAR","x":${"[".repeat(depth)}${"]".repeat(depth)}}}}`;
    const response = await api.request("POST", "/graphql", { rawBody, headers: { "Content-Type": "application/json" } });
    expectGraphql400(response);
    expect(await vehiclesTotal()).toBe(before);
  });

  test("POST /graphql with an unused variable nested 10,000 deep -> 400 {errors}", async () => {
    const rawBody = `{"query":"{ network { name } }","variables":{"deep":${"{\"a\":".repeat(depth)}1${"}".repeat(depth)}}}`;
    const response = await api.request("POST", "/graphql", { rawBody, headers: { "Content-Type": "application/json" } });
    expectGraphql400(response);
  });
});

// --- Input errors: DateTime -------------------------------------------------------------------

describe("impossible or out-of-range DateTime inputs are BAD_USER_INPUT and store nothing", () => {
  const instants = [
    "2026-02-30T10:00Z",
    "2026-02-29T10:00:00Z",
    "2026-04-31T00:00:00Z",
    "2026-01-01T24:00Z",
    "2026-01-01T25:00Z",
    "2026-01-01T10:60Z",
    "2026-01-01T10:00:60Z",
    "2026-01-01T10:00+24:00",
    "2026-01-01T10:00-23:60",
    "9999-12-31T23:59-23:59",
    "0000-01-01T00:00:00Z",
  ];
  const total = async (field: string) => {
    const answer = await api.graphql(`{ ${field} { count } }`);
    expect(answer.body.errors).toBeUndefined();
    return answer.body.data[field].count as number;
  };
  const cases = instants.flatMap((instant) => [
    { instant, form: "a literal in the document" },
    { instant, form: "a variable" },
  ]);

  test.each(cases)("createMissionReport createdAt $instant as $form", async ({ instant, form }) => {
    const before = await total("missionsTotal");
    const response =
      form === "a variable"
        ? await api.graphql("mutation($input: CreateMissionReportInput!) { createMissionReport(input: $input) { id createdAt } }", {
            input: { title: "Bad instant", createdAt: instant },
          })
        : await api.graphql(`mutation { createMissionReport(input: {title: "Bad instant", createdAt: ${JSON.stringify(instant)}}) { id createdAt } }`);
    expect(response.status).toBeLessThan(500);
    expect(response.body.data?.createMissionReport ?? null).toBeNull();
    expect(graphqlErrorCode(response.body)).toBe("BAD_USER_INPUT");
    expect(await total("missionsTotal")).toBe(before);
  });

  test.each([
    ["createPatientFile", "CreatePatientFileInput", "patientName"],
    ["createOffenderFile", "CreateOffenderFileInput", "offenderName"],
  ])("%s with createdAt 9999-12-31T23:59-23:59 and 2026-02-30T10:00Z", async (mutation, inputType, nameField) => {
    for (const instant of ["9999-12-31T23:59-23:59", "2026-02-30T10:00Z"]) {
      const before = await total("filesTotal");
      const response = await api.graphql(`mutation($input: ${inputType}!) { ${mutation}(input: $input) { id } }`, {
        input: { [nameField]: "Bad instant", createdAt: instant },
      });
      expect(response.status).toBeLessThan(500);
      expect(graphqlErrorCode(response.body)).toBe("BAD_USER_INPUT");
      expect(await total("filesTotal")).toBe(before);
    }
  });
});

// --- Input errors: node's protocol errors -----------------------------------------------------

describe("protocol errors are answered in the contract's JSON shape", () => {
  test("a header over 16 KB -> 431 {message}", async () => {
    const { response, connection } = await rawRequest(
      head("GET /healthz HTTP/1.1", "Host: records.test", `X-Filler: ${"a".repeat(20_000)}`, "Connection: close"),
    );
    connection.destroy();
    expectProtocolError(response, 431);
  });

  test("a bad chunked body -> 400 {message}", async () => {
    const { response, connection } = await rawRequest(
      head(
        "POST /vehicles HTTP/1.1",
        "Host: records.test",
        `X-API-Key: ${network.apiKey}`,
        "Content-Type: application/json",
        "Transfer-Encoding: chunked",
        "Connection: close",
      ) + 'zz\r\n{"plate":"CHUNK"}\r\n0\r\n\r\n',
    );
    connection.destroy();
    expectProtocolError(response, 400);
  });

  test.each([
    { name: "abc", lines: ["Content-Length: abc"] },
    { name: "-1", lines: ["Content-Length: -1"] },
    { name: "1x", lines: ["Content-Length: 1x"] },
    { name: "5 and 6 on two lines", lines: ["Content-Length: 5", "Content-Length: 6"] },
  ])("a bad Content-Length ($name) -> 400 {message}", async ({ lines }) => {
    const { response, connection } = await rawRequest(
      head("POST /vehicles HTTP/1.1", "Host: records.test", `X-API-Key: ${network.apiKey}`, "Content-Type: application/json", ...lines, "Connection: close") +
        '{"plate":"CL-1"}',
    );
    connection.destroy();
    expectProtocolError(response, 400);
  });

  test("a bad request after an answered one on the same connection -> 400 {message} with an id of its own", async () => {
    const connection = await RawConnection.open();
    connection.write(head("GET /vehicles HTTP/1.1", "Host: records.test", `X-API-Key: ${network.apiKey}`));
    await connection.waitFor(() => connection.responses().length === 1, 5_000);
    const [first] = connection.responses();
    expect(first.status).toBe(200);
    // The first answer has finished: the protocol error is the connection's, not that answer's.
    connection.write("THIS IS NOT HTTP\r\n\r\n");
    await connection.waitFor(() => connection.responses().length === 2, 5_000);
    connection.destroy();
    const [, second] = connection.responses();
    expectProtocolError(second, 400);
    expect(second.headers["x-request-id"]?.[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(second.headers["x-request-id"]?.[0]).not.toBe(first.headers["x-request-id"]?.[0]);
  });

  test("a bad request line -> 400 {message}", async () => {
    const { response, connection } = await rawRequest("THIS IS NOT HTTP\r\n\r\n");
    connection.destroy();
    expectProtocolError(response, 400);
  });
});

// --- Input errors: two keys -------------------------------------------------------------------

describe("two different keys in one request are refused", () => {
  const unknownKey = "vrd_" + "A".repeat(43);

  test("two Authorization lines (the first one valid) -> 401 Unauthenticated", async () => {
    const { response, connection } = await rawRequest(
      head("GET /vehicles HTTP/1.1", "Host: records.test", `Authorization: Bearer ${network.apiKey}`, `Authorization: Bearer ${unknownKey}`, "Connection: close"),
    );
    connection.destroy();
    expect(response?.status).toBe(401);
    expect(JSON.parse(response!.body)).toEqual({ message: "Unauthenticated." });
  });

  test("two X-API-Key lines (both valid keys of two networks) -> 401 Unauthenticated", async () => {
    const other = await service.network();
    const { response, connection } = await rawRequest(
      head("GET /vehicles HTTP/1.1", "Host: records.test", `X-API-Key: ${network.apiKey}`, `X-API-Key: ${other.apiKey}`, "Connection: close"),
    );
    connection.destroy();
    expect(response?.status).toBe(401);
    expect(JSON.parse(response!.body)).toEqual({ message: "Unauthenticated." });
  });

  test("two Authorization lines on a GraphQL mutation -> 401 UNAUTHENTICATED, nothing stored", async () => {
    const before = await vehiclesTotal();
    const body = JSON.stringify({ query: 'mutation { createVehicle(input: {plate: "TWO-KEYS"}) { id } }' });
    const { response, connection } = await rawRequest(
      jsonRequest("POST /graphql HTTP/1.1", [`Authorization: Bearer ${network.apiKey}`, `Authorization: Bearer ${unknownKey}`], body),
    );
    connection.destroy();
    expect(response?.status).toBe(401);
    expect(graphqlErrorCode(JSON.parse(response!.body))).toBe("UNAUTHENTICATED");
    expect(await vehiclesTotal()).toBe(before);
  });
});

// --- Connection hygiene: Connection: close ----------------------------------------------------

describe("Connection: close from the client closes the connection after the answer", () => {
  const graphqlBody = (query: string) => JSON.stringify({ query });
  const cases: Array<[string, () => string, number, RegExp]> = [
    ["REST GET /vehicles", () => head("GET /vehicles HTTP/1.1", "Host: records.test", `X-API-Key: ${network.apiKey}`, "Connection: close"), 200, /application\/json/],
    ["REST GET /vehicles without a key (401)", () => head("GET /vehicles HTTP/1.1", "Host: records.test", "Connection: close"), 401, /application\/json/],
    ["GET /healthz", () => head("GET /healthz HTTP/1.1", "Host: records.test", "Connection: close"), 200, /application\/json/],
    ...(
      [
        ["GraphQL POST (a query)", "{ network { name } }", "application/json", /application\/json/],
        ["GraphQL POST (a mutation)", 'mutation { stopDutytime(identifier: "steam:1001") { onDuty } }', "application/json", /application\/json/],
        ["GraphQL POST with Accept: text/event-stream", "{ network { name } }", "text/event-stream", /text\/event-stream/],
        ["GraphQL POST with Accept: multipart/mixed", "{ network { name } }", "multipart/mixed", /multipart\/mixed/],
      ] as const
    ).map(
      ([name, query, accept, type]) =>
        [
          name,
          () =>
            head(
              "POST /graphql HTTP/1.1",
              "Host: records.test",
              `X-API-Key: ${network.apiKey}`,
              "Content-Type: application/json",
              `Accept: ${accept}`,
              `Content-Length: ${graphqlBody(query).length}`,
              "Connection: close",
            ) + graphqlBody(query),
          200,
          type,
        ] as [string, () => string, number, RegExp],
    ),
  ];

  test.each(cases)("%s", async (_name, request, status, contentType) => {
    const connection = await RawConnection.open();
    connection.write(request());
    // Generous: the server closes right after its answer; an open connection would idle for 65 s.
    const closed = await connection.waitFor(() => connection.closed, 5_000);
    const answer = connection.finalResponse();
    connection.destroy();
    expect(answer?.status).toBe(status);
    expect(answer?.headers["content-type"]?.[0]).toMatch(contentType);
    expect(closed).toBe(true);
  });
});

// --- Connection hygiene: bodies over the limit ------------------------------------------------

describe("a body over 1 MiB is answered 413, and the client sees the answer", () => {
  test.each([
    ["/vehicles", (body: any) => expect(Object.keys(body)).toEqual(["message"])],
    ["/graphql", (body: any) => expect(graphqlErrorCode(body)).toBe("BAD_USER_INPUT")],
  ] as const)("a 5 MiB POST %s with Node's fetch answers 413 in 20 of 20 tries", async (path, checkBody) => {
    const payload = Buffer.alloc(5 * 1024 * 1024, 0x20);
    payload.write('{"plate":"BIG-5","comment":"', 0);
    const outcomes: string[] = [];
    for (let i = 0; i < 20; i++) {
      try {
        const response = await fetch(service.url + path, {
          method: "POST",
          headers: { "Content-Type": "application/json", Accept: "application/json", "X-API-Key": network.apiKey },
          body: payload,
        });
        const text = await response.text();
        outcomes.push(String(response.status));
        if (response.status === 413) checkBody(JSON.parse(text));
      } catch (error) {
        const cause = (error as { cause?: { code?: string; message?: string } }).cause;
        outcomes.push(`error ${cause?.code ?? cause?.message ?? String(error)}`);
      }
    }
    expect(outcomes).toEqual(Array(20).fill("413"));
  });

  test("a chunked body growing past 1 MiB -> 413 {message} (5 of 5 tries), nothing stored", async () => {
    const before = await vehiclesTotal();
    const outcomes: string[] = [];
    for (let i = 0; i < 5; i++) {
      const chunk = new TextEncoder().encode(" ".repeat(128 * 1024));
      let sent = 0;
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent === 0) controller.enqueue(new TextEncoder().encode('{"plate":"CHUNK-BIG","comment":"'));
          // 2.5 MiB in all: past the limit, far below the 16 MiB the server may drain.
          if (sent++ < 20) controller.enqueue(chunk);
          else controller.close();
        },
      });
      try {
        const response = await fetch(`${service.url}/vehicles`, {
          method: "POST",
          headers: { "Content-Type": "application/json", "X-API-Key": network.apiKey },
          body,
          duplex: "half",
        } as RequestInit);
        const text = await response.text();
        outcomes.push(String(response.status));
        if (response.status === 413) expect(Object.keys(JSON.parse(text))).toEqual(["message"]);
      } catch (error) {
        const cause = (error as { cause?: { code?: string; message?: string } }).cause;
        outcomes.push(`error ${cause?.code ?? cause?.message ?? String(error)}`);
      }
    }
    expect(outcomes).toEqual(Array(5).fill("413"));
    expect(await vehiclesTotal()).toBe(before);
  });
});

// --- Nothing for strangers --------------------------------------------------------------------

describe("a request without a key is refused before its body is read", () => {
  test.each(["/vehicles", "/graphql"])("POST %s with Expect: 100-continue and no key -> 401, never 100 Continue", async (path) => {
    const body = JSON.stringify(path === "/graphql" ? { query: "{ network { name } }" } : { plate: "EXPECT-1" });
    const connection = await RawConnection.open();
    connection.write(
      head(
        `POST ${path} HTTP/1.1`,
        "Host: records.test",
        "Content-Type: application/json",
        "Accept: application/json",
        `Content-Length: ${body.length}`,
        "Expect: 100-continue",
        "Connection: close",
      ),
    );
    const answeredWithoutBody = await connection.waitFor(() => connection.finalResponse() !== undefined, 3_000);
    // A server that waits for the body would never answer: send it, to see what it says then.
    if (!answeredWithoutBody) {
      connection.write(body);
      await connection.waitFor(() => connection.finalResponse() !== undefined, 5_000);
    }
    const statuses = connection.responses().map((response) => response.status);
    const text = connection.text();
    connection.destroy();
    expect(text).not.toMatch(/^HTTP\/1\.1 100/m);
    expect(statuses).toEqual([401]);
    expect(answeredWithoutBody).toBe(true);
  });

  test("POST /vehicles with a valid key and Expect: 100-continue -> 100 Continue, then 201 once the body is sent", async () => {
    const body = JSON.stringify({ plate: "EXPECT-OK" });
    const connection = await RawConnection.open();
    connection.write(
      head(
        "POST /vehicles HTTP/1.1",
        "Host: records.test",
        `X-API-Key: ${network.apiKey}`,
        "Content-Type: application/json",
        `Content-Length: ${body.length}`,
        "Expect: 100-continue",
        "Connection: close",
      ),
    );
    // An admitted request is invited to send its body (clients such as curl wait for this).
    const invited = await connection.waitFor(() => connection.responses().length > 0, 5_000);
    connection.write(body);
    await connection.waitFor(() => connection.finalResponse() !== undefined, 5_000);
    const statuses = connection.responses().map((response) => response.status);
    connection.destroy();
    expect(invited).toBe(true);
    expect(statuses).toEqual([100, 201]);
  });

  test.each(["/vehicles", "/graphql"])("POST %s without a key, Content-Length 1000000 and 10 bytes sent -> 401 before the rest is sent", async (path) => {
    const connection = await RawConnection.open();
    connection.write(
      head(`POST ${path} HTTP/1.1`, "Host: records.test", "Content-Type: application/json", "Accept: application/json", "Content-Length: 1000000") +
        '{"query":"',
    );
    // The rest of the body is never sent: only a server that answers without reading it answers here.
    const answered = await connection.waitFor(() => connection.finalResponse() !== undefined, 5_000);
    const response = connection.finalResponse();
    connection.destroy();
    expect(answered).toBe(true);
    expect(response?.status).toBe(401);
    const body = JSON.parse(response!.body);
    if (path === "/graphql") expect(graphqlErrorCode(body)).toBe("UNAUTHENTICATED");
    else expect(body).toEqual({ message: "Unauthenticated." });
  });
});

// --- GraphQL over HTTP ------------------------------------------------------------------------

describe("GraphQL over HTTP: media types and statuses", () => {
  test("Apollo's Accept without a key -> 401 application/graphql-response+json, UNAUTHENTICATED", async () => {
    const response = await api.request("POST", "/graphql", { key: null, body: { query: "{ network { name } }" }, headers: { Accept: apolloAccept } });
    expect(response.status).toBe(401);
    expect(response.headers.get("content-type")).toMatch(/^application\/graphql-response\+json/);
    expect(graphqlErrorCode(response.body)).toBe("UNAUTHENTICATED");
  });

  test("Accept: application/json without a key -> 401 application/json, UNAUTHENTICATED", async () => {
    const response = await api.request("POST", "/graphql", { key: null, body: { query: "{ network { name } }" } });
    expect(response.status).toBe(401);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    expect(graphqlErrorCode(response.body)).toBe("UNAUTHENTICATED");
  });

  test("Apollo's Accept under a rate limit -> 429 application/graphql-response+json, RATE_LIMITED, Retry-After", async () => {
    const limited = await startService({ rateLimit: { perMinute: 2 } });
    try {
      const own = await limited.network();
      const limitedApi = client(limited.url, own.apiKey);
      const send = () => limitedApi.request("POST", "/graphql", { body: { query: "{ network { name } }" }, headers: { Accept: apolloAccept } });
      expect((await send()).status).toBe(200);
      expect((await send()).status).toBe(200);
      const refused = await send();
      expect(refused.status).toBe(429);
      expect(refused.headers.get("content-type")).toMatch(/^application\/graphql-response\+json/);
      expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
      expect(graphqlErrorCode(refused.body)).toBe("RATE_LIMITED");
    } finally {
      await limited.close();
    }
  });

  test("TRACE /graphql under Apollo's Accept -> 405 application/graphql-response+json with errors", async () => {
    const { response, connection } = await rawRequest(
      head("TRACE /graphql HTTP/1.1", "Host: records.test", `X-API-Key: ${network.apiKey}`, `Accept: ${apolloAccept}`, "Connection: close"),
    );
    connection.destroy();
    expect(response?.status).toBe(405);
    expect(response!.headers["content-type"]?.[0]).toMatch(/^application\/graphql-response\+json/);
    graphqlErrorCode(JSON.parse(response!.body));
  });

  test("a 2 MiB POST /graphql under Apollo's Accept -> 413 application/graphql-response+json, BAD_USER_INPUT", async () => {
    const query = `mutation { createVehicle(input: {plate: "BIG-APOLLO", comment: "${"x".repeat(2 * 1024 * 1024)}"}) { id } }`;
    const response = await api.request("POST", "/graphql", { body: { query }, headers: { Accept: apolloAccept } });
    expect(response.status).toBe(413);
    expect(response.headers.get("content-type")).toMatch(/^application\/graphql-response\+json/);
    expect(graphqlErrorCode(response.body)).toBe("BAD_USER_INPUT");
  });

  const uncoercible: Array<[string, string, Record<string, unknown> | undefined]> = [
    ['$p: Int with {"p":"x"}', "query($p: Int) { vehicles(perPage: $p) { meta { total } } }", { p: "x" }],
    ["$id: ID! without variables", "query($id: ID!) { vehicle(id: $id) { id } }", undefined],
  ];

  test.each(uncoercible)("a variable that cannot be coerced (%s): 400 under graphql-response+json, BAD_USER_INPUT", async (_name, query, variables) => {
    const response = await api.request("POST", "/graphql", { body: { query, variables }, headers: { Accept: apolloAccept } });
    expect(response.status).toBe(400);
    expect(response.headers.get("content-type")).toMatch(/^application\/graphql-response\+json/);
    expect(response.body.data ?? null).toBeNull();
    expect(graphqlErrorCode(response.body)).toBe("BAD_USER_INPUT");
  });

  test.each(uncoercible)("a variable that cannot be coerced (%s): 200 under application/json, BAD_USER_INPUT", async (_name, query, variables) => {
    const response = await api.request("POST", "/graphql", { body: { query, variables }, headers: { Accept: "application/json" } });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    expect(graphqlErrorCode(response.body)).toBe("BAD_USER_INPUT");
  });

  // Each document is new to the service (its own operation name): the first answer comes the
  // way a new document goes, the later ones the way a known one does.
  const repeated: Array<[string, string, string, Record<string, unknown> | undefined]> = [
    ['uncoercible $p: Int {"p":"x"}', "application/json", "query RepeatA($p: Int) { vehicles(perPage: $p) { meta { total } } }", { p: "x" }],
    ['uncoercible $p: Int {"p":"x"}', apolloAccept, "query RepeatB($p: Int) { vehicles(perPage: $p) { meta { total } } }", { p: "x" }],
    ["missing $id: ID!", "application/json", "query RepeatC($id: ID!) { vehicle(id: $id) { id } }", undefined],
    ["missing $id: ID!", apolloAccept, "query RepeatD($id: ID!) { vehicle(id: $id) { id } }", undefined],
    ["NOT_FOUND at execution", "application/json", 'query RepeatE { vehicle(id: "999999") { id plate } }', undefined],
    ["NOT_FOUND at execution", apolloAccept, 'query RepeatF { vehicle(id: "999999") { id plate } }', undefined],
    ["an unknown field", apolloAccept, "query RepeatG { vehicle(id: 1) { nope } }", undefined],
  ];

  test.each(repeated)("the same request (%s, Accept %s) 5 times: byte-identical answers", async (_name, accept, query, variables) => {
    const answers: Array<{ status: number; type: string | null; text: string }> = [];
    for (let i = 0; i < 5; i++) {
      const response = await api.request("POST", "/graphql", { body: { query, variables }, headers: { Accept: accept } });
      answers.push({ status: response.status, type: response.headers.get("content-type"), text: response.text });
    }
    expect(answers[0].status).toBeLessThan(500);
    graphqlErrorCode(JSON.parse(answers[0].text));
    for (const answer of answers.slice(1)) expect(answer).toEqual(answers[0]);
  });
});
