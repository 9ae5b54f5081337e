// Webhook delivery attempts against real receivers on 127.0.0.1, and the address rule that
// keeps them off loopback, private, link-local and other non-unicast addresses, at save time and
// at every connection (host names resolved by a stubbed lookup, so no test needs the network).
import http from "node:http";
import net from "node:net";
import { refusedAddress, urlRefusal, type LookupAll } from "../src/webhooks/addresses";
import { allowedHostsOf } from "../src/config/webhooks";
import { post, USER_AGENT, type OutgoingSettings } from "../src/webhooks/outgoing";

interface Receiver {
  port: number;
  url: string;
  requests: { method: string; headers: http.IncomingHttpHeaders; body: string }[];
  /** TCP connections accepted, whether or not a request followed. */
  connections: number;
}

const servers: http.Server[] = [];

afterEach(async () => {
  await Promise.all(
    servers.splice(0).map((server) => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    }),
  );
});

/** A receiver on 127.0.0.1 that records each request, then answers it with `answer`. */
async function receiver(answer: (response: http.ServerResponse) => void): Promise<Receiver> {
  const server = http.createServer();
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as net.AddressInfo).port;
  const seen: Receiver = { port, url: `http://127.0.0.1:${port}/hook`, requests: [], connections: 0 };
  server.on("connection", () => seen.connections++);
  server.on("request", (request: http.IncomingMessage, response: http.ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      seen.requests.push({ method: request.method ?? "", headers: request.headers, body: Buffer.concat(chunks).toString() });
      answer(response);
    });
  });
  return seen;
}

/** A node-style lookup (both the single and the `all` form) answering `address` for any name. */
function lookupTo(address: string): { lookup: net.LookupFunction; asked: string[] } {
  const asked: string[] = [];
  const family = net.isIP(address);
  const lookup: net.LookupFunction = (hostname, options, callback) => {
    asked.push(hostname);
    process.nextTick(() => (options.all ? callback(null, [{ address, family }]) : callback(null, address, family)));
  };
  return { lookup, asked };
}

const local: OutgoingSettings = { timeoutMs: 5000, allowedHosts: ["127.0.0.1"] };
const payload = JSON.stringify({ type: "officer.clocked_in", data: { officerId: 7 } });

