// Browsers, where a key says so (CONTRACT: Keys, scopes and origins). A key lists
// the origins whose pages may use it; a request of such a key from another origin is refused
// (403), and an answer to one from a listed origin says so to the browser
// (Access-Control-Allow-Origin, Vary: Origin). A key without origins never gets CORS headers, so
// no page of another origin can read with it. A request without an Origin header is not a
// browser's cross-origin request: it passes (a client that is no browser can send any Origin it
// likes, so refusing it would protect nothing, and the service's own /dashboard sends none on GET).
//
// A preflight (OPTIONS with Access-Control-Request-Method) carries no key: it is answered from
// the origins every valid key lists, read from the database at most once a second and only when
// keys may have changed (the epoch of src/db/store.ts' KeyChanges), so strangers' preflights
// cost a set look-up, never a statement each.
import type { ApiKeyStore, KeyChanges } from "../db/store";
import type { KeyScope } from "../context";
import type { Reply } from "../rest/responses";
import { corsAllowedHeaders, corsMaxAgeSeconds } from "../rest/corsHeaders";
import { isReply, type Answer } from "./answer";

/** Origins are read again at most this often (ms), whatever the writes. */
const rereadAfterMs = 1_000;

/** Whether the request is a CORS preflight. */
export const isPreflight = (method: string, header: (name: string) => string | null) =>
  method === "OPTIONS" && header("access-control-request-method") !== null;

/**
 * The origins that keys valid when they were read list: read again when keys may have changed
 * (the epoch moved, or there is none), at most once a second.
 */
export function listedOrigins(keys: Pick<ApiKeyStore, "listedOrigins">, changes: KeyChanges | null) {
  let origins = new Set<string>();
  let readAt = -Infinity;
  let readAtEpoch: number | null = null;
  let reading: Promise<Set<string>> | null = null;

  return async (now: Date): Promise<Set<string>> => {
    const epoch = changes?.epoch() ?? null;
    const fresh = epoch !== null && epoch === readAtEpoch;
    if (fresh || performance.now() - readAt < rereadAfterMs) return origins;
    reading ??= keys
      .listedOrigins(now)
      .then((read) => {
        origins = read;
        readAt = performance.now();
        readAtEpoch = epoch;
        return read;
      })
      .finally(() => (reading = null));
    return reading;
  };
}

/** The answer to a preflight from a listed origin, for a path answering these methods. */
export function preflightReply(origin: string, methods: readonly string[]): Reply {
  return {
    status: 204,
    headers: {
      "Access-Control-Allow-Origin": origin,
      "Access-Control-Allow-Methods": methods.join(", "),
      "Access-Control-Allow-Headers": corsAllowedHeaders,
      "Access-Control-Max-Age": String(corsMaxAgeSeconds),
      Vary: "Origin",
    },
    body: null,
  };
}

/** Whether a request's Origin may use the key: no Origin header, or one the key lists (a key without origins lists none). */
export const originAllowed = (key: KeyScope, origin: string | null) => origin === null || key.origins.length === 0 || key.origins.includes(origin);

/** The answer, with the CORS headers a listed origin gets; as it is for every other request. */
export function withCors<A extends Answer>(answer: A, key: KeyScope, origin: string | null): A {
  if (origin === null || !key.origins.includes(origin)) return answer;
  if (isReply(answer)) return { ...answer, headers: { ...answer.headers, "Access-Control-Allow-Origin": origin, Vary: "Origin" } };
  answer.headers.set("Access-Control-Allow-Origin", origin);
  answer.headers.append("Vary", "Origin");
  return answer;
}
