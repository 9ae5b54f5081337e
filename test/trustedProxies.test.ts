// TRUSTED_PROXIES (issue 39, item 3): the request log shows the client's address, read from
// X-Forwarded-For only when the socket's peer is a trusted proxy, from the right, past the
// proxies that are trusted; garbage ends the walk; the work is bounded whatever is sent. The
// metrics count how each address was known, never the address.
import http from "node:http";
import { readSettings } from "../src/config/env";
import { proxySpecs, trustedProxiesOf } from "../src/config/proxies";
import { clientAddresses, maxForwardedChars, maxForwardedEntries, type ClientAddress } from "../src/server/observability/clientAddress";
import { serviceMetrics } from "../src/server/observability/metrics";
import { forwardedSchemes, type Scheme } from "../src/server/forwardedScheme";
import { startService } from "./support/service";
import { captureLog } from "./support/logCapture";
import { subscribeSse } from "./support/eventStream";

describe("the setting", () => {
  test("empty by default: nobody is trusted", () => {
    expect(readSettings({}).trustedProxies).toEqual([]);
    expect(readSettings({ TRUSTED_PROXIES: " , " }).trustedProxies).toEqual([]);
  });

  test("addresses, CIDR ranges of either family and `loopback`, comma-separated", () => {
    const ranges = readSettings({ TRUSTED_PROXIES: "loopback, 10.0.0.0/8,192.0.2.7 , 2001:db8::/32, ::ffff:198.51.100.0/120" }).trustedProxies;
    expect(ranges.map(([first, prefix]) => `${first.toString()}/${prefix}`)).toEqual([
      "127.0.0.0/8",
      "::1/128",
      "10.0.0.0/8",
      "192.0.2.7/32",
      "2001:db8::/32",
      // An IPv4-mapped range holds IPv4 addresses, which peers and entries are compared as.
      "198.51.100.0/24",
    ]);
    expect(readSettings({ TRUSTED_PROXIES: "LOOPBACK" }).trustedProxies).toHaveLength(2);
  });

  test.each(["localhost", "10.0.0.0/33", "fe80::/129", "10.0.0.0/", "/8", "10.0.0.0/8/8", "10.0.0.0/-1", "127.1", "0x7f.0.0.1", "1.2.3.4:80", "[::1]", "10.0.0.1 10.0.0.2", "fe80::1%eth0", "*"])(
    "%j makes the start fail, naming the setting and the entry",
    (entry) => {
      expect(() => readSettings({ TRUSTED_PROXIES: `127.0.0.1, ${entry}` })).toThrow(`${proxySpecs.trustedProxies.env} must be IP addresses or CIDR ranges (or loopback), comma-separated; "${entry}" is none of them.`);
    },
  );
});