describe("post", () => {
  test("a 2xx delivers the body and headers and succeeds", async () => {
    const hook = await receiver((response) => response.writeHead(200, { "content-type": "text/plain" }).end("thanks"));
    const outcome = await post(hook.url, { "webhook-id": "msg_1", "User-Agent": "theirs" }, payload, local);
    expect(outcome).toEqual({ status: 200, durationMs: expect.any(Number), error: null, retryAfterMs: null, body: "thanks" });
    expect(hook.requests).toHaveLength(1);
    const [request] = hook.requests;
    expect(request.method).toBe("POST");
    expect(request.body).toBe(payload);
    expect(request.headers["content-type"]).toBe("application/json");
    expect(request.headers["content-length"]).toBe(String(Buffer.byteLength(payload)));
    expect(request.headers["user-agent"]).toBe(USER_AGENT);
    expect(request.headers["webhook-id"]).toBe("msg_1");
  });

  test("a 500 is a failed attempt that keeps the answer", async () => {
    const hook = await receiver((response) => response.writeHead(500).end("database down"));
    const outcome = await post(hook.url, {}, payload, local);
    expect(outcome).toMatchObject({ status: 500, error: "HTTP 500", retryAfterMs: null, body: "database down" });
  });

  test.each([
    ["3", 3000],
    ["1.5", 1500],
    ["0", 0],
    ["soon", null],
    ["-5", null],
    ["Thu, 01 Jan 1970 00:00:00 GMT", 0],
  ])("Retry-After: %s reads as %p ms", async (retryAfter, expected) => {
    const hook = await receiver((response) => response.writeHead(503, { "retry-after": retryAfter }).end());
    const outcome = await post(hook.url, {}, payload, local);
    expect(outcome).toMatchObject({ status: 503, error: "HTTP 503", retryAfterMs: expected });
  });

  test("Retry-After as an HTTP-date reads as the delay until then", async () => {
    // HTTP-dates have whole seconds: 5 s ahead, cut to the second, is more than 3.5 s away.
    const at = new Date(Date.now() + 5000).toUTCString();
    const hook = await receiver((response) => response.writeHead(429, { "retry-after": at }).end());
    const outcome = await post(hook.url, {}, payload, local);
    expect(outcome.retryAfterMs).toBeGreaterThan(3500);
    expect(outcome.retryAfterMs).toBeLessThanOrEqual(5000);
  });

  test("a receiver that never answers times out after timeoutMs", async () => {
    const hook = await receiver(() => undefined);
    const outcome = await post(hook.url, {}, payload, { ...local, timeoutMs: 300 });
    expect(outcome).toMatchObject({ status: null, error: "timeout after 300 ms", retryAfterMs: null, body: "" });
    expect(outcome.durationMs).toBeGreaterThanOrEqual(290);
    expect(outcome.durationMs).toBeLessThan(1500);
    expect(hook.requests).toHaveLength(1);
  });

  test("a redirect is a failed attempt and is not followed", async () => {
    const elsewhere = await receiver((response) => response.writeHead(200).end());
    const hook = await receiver((response) => response.writeHead(302, { location: elsewhere.url }).end());
    const outcome = await post(hook.url, {}, payload, local);
    expect(outcome).toMatchObject({ status: 302, error: "HTTP 302" });
    expect(elsewhere.connections).toBe(0);
  });

  test("an endless answer is read to 4 KiB and no further", async () => {
    // The answer never ends: the attempt only comes back if reading stops at the cap.
    const hook = await receiver((response) => {
      response.writeHead(200);
      const chunk = Buffer.alloc(64 * 1024, "x");
      const pour = (): void => {
        while (!response.destroyed && response.write(chunk));
      };
      response.on("drain", pour).on("error", () => undefined);
      pour();
    });
    const outcome = await post(hook.url, {}, payload, local);
    expect(outcome).toMatchObject({ status: 200, error: null, body: "x".repeat(4096) });
    expect(outcome.durationMs).toBeLessThan(local.timeoutMs);
  });

  test("a refused connection is a failed attempt", async () => {
    const gone = await receiver(() => undefined);
    await new Promise<void>((resolve) => servers.pop()?.close(() => resolve()));
    const outcome = await post(gone.url, {}, payload, local);
    expect(outcome).toMatchObject({ status: null, error: "ECONNREFUSED", body: "" });
  });

  test("a URL that is not http(s) is a failed attempt", async () => {
    expect(await post("ftp://127.0.0.1/hook", {}, payload, local)).toMatchObject({ status: null, error: "not an http(s) URL" });
    expect(await post("not a url", {}, payload, local)).toMatchObject({ status: null, error: "not an http(s) URL" });
  });

  test("a header node cannot send is a failed attempt, not a throw", async () => {
    const hook = await receiver((response) => response.writeHead(200).end());
    const outcome = await post(hook.url, { "webhook-id": "a\r\nb" }, payload, local);
    expect(outcome).toMatchObject({ status: null, error: "ERR_INVALID_CHAR" });
    expect(hook.connections).toBe(0);
  });

  test("a loopback IP is refused without connecting unless allowed", async () => {
    const hook = await receiver((response) => response.writeHead(200).end());
    const outcome = await post(hook.url, {}, payload, { timeoutMs: 5000, allowedHosts: [] });
    expect(outcome).toMatchObject({ status: null, error: "refused: 127.0.0.1 is a loopback address", body: "" });
    expect(hook.connections).toBe(0);
  });

  test.each([
    ["10.0.0.5", "a private address"],
    ["169.254.169.254", "a link-local address"],
    ["100.64.1.1", "a carrier-grade NAT (CGNAT) address"],
    ["127.0.0.1", "a loopback address"],
    ["0.0.0.0", "an unspecified address"],
    ["::1", "a loopback address"],
    ["::ffff:127.0.0.1", "a loopback address"],
    ["fe80::1", "a link-local address"],
    ["ff02::1", "a multicast address"],
  ])("a name resolving to %s is refused at connection time: %s", async (address, reason) => {
    // 127.0.0.1, 0.0.0.0 and ::ffff:127.0.0.1 would reach the receiver if they were let through.
    const hook = await receiver((response) => response.writeHead(200).end());
    const { lookup, asked } = lookupTo(address);
    const outcome = await post(`http://hook.test:${hook.port}/hook`, {}, payload, { timeoutMs: 5000, allowedHosts: [], lookup });
    expect(outcome).toMatchObject({ status: null, error: `refused: ${address} is ${reason}` });
    expect(asked).toContain("hook.test");
    expect(hook.connections).toBe(0);
  });

  test("an allowed host name is reached through the given lookup", async () => {
    const hook = await receiver((response) => response.writeHead(204).end());
    const { lookup, asked } = lookupTo("127.0.0.1");
    const outcome = await post(`http://hook.test:${hook.port}/hook`, {}, payload, { timeoutMs: 5000, allowedHosts: ["hook.test"], lookup });
    expect(outcome).toMatchObject({ status: 204, error: null });
    expect(asked).toContain("hook.test");
    expect(hook.requests).toHaveLength(1);
  });
});

describe("allowedHostsOf", () => {
  test("reads a comma-separated list of host names", () => {
    expect(allowedHostsOf(" Hook.Internal , ,127.0.0.1,[::1],")).toEqual(["hook.internal", "127.0.0.1", "::1"]);
    expect(allowedHostsOf(undefined)).toEqual([]);
    expect(allowedHostsOf("")).toEqual([]);
  });
});

describe("refusedAddress", () => {
  test.each([
    ["8.8.8.8", null],
    ["2606:4700::1111", null],
    ["192.168.1.1", "a private address"],
    ["fc00::1", "a unique local (private) address"],
    ["::", "an unspecified address"],
    ["::ffff:10.0.0.1", "a private address"],
    // Mapped forms are refused whatever they map to, as request-filtering-agent refuses them.
    ["::ffff:8.8.8.8", "an IPv4-mapped address"],
    ["hook.test", "not an IP address"],
  ])("%s: %p", (address, reason) => {
    expect(refusedAddress(address)).toBe(reason);
  });
});

