// The connection limits (HTTP_* and MAX_BODY_BYTES_IN_FLIGHT), set small so that a test reaches
// them: slow headers and idle connections are closed, more connections than allowed are not
// served, bodies beyond the budget in flight are refused with 503, and an upload answered before
// it ended is drained only so far.
import net from "node:net";
import { startService, type TestNetwork, type TestService } from "./support/service";

let service: TestService;
let network: TestNetwork;
beforeAll(async () => {
  service = await startService({
    limits: { httpHeadersTimeoutMs: 500, httpRequestTimeoutMs: 1_000, httpKeepAliveTimeoutMs: 300, httpMaxConnections: 20, maxBodyBytesInFlight: 100 },
  });
  network = await service.network();
});
afterAll(() => service.close());

/** A raw connection: what it received, and whether and when the server closed it. */
function connect() {
  const { hostname, port } = new URL(service.url);
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

test("a request whose body never ends is answered 408 once the request timeout passes", async () => {
  const { socket, state, closed } = connect();
  socket.write(`POST /vehicles HTTP/1.1\r\nHost: records.test\r\nX-API-Key: ${network.apiKey}\r\nContent-Type: application/json\r\nContent-Length: 50\r\n\r\n{"plate":`);
  expect(await closed(5_000)).toBe(true);
  expect(state.received).toMatch(/^HTTP\/1\.1 408 /);
  expect(Date.now() - state.openedAt).toBeLessThan(4_000);
});
