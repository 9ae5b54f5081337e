// How the HTTP server reads a request and writes the answer: REST requests are answered from
// node's request without fetch objects (src/server/nodeRequests.ts), everything else through the
// server adapter; App.fetch answers the same REST requests from a fetch Request.
import net from "node:net";
import { createApp } from "../src/server/app";
import { client, type Client } from "./support/http";
import { startService, type TestNetwork, type TestService } from "./support/service";

let service: TestService;
let network: TestNetwork;
let api: Client;
let vehicleId: number;

beforeAll(async () => {
  service = await startService();
  network = await service.network();
  api = client(service.url, network.apiKey);
  vehicleId = (await api.post("/vehicles", { plate: "RAW-1", owner: "Rita Raw" })).body.data.id;
});
afterAll(() => service.close());

interface RawAnswer {
  status: number;
  /** Header lines, lower case. */
  head: string[];
  body: string;
}

/** Sends `request` as it is written (\n becomes CRLF) and reads until the server closes. */
async function raw(request: string): Promise<RawAnswer> {
  const { hostname, port } = new URL(service.url);
  const text = await new Promise<string>((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.write(request.replace(/\n/g, "\r\n")));
    let received = "";
    socket.on("data", (chunk) => (received += chunk.toString("utf8")));
    socket.on("end", () => resolve(received));
    socket.on("error", reject);
  });
  const headEnd = text.indexOf("\r\n\r\n");
  const head = text.slice(0, headEnd).toLowerCase().split("\r\n");
  return { status: Number(head[0].split(" ")[1]), head: head.slice(1), body: text.slice(headEnd + 4) };
}

const keyLine = () => `X-API-Key: ${network.apiKey}`;

test("a REST answer declares its length (no chunked encoding) and sends the same body as to any client", async () => {
  const answer = await raw(`GET /vehicles/${vehicleId} HTTP/1.1\nHost: records.test\n${keyLine()}\nConnection: close\n\n`);
  const expected = await api.get(`/vehicles/${vehicleId}`);
  expect(answer.status).toBe(200);
  expect(answer.body).toBe(expected.text);
  expect(answer.head).toContain(`content-length: ${Buffer.byteLength(expected.text)}`);
  expect(answer.head).toContain("content-type: application/json; charset=utf-8");
  expect(answer.head.some((line) => line.startsWith("transfer-encoding"))).toBe(false);
});

test("HEAD on a REST path answers GET's status and headers without a body", async () => {
  const get = await raw(`GET /vehicles/${vehicleId} HTTP/1.1\nHost: records.test\n${keyLine()}\nConnection: close\n\n`);
  const head = await raw(`HEAD /vehicles/${vehicleId} HTTP/1.1\nHost: records.test\n${keyLine()}\nConnection: close\n\n`);
  expect(head.status).toBe(200);
  expect(head.body).toBe("");
  expect(head.head.find((line) => line.startsWith("content-length"))).toBe(get.head.find((line) => line.startsWith("content-length")));
});

test("a Host header that makes no URL is a 400 in the contract's shape, on REST, GraphQL and public paths", async () => {
  const paths = ["/vehicles", `/vehicles/${vehicleId}`, `/vehicles/%3${vehicleId}`, "/graphql", "/healthz"];
  for (const [path, host] of paths.flatMap((path) => ["bad host", "[::1", "a/b"].map((host) => [path, host]))) {
    const answer = await raw(`GET ${path} HTTP/1.1\nHost: ${host}\n${keyLine()}\nConnection: close\n\n`);
    expect({ path, status: answer.status }).toEqual({ path, status: 400 });
    expect(JSON.parse(answer.body)).toEqual({ message: "The request's path and Host header do not make a valid URL." });
  }
});

test("a page's links are built on the Host the client addressed", async () => {
  const answer = await raw(`GET /vehicles?per_page=1 HTTP/1.1\nHost: records.test:8080\n${keyLine()}\nConnection: close\n\n`);
  expect(answer.status).toBe(200);
  expect(JSON.parse(answer.body).links.first).toBe("http://records.test:8080/vehicles?per_page=1&page=1");
});

test("an absolute-form target (through a proxy) is served on its own path, and its links on its own host", async () => {
  const answer = await raw(`GET http://proxied.test/vehicles?per_page=1 HTTP/1.1\nHost: records.test\n${keyLine()}\nConnection: close\n\n`);
  expect(answer.status).toBe(200);
  expect(JSON.parse(answer.body).meta.path).toBe("http://proxied.test/vehicles");
});

test("an HTTP/1.0 request without Host is answered, its links on the address it reached", async () => {
  const { host } = new URL(service.url);
  const answer = await raw(`GET /vehicles?per_page=1 HTTP/1.0\n${keyLine()}\n\n`);
  expect(answer.status).toBe(200);
  expect(JSON.parse(answer.body).meta.path).toBe(`http://${host}/vehicles`);
});

test("paths are read as URLs read them: dot segments resolved, percent-encoding decoded in ids", async () => {
  const expected = await api.get(`/vehicles/${vehicleId}`);
  const encodedId = [...String(vehicleId)].map((digit) => `%3${digit}`).join("");
  for (const path of [`/vehicles/./${vehicleId}`, `/other/../vehicles/${vehicleId}`, `/vehicles/${encodedId}`]) {
    const answer = await raw(`GET ${path} HTTP/1.1\nHost: records.test\n${keyLine()}\nConnection: close\n\n`);
    expect({ path, status: answer.status, body: answer.body }).toEqual({ path, status: 200, body: expected.text });
  }
  const body = JSON.stringify({ query: "{ activeUsers { count } }" });
  const graphql = await raw(
    `POST /./graphql HTTP/1.1\nHost: records.test\n${keyLine()}\nContent-Type: application/json\nContent-Length: ${body.length}\nConnection: close\n\n${body}`,
  );
  expect(graphql.status).toBe(200);
  expect(JSON.parse(graphql.body)).toEqual({ data: { activeUsers: { count: 0 } } });
});

test("App.fetch answers a REST request from a fetch Request as the HTTP server does", async () => {
  const app = createApp({ db: service.db });
  const headers = { "X-API-Key": network.apiKey };
  for (const path of [`/vehicles/${vehicleId}`, "/vehicles?per_page=1&sort_field=plate", "/vehicles/999999999", "/nowhere"]) {
    const overHttp = await api.get(path);
    const fetched = await app.fetch(new Request(`${service.url}${path}`, { headers }));
    expect({ path, status: fetched.status, body: await fetched.text() }).toEqual({ path, status: overHttp.status, body: overHttp.text });
  }
  const created = await app.fetch(
    new Request(`${service.url}/vehicles`, { method: "POST", headers: { ...headers, "Content-Type": "application/json" }, body: '{"plate":"FETCH-1"}' }),
  );
  expect(created.status).toBe(201);
  expect((await api.get(`/vehicles/${((await created.json()) as { data: { id: number } }).data.id}`)).body.data.plate).toBe("FETCH-1");
});
