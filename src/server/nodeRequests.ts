// REST requests and known GraphQL queries straight from node's request to the app's plain
// replies and back, without the fetch Request, Headers and Response objects of the server
// adapter (src/rest/incoming.ts).
import type { IncomingMessage, ServerResponse } from "node:http";
import type { IncomingRest } from "../rest/incoming";
import { maxBodyBytes } from "../rest/requestBody";
import { errorJson, type Reply } from "../rest/responses";

/** node's request once src/server/requestBodies.ts has read its body. */
type NodeRequestWithBody = IncomingMessage & { body?: Buffer };

/** A path of only these characters is its own URL pathname: nothing to encode, no dot segments. */
const plainPath = /^\/[\w~/-]*$/;

/** Host and port the client addressed; an HTTP/1.0 request may leave out Host (node refuses 1.1 without it). */
function hostOf(request: IncomingMessage): string {
  if (request.headers.host) return request.headers.host;
  const { localAddress = "localhost", localPort } = request.socket;
  return `${localAddress.includes(":") ? `[${localAddress}]` : localAddress}:${localPort}`;
}

/** Clients send the same few Host headers over and over: whether each makes a URL is kept. */
const hostIsValid = new Map<string, boolean>();
const maxHosts = 100;

function makesUrl(host: string): boolean {
  let valid = hostIsValid.get(host);
  if (valid === undefined) {
    if (hostIsValid.size >= maxHosts) hostIsValid.clear();
    // A host with a path or query part in it would parse, as another host.
    hostIsValid.set(host, (valid = !/[/?#@\\]/.test(host) && URL.canParse(`http://${host}/`)));
  }
  return valid;
}

/** The request as the REST layer reads it; null when its target and Host make no URL. */
export function incomingOfNodeRequest(request: NodeRequestWithBody): IncomingRest | null {
  const target = request.url ?? "/";
  // An absolute-form target (a request through a proxy) carries its own host.
  const host = target.startsWith("/") ? hostOf(request) : null;
  if (host !== null && !makesUrl(host)) return null;
  const base = host === null ? "" : `http://${host}`;
  const queryAt = target.indexOf("?");
  const path = queryAt === -1 ? target : target.slice(0, queryAt);
  // Most paths are their own pathname; the URL is made when a handler asks for it (a page's links).
  let url: URL | undefined;
  if (host === null || !plainPath.test(path)) {
    if (!URL.canParse(base + target)) return null;
    url = new URL(base + target);
  }
  return {
    method: request.method ?? "GET",
    pathname: url ? url.pathname : path,
    url: () => (url ??= new URL(base + target)),
    header(name) {
      const value = request.headers[name];
      return typeof value === "string" ? value : Array.isArray(value) ? value.join(", ") : null;
    },
    async text() {
      if (Number(request.headers["content-length"] ?? 0) > maxBodyBytes) return null;
      return request.body?.toString("utf8") ?? "";
    },
  };
}

/** node's request as a fetch Request with its body, for Yoga (src/server/app.ts `knownQuery`). */
export function fetchRequestOf(request: IncomingMessage, incoming: IncomingRest, body: string): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    for (const each of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, each);
  }
  return new Request(incoming.url(), { method: incoming.method, headers, body });
}

export const invalidUrl = () => errorJson(400, "The request's path and Host header do not make a valid URL.");

/** Head and body in one socket write, with the body's length (no chunked encoding). */
export function writeReply(reply: Reply, response: ServerResponse): void {
  if (reply.body === null) {
    response.writeHead(reply.status, reply.headers).end();
    return;
  }
  response.writeHead(reply.status, { ...reply.headers, "Content-Length": Buffer.byteLength(reply.body) }).end(reply.body);
}
