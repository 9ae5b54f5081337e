// Whose request it is: the client's address for the request log, and how it was known for the
// metrics (TRUSTED_PROXIES: src/config/proxies.ts). The socket's peer is the client, unless it
// is a trusted proxy: then X-Forwarded-For is read from the right, where each proxy appends the
// address it received the request from, past the proxies that are themselves trusted; the first
// address that is not is the client. Everything left of it was written by someone we do not
// trust (a client may send its own X-Forwarded-For, which a proxy keeps and appends to), so it is
// never read. An entry that is no IP address (`unknown`, a port suffix, garbage) ends the walk:
// the client is then the last address believed, a trusted proxy, never the text.
//
// Worked out only when a line is written or a request counted (./requestObserver.ts), and
// bounded whatever is sent: the header is read only when the peer is trusted, and then only its
// last maxForwardedChars characters and maxForwardedEntries entries.
import net from "node:net";
import { addressOf, isTrusted, type TrustedProxies } from "../../config/proxies";

/**
 * How the client's address was known; a metrics label, so a bounded set:
 * - `direct`: no X-Forwarded-For, the peer is the client;
 * - `trusted_proxy`: through a trusted proxy, from its X-Forwarded-For;
 * - `untrusted_forwarded`: an X-Forwarded-For from a peer that is not trusted, ignored (a
 *   TRUSTED_PROXIES that misses the proxy, or a client pretending to be someone else).
 */
export type ClientAddressSource = "direct" | "trusted_proxy" | "untrusted_forwarded";
export const clientAddressSources: readonly ClientAddressSource[] = ["direct", "trusted_proxy", "untrusted_forwarded"];

export interface ClientAddress {
  /** The client's address; undefined when the peer is not known (a request not read from a socket). */
  client: string | undefined;
  /** The trusted proxy the request came through (the socket's peer), when it did. */
  proxy: string | undefined;
  source: ClientAddressSource;
}

/** Characters of X-Forwarded-For read, from its end: twenty IPv6 hops fit, and nothing a client adds beyond. */
export const maxForwardedChars = 1024;
/** Entries read, from the right: more trusted proxies in a row than this is no deployment. */
export const maxForwardedEntries = 20;

/** Addresses whose reading is kept at most (clientAddresses below). */
const maxKeptReadings = 1_000;
/** Longer texts are no address (an IPv6 address with a zone is at most ~60 characters): not kept. */
const maxKeptLength = 64;

const ipv4Mapped = "::ffff:";

/** The socket's peer as the line shows it: IPv4-mapped IPv6 (a dual-stack listener's) as IPv4. */
function peerText(peer: string): string {
  return peer.startsWith(ipv4Mapped) && net.isIPv4(peer.slice(ipv4Mapped.length)) ? peer.slice(ipv4Mapped.length) : peer;
}

/** An address as read: as the line shows it, and whether it is a trusted proxy's. */
interface Reading {
  text: string;
  trusted: boolean;
}

/**
 * The client of a request from `peer` (the socket's remote address) that carries this
 * X-Forwarded-For (every line of it, joined by commas; null: none), with these proxies trusted.
 */
export type ClientAddressOf = (peer: string | undefined, forwardedFor: string | null) => ClientAddress;

export function clientAddresses(trusted: TrustedProxies): ClientAddressOf {
  // ipaddr.js takes 0.3 to 1 us to parse an address and as much to write an IPv6 one, several
  // times a log line's cost; behind a proxy the same peer and mostly the same clients come again.
  // What each text reads as is kept, for a bounded number of them (all forgotten when full).
  const readings = new Map<string, Reading | null>();
  function read(text: string): Reading | null {
    let reading = readings.get(text);
    if (reading !== undefined) return reading;
    const address = addressOf(text);
    reading = address && { text: address.toString(), trusted: isTrusted(trusted, address) };
    if (text.length <= maxKeptLength) {
      if (readings.size >= maxKeptReadings) readings.clear();
      readings.set(text, reading);
    }
    return reading;
  }

  return (peer, forwardedFor) => {
    const client = peer === undefined ? undefined : peerText(peer);
    if (forwardedFor === null) return { client, proxy: undefined, source: "direct" };
    if (peer === undefined || trusted.length === 0 || !read(peer)?.trusted) return { client, proxy: undefined, source: "untrusted_forwarded" };

    // A header longer than the bound is cut: what is left of the cut may be a piece of an entry,
    // so it is never believed (the walk stops there as at garbage).
    const cut = forwardedFor.length > maxForwardedChars;
    const header = cut ? forwardedFor.slice(-maxForwardedChars) : forwardedFor;
    let believed = client;
    let end = header.length;
    for (let entries = 0; entries < maxForwardedEntries; entries += 1) {
      const comma = header.lastIndexOf(",", end - 1);
      if (comma === -1 && cut) break;
      const reading = read(header.slice(comma + 1, end).trim());
      if (!reading) break;
      believed = reading.text;
      if (!reading.trusted || comma === -1) break;
      end = comma;
    }
    return { client: believed, proxy: client, source: "trusted_proxy" };
  };
}
