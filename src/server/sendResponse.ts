// Writes a fetch Response to node's ServerResponse. A body that is a string (every JSON answer
// of the app: src/rest/responses.ts) goes out with its head in one socket write, as
// `end(body)`; the adapter's own writer sends `write(body)` then `end()`, which corks the socket
// and flushes head and body as a writev at the next tick (~15 us more per small request).
// Anything else (streams, empty bodies, HEAD) is left to the adapter's writer.
import type { IncomingMessage, ServerResponse } from "node:http";
import { sendNodeResponse } from "@whatwg-node/server";
import { Response } from "@whatwg-node/fetch";

/** @whatwg-node/fetch's Response keeps a string body as it was given (its own writer reads it so). */
interface PonyfillResponse extends Response {
  bodyType?: string;
  bodyInit?: unknown;
}

export function sendResponse(response: PonyfillResponse, nodeResponse: ServerResponse, nodeRequest: IncomingMessage): unknown {
  const body = response.bodyInit;
  if (response.bodyType !== "String" || typeof body !== "string" || nodeResponse.headersSent) {
    // Yoga's event streams say `Connection: keep-alive`, which would override a client's `close`.
    if (response.headers.has("connection")) {
      const headers: Record<string, string> = {};
      response.headers.forEach((value, name) => name.toLowerCase() !== "connection" && (headers[name] = value));
      response = new Response(response.body, { status: response.status, statusText: response.statusText, headers });
    }
    return sendNodeResponse(response, nodeResponse, nodeRequest, true);
  }
  const headers: Record<string, string> = {};
  // node decides whether the connection stays open, from the request and its own state.
  response.headers.forEach((value, name) => name.toLowerCase() !== "connection" && (headers[name] = value));
  nodeResponse.writeHead(response.status, response.statusText, headers);
  nodeResponse.end(body);
  return undefined;
}
