// Which addresses a webhook may reach: the one place of the rule, used when a webhook is saved
// (urlRefusal) and to word refusals at connection time. The connection-time check itself is
// request-filtering-agent's, and this rule makes the same decision as it does: an address is
// refused unless ipaddr.js ranks it "unicast", so loopback, private, link-local, CGNAT,
// multicast, unspecified, reserved and the IPv6 transition ranges (IPv4-mapped included) are all
// refused. The ranges are ipaddr.js's, never a table of ours.
import dns from "node:dns";
import net from "node:net";
import ipaddr from "ipaddr.js";
import type { LookupAll } from "../config/webhooks";

export type { LookupAll };

const lookupAll: LookupAll = (host) => dns.promises.lookup(host, { all: true });

/** Whether a URL's hostname (as URL gives it: lowercase, IPv6 bracketed) is allowed by name. */
export function isAllowedHost(hostname: string, allowedHosts: readonly string[]): boolean {
  return allowedHosts.includes(unbracketed(hostname));
}

/** Why an address may not be reached, as "a loopback address", or null when it may. */
export function refusedAddress(address: string): string | null {
  if (net.isIP(address) === 0) return "not an IP address";
  if (ipaddr.parse(address).range() === "unicast") return null;
  // Decided on the address as written (as the agent decides); worded on its IPv4 reading, so
  // ::ffff:127.0.0.1 is "a loopback address" and ::ffff:8.8.8.8 stays refused as IPv4-mapped.
  const processed = ipaddr.process(address).range();
  const range = processed === "unicast" ? "ipv4Mapped" : processed;
  const words = range.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
  return `${RANGE_WORDS[range] ?? `${/^[aeiou]/.test(words) ? "an" : "a"} ${words}`} address`;
}

// Readable names, article included, of the ipaddr.js ranges whose own names read badly; any
// other range is shown as its name split into words ("an unspecified", "a loopback").
const RANGE_WORDS: Readonly<Partial<Record<string, string>>> = {
  linkLocal: "a link-local",
  carrierGradeNat: "a carrier-grade NAT (CGNAT)",
  uniqueLocal: "a unique local (private)",
  ipv4Mapped: "an IPv4-mapped",
};

/**
 * Why a webhook URL may not be saved (the reason a 422 shows), or null when it may: it must
 * parse, be https (http only to an allowed host), carry no user name or password, and its host
 * must be allowed by name or be, or resolve only to, addresses refusedAddress accepts. Resolving
 * here is a courtesy to the admin; the agent checks again at every connection, which is what
 * stops a name that resolves differently later.
 */
export async function urlRefusal(
  url: string,
  opts: { allowedHosts: readonly string[]; lookup?: LookupAll },
): Promise<string | null> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "the URL is not valid";
  }
  const allowed = isAllowedHost(parsed.hostname, opts.allowedHosts);
  if (parsed.protocol !== "https:" && !(allowed && parsed.protocol === "http:")) {
    return allowed ? "the URL must be https or http" : "the URL must be https";
  }
  if (parsed.username !== "" || parsed.password !== "") return "the URL must not contain a user name or password";
  if (allowed) return null;

  const host = unbracketed(parsed.hostname);
  if (net.isIP(host) !== 0) {
    const reason = refusedAddress(host);
    return reason === null ? null : `${host} is ${reason}`;
  }
  let addresses: { address: string }[];
  try {
    addresses = await (opts.lookup ?? lookupAll)(host);
  } catch {
    return "the host does not resolve";
  }
  if (addresses.length === 0) return "the host does not resolve";
  for (const { address } of addresses) {
    const reason = refusedAddress(address);
    if (reason !== null) return `the host resolves to ${address}, ${reason}`;
  }
  return null;
}

function unbracketed(host: string): string {
  return host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
}