describe("the client's address", () => {
  const trusted = trustedProxiesOf("loopback, 10.0.0.0/8, 2001:db8:1::/48");
  const clientAddressOf = clientAddresses(trusted);
  const direct = (client: string | undefined): ClientAddress => ({ client, proxy: undefined, source: "direct" });
  const ignored = (client: string | undefined): ClientAddress => ({ client, proxy: undefined, source: "untrusted_forwarded" });
  const through = (client: string, proxy = "127.0.0.1"): ClientAddress => ({ client, proxy, source: "trusted_proxy" });

  test.each<[string, string | undefined, string | null, ClientAddress]>([
    ["no header: the peer", "203.0.113.5", null, direct("203.0.113.5")],
    ["no header from a trusted peer: the peer", "127.0.0.1", null, direct("127.0.0.1")],
    ["an IPv4-mapped peer as IPv4", "::ffff:203.0.113.5", null, direct("203.0.113.5")],
    ["an IPv6 peer", "2001:db8:9::5", null, direct("2001:db8:9::5")],
    ["a header from an untrusted peer is ignored", "203.0.113.5", "198.51.100.1", ignored("203.0.113.5")],
    ["from a peer in no trusted range, IPv6", "2001:db8:2::1", "198.51.100.1", ignored("2001:db8:2::1")],
    ["no peer known (not from a socket)", undefined, "198.51.100.1", ignored(undefined)],
    ["no peer, no header", undefined, null, direct(undefined)],
    ["through a trusted proxy", "127.0.0.1", "198.51.100.1", through("198.51.100.1")],
    ["through another loopback address", "127.0.0.53", "198.51.100.1", through("198.51.100.1", "127.0.0.53")],
    ["through an IPv4-mapped trusted peer", "::ffff:127.0.0.1", "198.51.100.1", through("198.51.100.1")],
    ["through ::1, an IPv6 client", "::1", "2001:db8:2::5", through("2001:db8:2::5", "::1")],
    ["through a trusted CIDR", "10.20.30.40", "198.51.100.1", through("198.51.100.1", "10.20.30.40")],
    ["a client's own entry left of the proxy's is not believed", "127.0.0.1", "6.6.6.6, 198.51.100.1", through("198.51.100.1")],
    ["a client pretending to be a trusted proxy", "127.0.0.1", "10.0.0.1, 198.51.100.1", through("198.51.100.1")],
    ["past trusted proxies of a chain", "127.0.0.1", "6.6.6.6, 198.51.100.1, 10.1.2.3, 2001:db8:1::9", through("198.51.100.1")],
    ["past a trusted IPv6 range to an IPv6 client", "::1", "2001:db8:2::9, 2001:db8:1:ffff::1", through("2001:db8:2::9", "::1")],
    ["every entry trusted: the leftmost", "127.0.0.1", "10.0.0.1, 10.0.0.2", through("10.0.0.1")],
    ["entries as written in other forms, shown canonical", "127.0.0.1", "2001:DB8:2:0:0:0:0:1", through("2001:db8:2::1")],
    ["an IPv4-mapped entry as IPv4, trusted as such", "127.0.0.1", "198.51.100.1, ::ffff:10.0.0.1", through("198.51.100.1")],
    ["a zone is left out, even one ipaddr.js cannot read", "127.0.0.1", "fe80::1%eth-0", through("fe80::1")],
    ["lines joined, spaces and tabs around entries", "127.0.0.1", " 6.6.6.6 ,\t198.51.100.1 ", through("198.51.100.1")],
    ["`unknown` nearest: the proxy itself", "127.0.0.1", "198.51.100.1, unknown", through("127.0.0.1")],
    ["garbage past a trusted hop: that hop", "127.0.0.1", "198.51.100.1, <script>, 10.0.0.2", through("10.0.0.2")],
    ["an empty entry stops the walk", "127.0.0.1", "198.51.100.1,", through("127.0.0.1")],
    ["an empty header", "127.0.0.1", "", through("127.0.0.1")],
    ["a port is no address", "127.0.0.1", "198.51.100.1:5678", through("127.0.0.1")],
    ["a bracketed IPv6 with a port is no address", "127.0.0.1", "[2001:db8:2::1]:80", through("127.0.0.1")],
    ["ipaddr.js's lenient forms are no address: `127.1` is not trusted 127.0.0.1", "127.0.0.1", "198.51.100.1, 127.1", through("127.0.0.1")],
    ["nobody trusted: the header is ignored, not parsed", "127.0.0.1", "198.51.100.1", ignored("127.0.0.1")],
  ])("%s", (_name, peer, forwardedFor, expected) => {
    const of = _name.startsWith("nobody trusted") ? clientAddresses([]) : clientAddressOf;
    expect(of(peer, forwardedFor)).toEqual(expected);
    // Read again: the same, from what was kept of the first reading.
    expect(of(peer, forwardedFor)).toEqual(expected);
  });

  test("a huge header: only its end is read", () => {
    // A client's megabyte of addresses left of the proxy's: the address the proxy added is found.
    expect(clientAddressOf("127.0.0.1", `${"6.6.6.6, ".repeat(100_000)}198.51.100.1`)).toEqual(through("198.51.100.1"));
    // One entry of garbage as long as node lets a header be: the proxy.
    expect(clientAddressOf("127.0.0.1", "9".repeat(16_000))).toEqual(through("127.0.0.1"));
    // Trusted entries without end: the walk stops after maxForwardedEntries, at a trusted one.
    const trustedChain = Array.from({ length: 1_000 }, (_, i) => `10.0.${Math.floor(i / 250)}.${i % 250}`);
    expect(clientAddressOf("127.0.0.1", trustedChain.join(", "))).toEqual(through(trustedChain[trustedChain.length - maxForwardedEntries]));
  });

  test("many different clients: each is named, past the bound of readings kept", () => {
    for (let i = 0; i < 3_000; i += 1) {
      const client = `198.51.${Math.floor(i / 250)}.${i % 250}`;
      expect(clientAddressOf("127.0.0.1", `${client}, 10.0.0.1`)).toEqual(through(client));
    }
  });

  test("a header cut at the bound: what is left of the cut is never believed", () => {
    // The cut falls after the first character of 11.1.1.1: the 1.1.1.1 it leaves was never sent.
    const padding = " ".repeat(maxForwardedChars + 1 - "11.1.1.1,".length - "10.0.0.1".length);
    const header = `11.1.1.1,${padding}10.0.0.1`;
    expect(header).toHaveLength(maxForwardedChars + 1);
    expect(clientAddressOf("127.0.0.1", header)).toEqual(through("10.0.0.1"));
    // One character shorter, nothing is cut: the whole entry is read.
    expect(clientAddressOf("127.0.0.1", header.slice(1))).toEqual(through("1.1.1.1"));
  });
});

