// The request as the app reads it (the REST layer's view, src/rest/incoming.ts, and a fetch
// Request for Yoga and the public endpoints), and how App.fetch makes one of a fetch Request.
import { maxBodyBytes } from "../config/limits";
import type { IncomingRest } from "../rest/incoming";
import { requestIdOf } from "./observability/requestId";

export interface IncomingHttp extends IncomingRest {
  /** The request's id (X-Request-Id: the client's when sane, else made; src/server/observability/requestId.ts). */
  requestId: string;
  /** The request as a fetch Request, with this body (read before by `text`) or none. */
  fetchRequest(body: string | null): Request;
  /** The socket's remote address; undefined for a fetch Request, or once the client has closed the socket. */
  peerAddress(): string | undefined;
}

export function incomingOfRequest(request: Request, url: URL): IncomingHttp {
  return {
    requestId: requestIdOf(request.headers.get("x-request-id")),
    method: request.method,
    pathname: url.pathname,
    url: () => url,
    header: (name) => request.headers.get(name),
    text: () => readLimitedText(request),
    fetchRequest: (body) =>
      body === null ? request : new Request(request.url, { method: request.method, headers: request.headers, body }),
    peerAddress: () => undefined,
  };
}

/** The body as text, or null as soon as it grows past the limit (chunked bodies included). */
async function readLimitedText(request: Request): Promise<string | null> {
  const declared = request.headers.get("content-length");
  if (Number(declared ?? 0) > maxBodyBytes) return null;
  // A declared length is enforced by the HTTP parser: such a body can be taken whole (and the
  // server has usually read it already: src/server/requestBodies.ts).
  if (declared !== null) return request.text();
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBodyBytes) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}