describe("urlRefusal", () => {
  const none: readonly string[] = [];
  const resolving =
    (...addresses: string[]): LookupAll =>
    async () =>
      addresses.map((address) => ({ address, family: net.isIP(address) }));
  const unresolvable: LookupAll = async () => {
    throw Object.assign(new Error("getaddrinfo ENOTFOUND"), { code: "ENOTFOUND" });
  };

  test.each([
    ["not a url", "the URL is not valid"],
    ["ftp://hooks.example.com/in", "the URL must be https"],
    ["http://hooks.example.com/in", "the URL must be https"],
    ["https://user:secret@hooks.example.com/in", "the URL must not contain a user name or password"],
    ["https://token@hooks.example.com/in", "the URL must not contain a user name or password"],
  ])("%s is refused: %s", async (url, reason) => {
    expect(await urlRefusal(url, { allowedHosts: none, lookup: resolving("93.184.215.14") })).toBe(reason);
  });

  test.each([
    ["https://127.0.0.1/in", "127.0.0.1 is a loopback address"],
    // URL reads the other IPv4 spellings as the address they are.
    ["https://2130706433/in", "127.0.0.1 is a loopback address"],
    ["https://0x7f.1/in", "127.0.0.1 is a loopback address"],
    ["https://10.1.2.3/in", "10.1.2.3 is a private address"],
    ["https://172.16.0.1/in", "172.16.0.1 is a private address"],
    ["https://192.168.0.10:8443/in", "192.168.0.10 is a private address"],
    ["https://169.254.169.254/latest", "169.254.169.254 is a link-local address"],
    ["https://100.64.1.1/in", "100.64.1.1 is a carrier-grade NAT (CGNAT) address"],
    ["https://224.0.0.1/in", "224.0.0.1 is a multicast address"],
    ["https://0.0.0.0/in", "0.0.0.0 is an unspecified address"],
    ["https://[::1]/in", "::1 is a loopback address"],
    ["https://[::]/in", ":: is an unspecified address"],
    ["https://[fe80::1]/in", "fe80::1 is a link-local address"],
    ["https://[fd12:3456::1]/in", "fd12:3456::1 is a unique local (private) address"],
    ["https://[ff02::1]/in", "ff02::1 is a multicast address"],
    // URL writes a mapped address in hex; the rule still reads it as the IPv4 address it maps.
    ["https://[::ffff:127.0.0.1]/in", "::ffff:7f00:1 is a loopback address"],
    ["https://[::ffff:10.0.0.1]/in", "::ffff:a00:1 is a private address"],
    ["https://[::ffff:93.184.215.14]/in", "::ffff:5db8:d70e is an IPv4-mapped address"],
  ])("the IP literal in %s is refused: %s", async (url, reason) => {
    expect(await urlRefusal(url, { allowedHosts: none, lookup: unresolvable })).toBe(reason);
  });

  test.each(["https://93.184.215.14/in", "https://[2606:4700::1111]/in"])("the public IP literal in %s is accepted", async (url) => {
    expect(await urlRefusal(url, { allowedHosts: none, lookup: unresolvable })).toBeNull();
  });

  test("a name is refused when any address it resolves to is", async () => {
    const lookup = resolving("93.184.215.14", "2606:4700::1111", "10.0.0.5");
    expect(await urlRefusal("https://hooks.example.com/in", { allowedHosts: none, lookup })).toBe(
      "the host resolves to 10.0.0.5, a private address",
    );
  });

  test("a name resolving to public addresses only is accepted", async () => {
    const lookup = resolving("93.184.215.14", "2606:4700::1111");
    expect(await urlRefusal("https://hooks.example.com/in", { allowedHosts: none, lookup })).toBeNull();
  });

  test("a name that does not resolve is refused", async () => {
    const refusal = "the host does not resolve";
    expect(await urlRefusal("https://nowhere.example/in", { allowedHosts: none, lookup: unresolvable })).toBe(refusal);
    expect(await urlRefusal("https://nowhere.example/in", { allowedHosts: none, lookup: resolving() })).toBe(refusal);
  });

  test("an allowed host is accepted, over http too, without resolving it", async () => {
    const allowedHosts = allowedHostsOf("hook.internal,127.0.0.1,::1");
    const lookup = jest.fn(unresolvable);
    expect(await urlRefusal("http://hook.internal:8080/in", { allowedHosts, lookup })).toBeNull();
    expect(await urlRefusal("http://127.0.0.1:3000/in", { allowedHosts, lookup })).toBeNull();
    expect(await urlRefusal("https://[::1]/in", { allowedHosts, lookup })).toBeNull();
    expect(lookup).not.toHaveBeenCalled();
    expect(await urlRefusal("ftp://hook.internal/in", { allowedHosts, lookup })).toBe("the URL must be https or http");
    expect(await urlRefusal("http://user:pw@hook.internal/in", { allowedHosts, lookup })).toBe(
      "the URL must not contain a user name or password",
    );
  });
});