describe("through the HTTP server", () => {
  /** GET /healthz from 127.0.0.1 with these X-Forwarded-For lines (several: as several header lines); the answer's request id. */
  async function send(url: string, forwardedFor: string[] | null): Promise<string> {
    return new Promise((resolve, reject) => {
      const headers: http.OutgoingHttpHeaders = forwardedFor === null ? {} : { "X-Forwarded-For": forwardedFor };
      http
        .get(`${url}/healthz`, { headers }, (response) => {
          response.resume();
          response.on("end", () => resolve(String(response.headers["x-request-id"])));
        })
        .on("error", reject);
    });
  }

  test("TRUSTED_PROXIES unset: a forged X-Forwarded-For from 127.0.0.1 is ignored, and counted as such", async () => {
    const captured = captureLog();
    const metrics = serviceMetrics();
    const service = await startService({ log: captured.log, metrics });
    try {
      const forged = await send(service.url, ["198.51.100.1"]);
      const plain = await send(service.url, null);
      expect(captured.lineOf(forged)).toMatchObject({ clientAddress: "127.0.0.1", route: "/healthz", status: 200 });
      expect(captured.lineOf(forged)).not.toHaveProperty("proxyAddress");
      expect(captured.lineOf(plain)).toMatchObject({ clientAddress: "127.0.0.1" });
      const scraped = await metrics.registry.metrics();
      expect(scraped).toContain('vrd_http_requests_by_client_address_source_total{source="untrusted_forwarded"} 1\n');
      expect(scraped).toContain('vrd_http_requests_by_client_address_source_total{source="direct"} 1\n');
      expect(scraped).toContain('vrd_http_requests_by_client_address_source_total{source="trusted_proxy"} 0\n');
      expect(captured.text()).not.toContain("198.51.100.1");
    } finally {
      await service.close();
    }
  });

  test("TRUSTED_PROXIES=127.0.0.1: the forwarded client, past a client's own entry, whether on one line or several; counted, the address never a label", async () => {
    const captured = captureLog();
    const metrics = serviceMetrics();
    const service = await startService({ log: captured.log, metrics, trustedProxies: trustedProxiesOf("127.0.0.1") });
    try {
      const forwarded = await send(service.url, ["198.51.100.1"]);
      const chain = await send(service.url, ["6.6.6.6, 198.51.100.2"]);
      const lines = await send(service.url, ["6.6.6.6", "198.51.100.3"]);
      const garbage = await send(service.url, ["198.51.100.4, unknown"]);
      const plain = await send(service.url, null);
      expect(captured.lineOf(forwarded)).toMatchObject({ clientAddress: "198.51.100.1", proxyAddress: "127.0.0.1" });
      expect(captured.lineOf(chain)).toMatchObject({ clientAddress: "198.51.100.2", proxyAddress: "127.0.0.1" });
      expect(captured.lineOf(lines)).toMatchObject({ clientAddress: "198.51.100.3", proxyAddress: "127.0.0.1" });
      expect(captured.lineOf(garbage)).toMatchObject({ clientAddress: "127.0.0.1", proxyAddress: "127.0.0.1" });
      expect(captured.lineOf(plain)).toMatchObject({ clientAddress: "127.0.0.1" });
      expect(captured.lineOf(plain)).not.toHaveProperty("proxyAddress");
      expect(captured.text()).not.toContain("6.6.6.6");
      expect(captured.text()).not.toContain("unknown");
      // The fields' place in the line: after the answer's, before the key's.
      expect(Object.keys(captured.lineOf(forwarded))).toEqual(["level", "time", "pid", "hostname", "requestId", "method", "route", "status", "durationMs", "clientAddress", "proxyAddress"]);
      const scraped = await metrics.registry.metrics();
      expect(scraped).toContain('vrd_http_requests_by_client_address_source_total{source="trusted_proxy"} 4\n');
      expect(scraped).toContain('vrd_http_requests_by_client_address_source_total{source="direct"} 1\n');
      expect(scraped).toContain('vrd_http_requests_by_client_address_source_total{source="untrusted_forwarded"} 0\n');
      expect(scraped).not.toContain("198.51.100");
    } finally {
      await service.close();
    }
  });

  test("an SSE subscription's line names the client", async () => {
    const captured = captureLog();
    const service = await startService({ log: captured.log, trustedProxies: trustedProxiesOf("loopback") });
    try {
      const { apiKey } = await service.network();
      const sse = await subscribeSse(service.url, apiKey, "subscription { events { sequence } }", {}, { "X-Forwarded-For": "198.51.100.5", "X-Request-Id": "sse-proxied" });
      expect(sse.status).toBe(200);
      sse.close();
      expect(captured.lineOf("sse-proxied")).toMatchObject({ route: "/graphql", status: 200, clientAddress: "198.51.100.5", proxyAddress: "127.0.0.1" });
    } finally {
      await service.close();
    }
  });
});

