// TRUSTED_PROXIES, declared once: the reverse proxies whose X-Forwarded-For is believed
// (src/server/observability/clientAddress.ts walks it), and X-Forwarded-Proto
// (src/server/forwardedScheme.ts). The settings reader (./env.ts) and the
// README's configuration table (a test compares them: test/requestLog.test.ts) take it from here.
// Addresses are read strictly (node's net.isIP: dotted decimal, no `127.1` or octal forms that
// ipaddr.js would also take) and compared as ipaddr.js ranges; an IPv4-mapped IPv6 address is its
// IPv4 address, on both sides, so `::ffff:127.0.0.1` from a dual-stack socket is 127.0.0.1.
import net from "node:net";
import ipaddr from "ipaddr.js";

export const proxySpecs = {
  trustedProxies: {
    env: "TRUSTED_PROXIES",
    shown: "empty",
    meaning:
      "reverse proxies whose `X-Forwarded-For` and `X-Forwarded-Proto` are believed, so that the request log shows the client behind them, and a page's links the scheme it used: IP addresses or CIDR ranges, comma-separated, `loopback` for 127.0.0.0/8 and ::1; empty: the connection's peer is the client",
  },
} as const;

export type Address = ipaddr.IPv4 | ipaddr.IPv6;
/** An address range: its first address (any address of it, in fact) and the length of its prefix. */
export type AddressRange = readonly [Address, number];
/** The trusted proxies' ranges; empty: none. */
export type TrustedProxies = readonly AddressRange[];

export const noTrustedProxies: TrustedProxies = [];

/** `loopback`: the proxy on the same host, whichever of its addresses it connects from. */
const loopbackRanges = ["127.0.0.0/8", "::1/128"];

/**
 * The address this text writes as written, or null. net.isIP decides what is one; ipaddr.js,
 * another parser, could still refuse it: then it is none, never an exception over a client's text.
 */
function parsedAddress(text: string): Address | null {
  if (net.isIP(text) === 0) return null;
  try {
    return ipaddr.parse(text);
  } catch {
    return null;
  }
}

/**
 * The address this text writes, IPv4-mapped IPv6 as IPv4, or null. A zone (`fe80::1%eth0`) names
 * an interface of the host that wrote it, nothing here: left out (ipaddr.js reads few of them).
 */
export function addressOf(text: string): Address | null {
  const percent = text.indexOf("%");
  const address = parsedAddress(percent === -1 ? text : text.slice(0, percent));
  if (address?.kind() === "ipv6" && (address as ipaddr.IPv6).isIPv4MappedAddress()) return (address as ipaddr.IPv6).toIPv4Address();
  return address;
}

/** The range an entry writes (an address is a range of one), or null when it writes none (a zone neither). */
function rangeOf(entry: string): AddressRange | null {
  const slash = entry.indexOf("/");
  const text = slash === -1 ? entry : entry.slice(0, slash);
  const address = text.includes("%") ? null : parsedAddress(text);
  if (!address) return null;
  const bits = address.kind() === "ipv4" ? 32 : 128;
  const prefixText = slash === -1 ? String(bits) : entry.slice(slash + 1);
  const prefix = Number(prefixText);
  if (!/^\d{1,3}$/.test(prefixText) || prefix > bits) return null;
  // An IPv4-mapped address or range (::ffff:10.0.0.0/104) holds IPv4 addresses, which peers and
  // entries are compared as.
  if (address.kind() === "ipv6" && (address as ipaddr.IPv6).isIPv4MappedAddress() && prefix >= 96) {
    return [(address as ipaddr.IPv6).toIPv4Address(), prefix - 96];
  }
  return [address, prefix];
}

/** TRUSTED_PROXIES' ranges; an entry that is no address, range or `loopback` fails the start. */
export function trustedProxiesOf(text: string | undefined): TrustedProxies {
  const ranges: AddressRange[] = [];
  for (const written of (text ?? "").split(",")) {
    const entry = written.trim();
    if (entry === "") continue;
    const entries = entry.toLowerCase() === "loopback" ? loopbackRanges : [entry];
    for (const each of entries) {
      const range = rangeOf(each);
      if (!range) {
        throw new Error(`${proxySpecs.trustedProxies.env} must be IP addresses or CIDR ranges (or loopback), comma-separated; "${entry}" is none of them.`);
      }
      ranges.push(range);
    }
  }
  return ranges;
}

export const readTrustedProxies = (env: NodeJS.ProcessEnv): TrustedProxies => trustedProxiesOf(env[proxySpecs.trustedProxies.env]);

/** Whether the address is one of the trusted proxies (ipaddr.js compares only addresses of one kind). */
export function isTrusted(proxies: TrustedProxies, address: Address): boolean {
  const kind = address.kind();
  for (const [first, prefix] of proxies) {
    if (first.kind() === kind && (address as ipaddr.IPv4).match(first as ipaddr.IPv4, prefix)) return true;
  }
  return false;
}
