// Serves the app on node:http, and stops gracefully: stop accepting, finish requests in
// flight, then let the caller close the database.
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import { createServerAdapter } from "@whatwg-node/server";
import type { App } from "./app";
import { readBodyFirst } from "./requestBodies";
import { sendResponse } from "./sendResponse";
import { fetchRequestOf, incomingOfNodeRequest, invalidUrl, writeReply } from "./nodeRequests";
import { logInternalError } from "../publicError";

export interface RunningServer {
  url: string;
  close(): Promise<void>;
}

export async function listen(app: App, port: number, host: string): Promise<RunningServer> {
  const adapter = createServerAdapter((request: Request) => app.fetch(request));

  /**
   * REST paths and known GraphQL queries are answered from node's request as it is; other
   * GraphQL requests and the public endpoints through fetch.
   */
  async function answer(request: IncomingMessage, response: ServerResponse): Promise<unknown> {
    const incoming = incomingOfNodeRequest(request);
    if (!incoming) return writeReply(invalidUrl(), response);
    if (app.isRestPath(incoming.pathname)) return writeReply(await app.rest(incoming), response);
    if (incoming.pathname === "/graphql") {
      const reply = await app.knownQuery(incoming, (body) => fetchRequestOf(request, incoming, body));
      if (reply) return writeReply(reply, response);
    }
    return sendResponse(await adapter.handleNodeRequestAndResponse(request, response), response, request);
  }

  const server = http.createServer((request, response) => {
    readBodyFirst(request)
      .then(
        () => answer(request, response),
        // The client went away while sending; nobody is left to answer.
        () => request.destroy(),
      )
      // The app answers every error itself (500 JSON); this is the adapter or the socket failing.
      .catch((error: unknown) => {
        logInternalError(error);
        if (response.headersSent) return void response.destroy();
        response.writeHead(500, { "content-type": "application/json; charset=utf-8" }).end('{"message":"Server Error."}');
      });
  });
  // Longer than the idle timeout of common load balancers and HTTP clients (60 s), so a client
  // never reuses a connection at the moment the server closes it ("other side closed").
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address();
  const boundPort = typeof address === "object" && address ? address.port : port;
  const shownHost = host.includes(":") ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${boundPort}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        // Idle keep-alive connections would hold close() open; requests in flight still finish.
        server.closeIdleConnections();
      }),
  };
}
