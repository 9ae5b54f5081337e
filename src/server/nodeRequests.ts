// REST requests and GraphQL requests straight from node's request to the app and its plain
// replies back, without the fetch Request, Headers and Response objects of a server adapter
// (src/rest/incoming.ts); a fetch Request is made only for Yoga and the public endpoints.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { IncomingHttp } from "./fetchIncoming";
import { errorJson, type Reply } from "../rest/responses";
import { readBody, sendsBody, type BodyBudget } from "./requestBodies";
import type { ForwardedSchemeOf } from "./forwardedScheme";

/**
 * A path of only these is its own URL pathname: nothing to encode, no dot segment. A URL keeps
 * `:` and a percent-escape as written (an identifier such as `steam%3A110000...`), but reads
 * `%2e` as a dot, so that escape is left to the URL parser (test/plainPath.test.ts).
 */
export const plainPath = /^\/(?:[\w~/:-]|%(?!2[eE])[0-9A-Fa-f]{2})*$/;

/** Host and port the client addressed; an HTTP/1.0 request may leave out Host (node refuses 1.1 without it). */
function hostOf(request: IncomingMessage): string {
  if (request.headers.host) return request.headers.host;
  const { localAddress = "localhost", localPort } = request.socket;
  return `${localAddress.includes(":") ? `[${localAddress}]` : localAddress}:${localPort}`;
}

/**
 * Clients send the same few Host headers over and over: whether each makes a URL is kept, for
 * a bounded number of short ones (this runs before the key is checked).
 */
const hostIsValid = new Map<string, boolean>();
const maxHosts = 100;
const maxKeptHostLength = 256;

function makesUrl(host: string): boolean {
  let valid = hostIsValid.get(host);
  if (valid === undefined) {
    // A host with a path or query part in it would parse, as another host.
    valid = !/[/?#@\\]/.test(host) && URL.canParse(`http://${host}/`);
    if (host.length <= maxKeptHostLength) {
      if (hostIsValid.size >= maxHosts) hostIsValid.clear();
      hostIsValid.set(host, valid);
    }
  }
  return valid;
}

/** A request whose body the app may not have read. */
export interface NodeIncoming extends IncomingHttp {
  /** Whether the request has a body the app has not read to its end. */
  bodyUnread(): boolean;
}

/**
 * The request as the app reads it, with its id; null when its target and Host make no URL.
 * `schemeOf`: whose X-Forwarded-Proto names the scheme of the URL (./forwardedScheme.ts).
 */
export function incomingOfNodeRequest(
  request: IncomingMessage,
  response: ServerResponse,
  budget: BodyBudget,
  requestId: string,
  schemeOf: ForwardedSchemeOf,
): NodeIncoming | null {
  const target = request.url ?? "/";
  // An absolute-form target (a request through a proxy) carries its own host, and scheme.
  const host = target.startsWith("/") ? hostOf(request) : null;
  if (host !== null && !makesUrl(host)) return null;
  // http, the server's own: a scheme forwarded by a trusted proxy is applied when the URL is
  // first asked for (below), so that requests that make no URL do not pay for it.
  const base = host === null ? "" : `http://${host}`;
  const queryAt = target.indexOf("?");
  const path = queryAt === -1 ? target : target.slice(0, queryAt);
  // Most paths are their own pathname; the URL is made when a handler asks for it (a page's links).
  let url: URL | undefined;
  if (host === null || !plainPath.test(path)) {
    if (!URL.canParse(base + target)) return null;
    url = new URL(base + target);
  }
  let schemeApplied = host === null;
  const urlOf = (): URL => {
    url ??= new URL(base + target);
    if (!schemeApplied) {
      schemeApplied = true;
      // The same URL as if written with https:// (an explicit :443 is then the default port and
      // left out, as the client would have written it).
      if (schemeOf(incoming.peerAddress(), incoming.header("x-forwarded-proto")) === "https") url.protocol = "https:";
    }
    return url;
  };
  let body: Promise<string | null> | undefined;
  let bodyEnded = !sendsBody(request);
  const incoming: NodeIncoming = {
    requestId,
    method: request.method ?? "GET",
    pathname: url ? url.pathname : path,
    url: urlOf,
    header(name) {
      // node keeps only the first of several Authorization lines; the others count too.
      if (name === "authorization" && request.headers.authorization !== undefined) return request.headersDistinct.authorization!.join(", ");
      const value = request.headers[name];
      return typeof value === "string" ? value : Array.isArray(value) ? value.join(", ") : null;
    },
    text: () =>
      (body ??= readBody(request, response, budget).then((text) => {
        bodyEnded = text !== null;
        return text;
      })),
    fetchRequest: (text) => fetchRequestOf(request, incoming, text),
    // node asks the kernel once per connection and keeps the answer.
    peerAddress: () => request.socket.remoteAddress,
    bodyUnread: () => !bodyEnded,
  };
  return incoming;
}

/** node's request as a fetch Request with this body, for Yoga and the public endpoints. */
function fetchRequestOf(request: IncomingMessage, incoming: IncomingHttp, body: string | null): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headersDistinct)) {
    for (const each of value ?? []) headers.append(name, each);
  }
  // The body was read (or none is passed on): the fetch Request's own framing describes it.
  headers.delete("content-length");
  headers.delete("transfer-encoding");
  headers.delete("expect");
  const method = incoming.method === "HEAD" ? "GET" : incoming.method;
  return new Request(incoming.url(), { method, headers, body: method === "GET" ? null : body });
}

export const invalidUrl = () => errorJson(400, "The request's path and Host header do not make a valid URL.");

/**
 * Head and body in one socket write, with the body's length (no chunked encoding) and the
 * request's id. Passed to writeHead with the others, not set before: node writes a head given
 * whole without first storing each header (the reply's headers are never changed: some are shared).
 */
export function writeReply(reply: Reply, response: ServerResponse, requestId: string): void {
  if (reply.body === null) {
    response.writeHead(reply.status, { ...reply.headers, "X-Request-Id": requestId }).end();
    return;
  }
  response.writeHead(reply.status, { ...reply.headers, "Content-Length": Buffer.byteLength(reply.body), "X-Request-Id": requestId }).end(reply.body);
}
