// Writes a fetch Response (Yoga's answers, GraphiQL, the public endpoints) to node's
// ServerResponse with the server adapter's public writer. REST replies and known GraphQL
// queries, the measured paths, are plain replies written by src/server/nodeRequests.ts.
import type { IncomingMessage, ServerResponse } from "node:http";
import { sendNodeResponse } from "@whatwg-node/server";
import { Response } from "@whatwg-node/fetch";

export function sendResponse(response: Response, nodeResponse: ServerResponse, nodeRequest: IncomingMessage): unknown {
  // Yoga's event streams say `Connection: keep-alive`, which would override a client's `close`:
  // node decides whether the connection stays open, from the request and its own state.
  if (response.headers.has("connection")) {
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      if (name.toLowerCase() !== "connection") headers[name] = value;
    });
    response = new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  }
  return sendNodeResponse(response, nodeResponse, nodeRequest, true);
}
