// Serves the app on node:http with the connection limits of src/config/limits.ts, answers node's
// own protocol errors in the contract's shape, and stops gracefully: stop accepting, finish
// requests in flight, then let the caller close the database.
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { isReply, type Answer, type App } from "./app";
import type { Reply } from "../rest/responses";
import { answerThenDiscard, bodyBudget } from "./requestBodies";
import { sendResponse } from "./sendResponse";
import { incomingOfNodeRequest, invalidUrl, writeReply } from "./nodeRequests";
import { logInternalError } from "../publicError";
import { defaultLimits, type Limits } from "../config/limits";
import { requestIdHeader, requestIdOf } from "./observability/requestId";
import { forwardedSchemes } from "./forwardedScheme";
import { noTrustedProxies, type TrustedProxies } from "../config/proxies";

/** How often a closing server closes the connections that have become idle since. */
const idleCloseIntervalMs = 50;

export interface RunningServer {
  url: string;
  close(): Promise<void>;
}

export type ConnectionLimits = Pick<
  Limits,
  "httpHeadersTimeoutMs" | "httpRequestTimeoutMs" | "httpKeepAliveTimeoutMs" | "httpMaxConnections" | "maxBodyBytesInFlight"
>;

/** node's protocol errors (`clientError`), by the status node itself would answer. */
function clientErrorStatus(code: string | undefined): number {
  if (code === "HPE_HEADER_OVERFLOW") return 431;
  if (code === "ERR_HTTP_REQUEST_TIMEOUT") return 408;
  return 400;
}

const clientErrorMessages: Record<number, string> = {
  400: "The request is not valid HTTP.",
  408: "The request was not received in time.",
  431: "The request's headers are too large.",
};

/** A Response as a plain reply (the app's Responses are small JSON or HTML pages). */
async function replyOf(response: Response): Promise<Reply> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    if (name !== "content-length") headers[name] = value;
  });
  return { status: response.status, headers, body: await response.text() };
}

/**
 * `trustedProxies`: TRUSTED_PROXIES (src/config/proxies.ts), whose X-Forwarded-Proto gives the
 * scheme of the URLs the answers write; none: nobody's (the app takes them too, for the log).
 */
export async function listen(
  app: App,
  port: number,
  host: string,
  limits: ConnectionLimits = defaultLimits,
  trustedProxies: TrustedProxies = noTrustedProxies,
): Promise<RunningServer> {
  const budget = bodyBudget(limits.maxBodyBytesInFlight);
  const schemeOf = forwardedSchemes(trustedProxies);
  /**
   * The answer last begun on a socket: a protocol error in its body is answered through it
   * while it is under way (not yet finished). Replaced by the socket's next request's, gone with
   * the socket: no listener per response to forget it.
   */
  const answering = new WeakMap<Socket, ServerResponse>();

  async function send(answer: Answer, request: IncomingMessage, response: ServerResponse, bodyUnread: boolean, requestId: string): Promise<unknown> {
    // Answered already: a protocol error in the request's body (clientError below).
    if (response.headersSent) return;
    if (isReply(answer) && !bodyUnread) return writeReply(answer, response, requestId);
    response.setHeader(requestIdHeader, requestId);
    if (bodyUnread) return answerThenDiscard(request, response, isReply(answer) ? answer : await replyOf(answer));
    return sendResponse(answer as Response, response, request);
  }

  async function answer(request: IncomingMessage, response: ServerResponse, requestId: string): Promise<unknown> {
    const incoming = incomingOfNodeRequest(request, response, budget, requestId, schemeOf);
    if (!incoming) {
      return send(invalidUrl(), request, response, request.headers["content-length"] !== undefined || request.headers["transfer-encoding"] !== undefined, requestId);
    }
    const answered = await app.handle(incoming);
    return send(answered, request, response, incoming.bodyUnread(), requestId);
  }

  const onRequest = (request: IncomingMessage, response: ServerResponse) => {
    answering.set(request.socket, response);
    const requestId = requestIdOf(request.headers["x-request-id"]);
    answer(request, response, requestId).catch((error: unknown) => {
      // The app answers every error itself; this is the socket or a Response's stream failing.
      logInternalError(error);
      if (response.headersSent) return void response.destroy();
      response.writeHead(500, { "content-type": "application/json; charset=utf-8", [requestIdHeader]: requestId }).end('{"message":"Server Error."}');
    });
  };

  const server = http.createServer(
    {
      headersTimeout: limits.httpHeadersTimeoutMs,
      requestTimeout: limits.httpRequestTimeoutMs,
      // How often node checks those two: its default (30 s) would let them run that much longer.
      connectionsCheckingInterval: 1_000,
    },
    onRequest,
  );
  // With this listener node sends no `100 Continue` by itself: the body is asked for only once
  // the key is admitted (src/server/requestBodies.ts).
  server.on("checkContinue", onRequest);
  // GraphQL over WebSocket (src/server/webSocket.ts); upgraded sockets still count in maxConnections.
  server.on("upgrade", (request, socket, head) => app.upgrade(request, socket, head));
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Socket) => {
    if (error.code === "ECONNRESET" || !socket.writable) return void socket.destroy();
    const status = clientErrorStatus(error.code);
    const body = JSON.stringify({ message: clientErrorMessages[status] });
    const headers = { "Content-Type": "application/json; charset=utf-8", "Content-Length": Buffer.byteLength(body), Connection: "close" };
    // In a request's body (a bad chunk): the request's own response answers, unless it has begun,
    // with the request's id when the client sent a sane one (a made one was not kept: a new one).
    const answered = answering.get(socket);
    const response = answered?.writableFinished ? undefined : answered;
    if (response) {
      if (response.headersSent) return void socket.destroy();
      const requestId = response.getHeader(requestIdHeader) ?? requestIdOf(response.req.headers["x-request-id"]);
      response.writeHead(status, { ...headers, [requestIdHeader]: requestId }).end(body, () => socket.destroy());
      return;
    }
    // No request was read: an id of its own, for the client to quote.
    socket.end(
      `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\n` +
        `${Object.entries({ ...headers, [requestIdHeader]: requestIdOf(null) }).map(([name, value]) => `${name}: ${value}`).join("\r\n")}\r\n\r\n${body}`,
    );
  });
  server.keepAliveTimeout = limits.httpKeepAliveTimeoutMs;
  server.maxConnections = limits.httpMaxConnections;
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
        // Idle keep-alive connections would hold close() open until HTTP_KEEP_ALIVE_TIMEOUT_MS;
        // requests in flight still finish. A connection also becomes idle later, when its
        // request ends: an ended subscription's, or one in flight (a proxy keeps its connections
        // to the service alive), so they are closed again until the server has closed.
        const closingIdle = setInterval(() => server.closeIdleConnections(), idleCloseIntervalMs);
        server.close((error) => {
          clearInterval(closingIdle);
          if (error) reject(error);
          else resolve();
        });
        app.endSubscriptions();
        server.closeIdleConnections();
      }),
  };
}
