// The connection limits (HTTP_* and MAX_BODY_BYTES_IN_FLIGHT), set small so that a test reaches
// them: slow headers and idle connections are closed, more connections than allowed are not
// served, bodies beyond the budget in flight are refused with 503, and an upload answered before
// it ended is drained only so far; an upload the client drops gives its bytes back.
import net from "node:net";
import { startService, type TestNetwork, type TestService } from "./support/service";
import { captureLog } from "./support/logCapture";
import { listen } from "../src/server/httpServer";
import { defaultLimits } from "../src/config/limits";
import { RequestBodyError } from "../src/server/requestBodies";
import type { App } from "../src/server/app";

let service: TestService;
let network: TestNetwork;
const captured = captureLog();
beforeAll(async () => {
  service = await startService({
    log: captured.log,
    limits: { httpHeadersTimeoutMs: 500, httpRequestTimeoutMs: 1_000, httpKeepAliveTimeoutMs: 300, httpMaxConnections: 20, maxBodyBytesInFlight: 100 },
  });
  network = await service.network();
});
afterAll(() => service.close());

/** A raw connection: what it received, and whether and when the server closed it. */
function connect(url = service.url) {
  const { hostname, port } = new URL(url);
  const socket = net.connect(Number(port), hostname);
  const state = { received: "", closedAt: null as number | null, openedAt: Date.now() };
  socket.on("data", (chunk) => (state.received += chunk.toString("utf8")));
  socket.on("close", () => (state.closedAt = Date.now()));
  socket.on("error", () => undefined);
  const closed = (ms: number) =>
    new Promise<boolean>((resolve) => {
      if (state.closedAt !== null) return resolve(true);
      const timer = setTimeout(() => resolve(false), ms);
      socket.once("close", () => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  return { socket, state, closed };
}

test("headers not complete in time: 408 with the contract's JSON body, and the connection closed", async () => {
  const { socket, state, closed } = connect();
  socket.write("GET /vehicles HTTP/1.1\r\nHost: records.test\r\n");
  expect(await closed(5_000)).toBe(true);
  expect(state.received).toMatch(/^HTTP\/1\.1 408 /);
  expect(state.received).toMatch(/content-type: application\/json/i);
  expect(JSON.parse(state.received.slice(state.received.indexOf("\r\n\r\n") + 4))).toEqual({ message: expect.any(String) });
});

test("an idle connection is closed after the keep-alive timeout", async () => {
  const { socket, state, closed } = connect();
  socket.write(`GET /statistics/missions/total HTTP/1.1\r\nHost: records.test\r\nX-API-Key: ${network.apiKey}\r\n\r\n`);
  expect(await closed(5_000)).toBe(true);
  expect(state.received).toMatch(/^HTTP\/1\.1 200 /);
});

test("connections past the maximum are closed at once", async () => {
  const held = Array.from({ length: 25 }, () => connect());
  await new Promise((resolve) => setTimeout(resolve, 200));
  const refusedAtOnce = held.filter(({ state }) => state.closedAt !== null).length;
  expect(refusedAtOnce).toBeGreaterThanOrEqual(5);
  for (const { socket } of held) socket.destroy();
  // The server counts a connection until it has seen it close.
  await new Promise((resolve) => setTimeout(resolve, 300));
});

test("a body beyond the bytes in flight is refused with 503 and Retry-After; a small one is read", async () => {
  const send = async (body: string) => {
    const response = await fetch(`${service.url}/vehicles`, {
      method: "POST",
      headers: { "X-API-Key": network.apiKey, "Content-Type": "application/json" },
      body,
    });
    return { status: response.status, retryAfter: response.headers.get("retry-after"), body: await response.json() };
  };
  expect(await send(JSON.stringify({ plate: "BUDGET-1", comment: "x".repeat(200) }))).toEqual({
    status: 503,
    retryAfter: "1",
    body: { message: expect.any(String) },
  });
  expect((await send(JSON.stringify({ plate: "BUDGET-2" }))).status).toBe(201);
});

/** The head of a POST /vehicles declaring 80 bytes, and 9 of them. */
const partialUpload = (requestId: string, key: string) =>
  `POST /vehicles HTTP/1.1\r\nHost: records.test\r\nX-API-Key: ${key}\r\nX-Request-Id: ${requestId}\r\n` +
  `Content-Type: application/json\r\nContent-Length: 80\r\n\r\n{"plate":`;

describe("an upload the client drops halfway gives its share of the budget back", () => {
  /** Declares 80 of the 100 bytes in flight, sends part of them, and drops the connection after `ms`. */
  async function dropUpload(requestId: string, ms: number) {
    const { socket, closed } = connect();
    // Destroyed only once the kernel has it: a write still waiting for the connection is dropped.
    await new Promise((resolve) => socket.write(partialUpload(requestId, network.apiKey), resolve));
    if (ms > 0) await new Promise((resolve) => setTimeout(resolve, ms));
    socket.destroy();
    await closed(1_000);
  }

  /** A small POST /vehicles: 201 only if the bytes of the dropped uploads came back (80 + 30 > 100). */
  async function postSmall(plate: string) {
    const response = await fetch(`${service.url}/vehicles`, {
      method: "POST",
      headers: { "X-API-Key": network.apiKey, "Content-Type": "application/json" },
      body: JSON.stringify({ plate }),
    });
    await response.text();
    return response.status;
  }

  /** Resolves once the request's line is written, or after 2 s (then lineOf throws, showing the log). */
  async function lineOf(requestId: string) {
    for (let waited = 0; waited < 2_000 && !captured.lines().some((line) => line.requestId === requestId); waited += 20) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return captured.lineOf(requestId);
  }

  test.each([
    ["while its body is being read", 200],
    ["as soon as it is sent", 0],
  ])("dropped %s: the next uploads are read, and the request is logged", async (_when, ms) => {
    for (let i = 0; i < 3; i += 1) {
      const requestId = `dropped-${ms}-${i}`;
      await dropUpload(requestId, ms);
      expect(await lineOf(requestId)).toMatchObject({ method: "POST", route: "/vehicles", status: 400 });
      expect(await postSmall(`DROP-${ms}-${i}`)).toBe(201);
    }
  });
});

test("an upload dropped before the app asks for its body (a slow key check) is refused at once, taking nothing", async () => {
  // An app that asks for each body only after 300 ms, by which time this client has left; it
  // tells how each read ended.
  const reads: Record<string, string> = {};
  const app: App = {
    async handle(incoming) {
      await new Promise((resolve) => setTimeout(resolve, 300));
      reads[incoming.requestId] = await incoming.text().then(
        (text) => `read ${text?.length} bytes`,
        (error: unknown) => (error instanceof RequestBodyError ? `refused ${error.reply.status}` : String(error)),
      );
      return { status: 200, headers: {}, body: "{}" };
    },
    fetch: () => Promise.reject(new Error("not served")),
    endSubscriptions: () => undefined,
    upgrade: (_request, socket) => socket.destroy(),
  };
  const server = await listen(app, 0, "127.0.0.1", { ...defaultLimits, maxBodyBytesInFlight: 100 });
  try {
    for (const requestId of ["gone-1", "gone-2"]) {
      const { socket, closed } = connect(server.url);
      await new Promise((resolve) => socket.write(partialUpload(requestId, "any"), resolve));
      socket.destroy();
      await closed(1_000);
    }
    const response = await fetch(`${server.url}/vehicles`, { method: "POST", headers: { "X-Request-Id": "after" }, body: "x".repeat(80) });
    expect(response.status).toBe(200);
    expect(reads).toEqual({ "gone-1": "refused 400", "gone-2": "refused 400", after: "read 80 bytes" });
  } finally {
    await server.close();
  }
});

test("a request whose body never ends is answered 408 once the request timeout passes", async () => {
  const { socket, state, closed } = connect();
  socket.write(`POST /vehicles HTTP/1.1\r\nHost: records.test\r\nX-API-Key: ${network.apiKey}\r\nContent-Type: application/json\r\nContent-Length: 50\r\n\r\n{"plate":`);
  expect(await closed(5_000)).toBe(true);
  expect(state.received).toMatch(/^HTTP\/1\.1 408 /);
  expect(Date.now() - state.openedAt).toBeLessThan(4_000);
});