describe("the scheme of a page's links: X-Forwarded-Proto from a trusted proxy", () => {
  const schemeOf = forwardedSchemes(trustedProxiesOf("loopback, 10.0.0.0/8"));

  test.each<[string, string | undefined, string | null, Scheme | null]>([
    ["https from a trusted proxy", "127.0.0.1", "https", "https"],
    ["http from a trusted proxy", "127.0.0.1", "http", "http"],
    ["in any case, spaces around", "10.1.2.3", " HTTPS ", "https"],
    ["from an IPv4-mapped trusted peer", "::ffff:127.0.0.1", "https", "https"],
    ["from ::1", "::1", "https", "https"],
    ["several values: the rightmost, the trusted peer's own", "127.0.0.1", "https, http", "http"],
    ["several values, https rightmost", "127.0.0.1", "http,https", "https"],
    ["from a peer not trusted: ignored", "203.0.113.5", "https", null],
    ["no peer known: ignored", undefined, "https", null],
    ["no header", "127.0.0.1", null, null],
    ["empty", "127.0.0.1", "", null],
    ["an empty rightmost value", "127.0.0.1", "https,", null],
    ["another scheme", "127.0.0.1", "wss", null],
    ["a URL, not a scheme", "127.0.0.1", "https://attacker.example", null],
    ["a scheme with more after it", "127.0.0.1", "httpss", null],
    ["a long value", "127.0.0.1", "h".repeat(16_000), null],
  ])("%s", (_name, peer, forwardedProto, expected) => {
    expect(schemeOf(peer, forwardedProto)).toBe(expected);
    // Again: the same, from the peer's trust as kept.
    expect(schemeOf(peer, forwardedProto)).toBe(expected);
  });

  test("nobody trusted: the header is never believed", () => {
    expect(forwardedSchemes([])("127.0.0.1", "https")).toBeNull();
  });

  /** GET /vehicles?search=x from 127.0.0.1 with Host records.test and these headers: the page's first link and meta.path. */
  async function pageUrls(url: string, apiKey: string, headers: http.OutgoingHttpHeaders): Promise<{ first: string; path: string }> {
    return new Promise((resolve, reject) => {
      http
        .get(`${url}/vehicles?search=x`, { headers: { Host: "records.test", "X-API-Key": apiKey, Accept: "application/json", ...headers } }, (response) => {
          let text = "";
          response.setEncoding("utf8").on("data", (chunk: string) => (text += chunk));
          response.on("end", () => {
            const body = JSON.parse(text) as { links: { first: string }; meta: { path: string } };
            resolve({ first: body.links.first, path: body.meta.path });
          });
        })
        .on("error", reject);
    });
  }

  test("through the HTTP server: https links only when a trusted proxy says https", async () => {
    const https = { first: "https://records.test/vehicles?search=x&page=1", path: "https://records.test/vehicles" };
    const plain = { first: "http://records.test/vehicles?search=x&page=1", path: "http://records.test/vehicles" };
    const behindProxy = await startService({ trustedProxies: trustedProxiesOf("127.0.0.1") });
    try {
      const { apiKey } = await behindProxy.network();
      expect(await pageUrls(behindProxy.url, apiKey, { "X-Forwarded-Proto": "https" })).toEqual(https);
      expect(await pageUrls(behindProxy.url, apiKey, { "X-Forwarded-Proto": "HTTPS" })).toEqual(https);
      // The default port of https is left out, as the client wrote its URL.
      expect(await pageUrls(behindProxy.url, apiKey, { "X-Forwarded-Proto": "https", Host: "records.test:443" })).toEqual(https);
      expect(await pageUrls(behindProxy.url, apiKey, { "X-Forwarded-Proto": "http" })).toEqual(plain);
      expect(await pageUrls(behindProxy.url, apiKey, { "X-Forwarded-Proto": "https://attacker.example" })).toEqual(plain);
      expect(await pageUrls(behindProxy.url, apiKey, {})).toEqual(plain);
    } finally {
      await behindProxy.close();
    }
    const direct = await startService();
    try {
      const { apiKey } = await direct.network();
      expect(await pageUrls(direct.url, apiKey, { "X-Forwarded-Proto": "https" })).toEqual(plain);
    } finally {
      await direct.close();
    }
  });
});
