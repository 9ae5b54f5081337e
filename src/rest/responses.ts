// JSON replies in the contract's shapes, as plain values. The HTTP server writes a REST reply
// straight to node's response (src/server/nodeRequests.ts); `toResponse` makes a fetch Response
// of one where the app speaks fetch (GraphQL, the public endpoints, `App.fetch`).
import type { FieldErrors } from "../errors";
import { Response } from "@whatwg-node/fetch";

export interface Reply {
  status: number;
  headers: Record<string, string>;
  /** JSON text; null for no body (204). */
  body: string | null;
}

const jsonType = "application/json; charset=utf-8";

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Reply {
  return jsonText(status, JSON.stringify(body), headers);
}

/** A body that is JSON text already. */
export function jsonText(status: number, text: string, headers?: Record<string, string>): Reply {
  return { status, headers: headers ? { "Content-Type": jsonType, ...headers } : { "Content-Type": jsonType }, body: text };
}

export function errorJson(status: number, message: string, headers: Record<string, string> = {}): Reply {
  return json(status, { message }, headers);
}

/** 405 for a method a path does not answer, with the methods it does in `Allow`. */
export function methodNotAllowed(method: string, allowed: readonly string[]): Reply {
  const allow = allowed.join(", ");
  return errorJson(405, `The ${method} method is not supported for this route. Supported: ${allow}.`, { Allow: allow });
}

/** The methods of the pages and documents anyone may fetch (/healthz, /docs, /dashboard, ...): HEAD answers as GET. */
export const fetchMethods = ["GET", "HEAD"] as const;

/**
 * The 405 of such a page asked with another method; null for GET and HEAD. Decided from the
 * method's name alone, before anything is built from the request: fetch's Request refuses
 * methods such as TRACE, which node's server passes on.
 */
export const onlyFetchMethods = (method: string): Reply | null =>
  (fetchMethods as readonly string[]).includes(method) ? null : methodNotAllowed(method, fetchMethods);

export function validationJson(message: string, errors: FieldErrors): Reply {
  return json(422, { message, errors });
}

export const noContent = (): Reply => ({ status: 204, headers: {}, body: null });

/**
 * A reply as a fetch Response, built with the server adapter's fetch implementation (it writes
 * a string body straight to the socket; the platform's would wrap it in a web stream).
 */
export function toResponse(reply: Reply): Response {
  return new Response(reply.body, { status: reply.status, headers: reply.headers });
}
