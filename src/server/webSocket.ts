// Subscriptions (and other operations) over WebSocket: the graphql-transport-ws protocol at
// /graphql, served by graphql-ws on a `ws` server that takes over the HTTP server's upgrades.
// The key comes in the connection's first message (`connectionParams`: {"X-API-Key": "..."} or
// {"Authorization": "Bearer ..."}) and is admitted as an HTTP request's would be (origins, rate
// limit); a connection that is not admitted within its init timeout is closed, and until then
// it holds only its socket and a bounded first message. Every operation runs through the guarded
// execute and subscribe functions, in the admitted key's network.
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { WebSocketServer } from "ws";
import { useServer } from "graphql-ws/use/ws";
import { GraphQLError, getOperationAST, validate, type ExecutionArgs, type ExecutionResult, type GraphQLSchema } from "graphql";
import { maskedError } from "./graphql";
import { ErrorCode } from "../errors";
import type { Context, KeyScope, NetworkScope } from "../context";
import type { Execute } from "./guardedExecute";
import type { Subscribe } from "./guardedSubscribe";
import type { OperationLimitsCheck } from "./operationLimits";

/** The protocol's subprotocol name: a WebSocket asking for another is refused. */
const graphqlTransportWs = "graphql-transport-ws";

/** The largest message a client may send (a subscription document with its variables). */
const maxMessageBytes = 64 * 1024;
/** A connection must send its key (connection_init) within this. */
const initTimeoutMs = 3_000;

export interface WebSocketDependencies {
  schema: GraphQLSchema;
  limits: OperationLimitsCheck;
  execute: Execute;
  subscribe: Subscribe;
  heartbeatMs: number;
  /** Admits the key the connection's parameters carry, as an HTTP request's headers would. */
  admit(header: (name: string) => string | null): Promise<{ network: NetworkScope; key: KeyScope } | { refusal: GraphQLError }>;
  contextOf(network: NetworkScope, key: KeyScope): Context;
}

export interface WebSockets {
  /** Takes over an HTTP upgrade to /graphql; any other is refused. */
  upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void;
  /** Closes every connection (their subscriptions end). */
  close(): Promise<void>;
}

/** A header of the connection: from its parameters (the key), else from the upgrade request (Origin). */
function headersOf(params: Readonly<Record<string, unknown>> | undefined, request: IncomingMessage) {
  const byName = new Map<string, string>();
  for (const [name, value] of Object.entries(params ?? {})) if (typeof value === "string") byName.set(name.toLowerCase(), value);
  return (name: string): string | null => {
    if (name === "x-api-key" || name === "authorization") return byName.get(name) ?? null;
    const value = request.headers[name];
    return typeof value === "string" ? value : null;
  };
}

/** How long a stopping server waits for a WebSocket peer to answer its close frame. */
const closingHandshakeMs = 1000;

/** A refusal's close code: 4401 and 4403 are the protocol's; 4429 and 1013 say "retry later". */
function closeCodeOf(refusal: GraphQLError): number {
  const code = refusal.extensions.code;
  if (code === ErrorCode.FORBIDDEN) return 4403;
  if (code === ErrorCode.RATE_LIMITED) return 4429;
  if (code === ErrorCode.UNAVAILABLE) return 1013;
  return 4401;
}

/** The result with its errors as a client may see them (./graphql.ts maskedError). */
function masked(result: ExecutionResult): ExecutionResult {
  if (!result.errors?.length) return result;
  return { ...result, errors: result.errors.map((error) => maskedError(error) as GraphQLError) };
}

export function webSockets(deps: WebSocketDependencies): WebSockets {
  const server = new WebSocketServer({ noServer: true, maxPayload: maxMessageBytes, handleProtocols: (protocols) => (protocols.has(graphqlTransportWs) ? graphqlTransportWs : false) });
  const disposable = useServer<Record<string, unknown>, { header?: (name: string) => string | null }>(
    {
      connectionInitWaitTimeout: initTimeoutMs,
      async onConnect(ctx) {
        const header = headersOf(ctx.connectionParams, ctx.extra.request);
        const admitted = await deps.admit(header);
        if ("refusal" in admitted) {
          ctx.extra.socket.close(closeCodeOf(admitted.refusal), admitted.refusal.message);
          return false;
        }
        ctx.extra.header = header;
        return true;
      },
      async onSubscribe(ctx, _id, payload): Promise<ExecutionArgs | readonly GraphQLError[]> {
        // Each operation is admitted as a request is: a key revoked since the connection began,
        // or over its rate limit, is refused (and a revoked key's connection closed).
        const admitted = await deps.admit(ctx.extra.header!);
        if ("refusal" in admitted) {
          if (admitted.refusal.extensions.code !== ErrorCode.RATE_LIMITED) ctx.extra.socket.close(closeCodeOf(admitted.refusal), admitted.refusal.message);
          return [admitted.refusal];
        }
        let document;
        try {
          document = deps.limits.parse(payload.query);
        } catch (error) {
          return [error instanceof GraphQLError ? error : new GraphQLError(String(error))];
        }
        const errors = validate(deps.schema, document);
        if (errors.length > 0) return errors;
        if (!getOperationAST(document, payload.operationName)) return [new GraphQLError("No operation of this name in the document.")];
        return {
          schema: deps.schema,
          document,
          operationName: payload.operationName,
          variableValues: payload.variables,
          contextValue: deps.contextOf(admitted.network, admitted.key),
        };
      },
      execute: (args) => deps.execute(args) as ReturnType<Execute> & Promise<never>,
      subscribe: (args) => deps.subscribe(args) as never,
      onNext: (_ctx, _id, _payload, _args, result) => masked(result),
    },
    server,
    deps.heartbeatMs,
  );
  return {
    upgrade(request, socket, head) {
      const path = (request.url ?? "").split("?")[0];
      if (path !== "/graphql") {
        socket.end("HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n");
        return;
      }
      server.handleUpgrade(request, socket, head, (webSocket) => server.emit("connection", webSocket, request));
    },
    async close() {
      for (const client of server.clients) client.close(1001, "Going away");
      // A peer that does not answer the closing handshake (gone, or a proxy still holding the
      // tunnel of a client that is) would hold a stopping server for ws's 30 s: it is cut.
      const cut = setTimeout(() => {
        for (const client of server.clients) client.terminate();
      }, closingHandshakeMs).unref();
      await disposable.dispose();
      if (server.clients.size === 0) clearTimeout(cut);
    },
  };
}
