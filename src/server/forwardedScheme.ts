// The scheme the client used, for the absolute URLs the service writes: a REST page's links and
// meta.path (src/rest/laravelPage.ts), built from the request's URL (./nodeRequests.ts). This
// server speaks plain HTTP; behind a reverse proxy that ends TLS (nginx, Caddy) the client used
// https, which only the proxy's X-Forwarded-Proto tells. It is believed only from a socket peer in
// TRUSTED_PROXIES (src/config/proxies.ts), as X-Forwarded-For is
// (./observability/clientAddress.ts): anyone else could have the service write links to a scheme
// of their choosing.
//
// Only `http` and `https` are read, in any case. With several values (proxies in a chain that each
// append, or several header lines, which node joins with commas) the rightmost is read: the one
// the trusted peer itself wrote, about the connection it received; values left of it come from
// hops not vouched for. nginx (`proxy_set_header X-Forwarded-Proto $scheme`) and Caddy replace the
// header, so there is one value. Anything else (empty, `wss`, garbage) is ignored: the
// connection's own scheme stays.
import { addressOf, isTrusted, type TrustedProxies } from "../config/proxies";

export type Scheme = "http" | "https";

/**
 * The scheme a request from `peer` (the socket's remote address) carrying this X-Forwarded-Proto
 * (null: none) was made with, when that header is believed; null: the connection's own.
 */
export type ForwardedSchemeOf = (peer: string | undefined, forwardedProto: string | null) => Scheme | null;

/** Peers whose trust is kept at most: the proxies, few; forgotten all at once when full. */
const maxKeptPeers = 100;

export function forwardedSchemes(trusted: TrustedProxies): ForwardedSchemeOf {
  if (trusted.length === 0) return () => null;
  // Behind a proxy every request comes from the same few peers: parsing one costs ipaddr.js
  // about a microsecond, a Map lookup much less.
  const peerTrusted = new Map<string, boolean>();
  function isTrustedPeer(peer: string): boolean {
    let trustedPeer = peerTrusted.get(peer);
    if (trustedPeer === undefined) {
      const address = addressOf(peer);
      trustedPeer = address !== null && isTrusted(trusted, address);
      if (peerTrusted.size >= maxKeptPeers) peerTrusted.clear();
      peerTrusted.set(peer, trustedPeer);
    }
    return trustedPeer;
  }

  return (peer, forwardedProto) => {
    if (forwardedProto === null || peer === undefined) return null;
    const value = forwardedProto.slice(forwardedProto.lastIndexOf(",") + 1).trim();
    // Checked before lower-casing: a value of any length costs no more than its comma search.
    if (value.length > "https".length) return null;
    const scheme = value.toLowerCase();
    if (scheme !== "http" && scheme !== "https") return null;
    return isTrustedPeer(peer) ? scheme : null;
  };
}
