// The whole HTTP application as a function of its dependencies: public endpoints, GraphQL at
// /graphql, and the REST routes of the interface specification. Every non-public request needs
// a valid API key, and nothing of a request but its method, path and headers is looked at
// before the key is admitted: its body is read after (src/rest/incoming.ts). REST requests and
// GraphQL queries validated before (src/server/knownQueries.ts) are answered with plain
// replies; other GraphQL requests and the public endpoints through fetch Requests and
// Responses. The HTTP server passes requests in from node's request
// (src/server/nodeRequests.ts), App.fetch from a fetch Request. Each request's record (route
// template, network, key prefix, operation, refusal: src/server/observability/requestRecord.ts)
// is filled in on the way and logged and counted once the answer is ready.
import type { GraphQLError } from "graphql";
import type { Database } from "../db/client";
import type { KeyScope, NetworkScope } from "../context";
import { schema } from "../schema";
import { defaultLimits, maxJsonDepth, type Limits } from "../config/limits";
import { apiKeyFromHeaders, looksLikeApiKey, type StoredKey } from "../resolvers/apiKeys";
import { admittedKeys } from "../resolvers/admittedKeys";
import { isDatabaseUnavailable } from "../db/databaseErrors";
import { createRouter } from "../rest/router";
import { restOperations, restRoutes } from "../rest/routes";
import { createSofaClient, restErrorReply } from "../rest/sofa";
import { codeOf, ErrorCode, forbidden, rateLimited, statusOfCode, unauthenticated, unavailable } from "../errors";
import { errorJson, json, toResponse, type Reply } from "../rest/responses";
import { declaresTooLargeBody } from "../rest/incoming";
import { incomingOfRequest, type IncomingHttp } from "./fetchIncoming";
import { bodyTooLarge, bodyTooLargeMessage, nestsAtMost, tooDeepMessage } from "../rest/requestBody";
import { createGraphqlServer } from "./graphql";
import { operationGuards } from "./guardedExecute";
import { eventFeed } from "../events/feed";
import type { WebhookServices } from "../resolvers/webhooks";
import { maxSequence } from "../resolvers/events";
import { webSockets } from "./webSocket";
import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { documentTextOf, keptMediaTypeFor, knownQueries, refusalReply } from "./knownQueries";
import { isPublicPath, publicEndpoints, publicRouteOf } from "./publicEndpoints";
import { createRateLimiter, type RateLimitOptions } from "./rateLimit";
import { RequestBodyError } from "./requestBodies";
import { keyPrefixLength, limitRefusalReason, RequestRecord, type RefusalReason } from "./observability/requestRecord";
import { requestObserver } from "./observability/requestObserver";
import type { Logger } from "./observability/requestLog";
import type { ServiceMetrics } from "./observability/metrics";
import type { TrustedProxies } from "../config/proxies";
import { Response } from "@whatwg-node/fetch";
import { isReply, type Answer } from "./answer";
import { isPreflight, listedOrigins, originAllowed, preflightReply, withCors } from "./cors";
import { mayRun } from "./operationScopes";
import { fieldScopes } from "../schema/scopes";

/** What admission gives a request: its network and its key. */
interface Admitted {
  network: NetworkScope;
  key: KeyScope;
}

export interface AppDependencies {
  db: Database;
  now?: () => Date;
  rateLimit?: RateLimitOptions;
  /** Limits other than the defaults (src/config/limits.ts). */
  limits?: Partial<Limits>;
  /** false leaves every GraphQL request to Yoga's pipeline (tests compare both ways). */
  knownQueries?: boolean;
  /**
   * Where each request's line and its unexpected errors go (src/server/observability/requestLog.ts);
   * none: no request lines, errors to stderr.
   */
  log?: Logger;
  /** The metrics that count each request (src/server/observability/metrics.ts); none: not counted. */
  metrics?: ServiceMetrics;
  /** Webhook settings and the observer of their attempts (tests, webhook test); none: the contract's defaults. */
  webhooks?: WebhookServices;
  /** TRUSTED_PROXIES (src/config/proxies.ts): whose X-Forwarded-For names the client in the log; none: nobody's. */
  trustedProxies?: TrustedProxies;
}

export { isReply, type Answer };

export interface App {
  /** Any request, from a fetch Request (X-Request-Id is the HTTP server's to write: not added here). */
  fetch(request: Request): Promise<Response>;
  /** Any request, as the app reads it; never throws. */
  handle(incoming: IncomingHttp): Promise<Answer>;
  /** Ends the live subscriptions (each completes) and WebSocket connections, so that a stopping server need not wait for them. */
  endSubscriptions(): void;
  /** Takes over an HTTP upgrade: GraphQL over WebSocket at /graphql (src/server/webSocket.ts). */
  upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void;
}

/**
 * A reconnecting SSE client's Last-Event-ID: the sequence of the last event it received
 * (src/server/eventStream.ts writes them); anything else is no such header.
 */
function lastEventIdOf(incoming: IncomingHttp): number | undefined {
  const text = incoming.header("last-event-id")?.trim();
  return text !== undefined && /^\d{1,10}$/.test(text) && Number(text) <= maxSequence ? Number(text) : undefined;
}

/** Methods GraphQL is served with; GET and HEAD as a query string, POST as a JSON body. */
const graphqlMethodList = ["GET", "HEAD", "POST"] as const;
const graphqlMethods = graphqlMethodList.join(", ");

export function createApp({ db, now = () => new Date(), rateLimit, limits: chosen, knownQueries: answerKnown = true, log, metrics, webhooks, trustedProxies }: AppDependencies): App {
  const limits: Limits = { ...defaultLimits, ...chosen };
  const { documentLimits, execute, subscribe } = operationGuards(schema, limits);
  const feed = eventFeed(db, now, limits.subscriptionMaxQueued);
  const graphql = createGraphqlServer(schema, db, now, documentLimits, execute, { subscribe, feed, heartbeatMs: limits.subscriptionHeartbeatMs }, webhooks);
  const queries = answerKnown ? knownQueries(schema, documentLimits, execute) : null;
  const routes = restRoutes(schema, createSofaClient(schema, db, now, execute, restOperations));
  const matchRest = createRouter(routes);
  const publicEndpoint = publicEndpoints(db);
  const limiter = createRateLimiter(rateLimit);
  const keyOfApiKey = admittedKeys(db.apiKeys, db.keyChanges);
  const originsOfKeys = listedOrigins(db.apiKeys, db.keyChanges);
  /** What each REST route's operation needs: checked before its body is read. */
  const restScopes = new Map(routes.map((route) => [route, fieldScopes(schema, route.operation)]));
  const observer = requestObserver(log, metrics, trustedProxies);

  /**
   * The request's network and key, or the domain error that refuses it before any resolver runs:
   * no or unknown key, database unreachable, or the key over its rate limit.
   */
  async function admit(header: (name: string) => string | null, record: RequestRecord): Promise<Admitted | { refusal: GraphQLError }> {
    const apiKey = apiKeyFromHeaders(header);
    if (!apiKey) return refuse(record, "no_key", unauthenticated());
    // The public prefix only, and only of what looks like one of our keys (not a password pasted by mistake).
    if (looksLikeApiKey(apiKey)) record.keyPrefix = apiKey.slice(0, keyPrefixLength);
    let stored: StoredKey | null;
    try {
      stored = await keyOfApiKey(apiKey, now());
    } catch (error) {
      if (isDatabaseUnavailable(error)) return refuse(record, "database_unavailable", unavailable());
      throw error;
    }
    if (!stored) return refuse(record, "unknown_key", unauthenticated());
    record.network = stored.network.id;
    record.keyId = stored.id;
    record.keyName = stored.name;
    if (!originAllowed(stored, header("origin"))) return refuse(record, "origin", forbidden());
    const retryAfter = limiter.take(apiKey);
    if (retryAfter) return refuse(record, "rate_limit", rateLimited(retryAfter));
    const { id, name, prefix, scopes, origins } = stored;
    return { network: stored.network, key: { id, name, prefix, scopes, origins } };
  }

  function refuse(record: RequestRecord, reason: RefusalReason, refusal: GraphQLError): { refusal: GraphQLError } {
    record.refusal = reason;
    return { refusal };
  }

  /**
   * An answer of /graphql that runs no operation, in GraphQL's shape, as the client's Accept
   * header asks (Yoga's choice: application/graphql-response+json when accepted, so that
   * clients such as Apollo read the error's code), with this status.
   */
  function graphqlError(incoming: IncomingHttp, status: number, message: string, code: string, headers: Record<string, string> = {}): Reply {
    const mediaType = keptMediaTypeFor(incoming.header("accept")) ?? "application/json";
    return json(status, { errors: [{ message, extensions: { code } }] }, { ...headers, "Content-Type": `${mediaType}; charset=utf-8` });
  }

  /** A refusal by a domain error, with the code's HTTP status (no operation ran). */
  function graphqlRefusal(incoming: IncomingHttp, error: GraphQLError): Reply {
    const code = codeOf(error)!;
    const retryAfter = error.extensions.retryAfter;
    return graphqlError(incoming, statusOfCode[code], error.message, code, retryAfter ? { "Retry-After": String(retryAfter) } : {});
  }

  /** The query string of a GET: `variables` and `extensions`, when sent, are JSON objects (Yoga parses them). */
  function badQueryString(incoming: IncomingHttp): string | null {
    const search = incoming.url().searchParams;
    for (const name of ["variables", "extensions"]) {
      const text = search.get(name);
      if (text === null || text === "") continue;
      if (!nestsAtMost(text)) return `The ${name} parameter must not be nested more than ${maxJsonDepth} levels deep.`;
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        return `The ${name} parameter is not valid JSON.`;
      }
      if (typeof value !== "object" || Array.isArray(value)) return `The ${name} parameter must be a JSON object.`;
    }
    return null;
  }

  async function handleGraphql(incoming: IncomingHttp, record: RequestRecord): Promise<Answer> {
    const { method } = incoming;
    if (method !== "GET" && method !== "HEAD" && method !== "POST") {
      return graphqlError(incoming, 405, `The ${method} method is not supported for /graphql. Supported: ${graphqlMethods}.`, "METHOD_NOT_ALLOWED", {
        Allow: graphqlMethods,
      });
    }
    // GraphiQL itself is a page anyone may load; the operations it sends carry the key.
    if (method !== "POST" && incoming.header("accept")?.includes("text/html")) return graphql.graphiql();
    const admitted = await admit(incoming.header, record);
    if ("refusal" in admitted) return graphqlRefusal(incoming, admitted.refusal);
    return withCors(await graphqlOperation(incoming, record, admitted), admitted.key, incoming.header("origin"));
  }

  /** A GraphQL request of an admitted key. */
  async function graphqlOperation(incoming: IncomingHttp, record: RequestRecord, { network, key }: Admitted): Promise<Answer> {
    const { method } = incoming;
    if (method !== "POST") {
      const bad = badQueryString(incoming);
      if (bad) return graphqlError(incoming, 400, bad, ErrorCode.BAD_USER_INPUT);
      return (
        overLimits(incoming, incoming.url().searchParams.get("query"), record) ??
        graphql.handle(incoming.fetchRequest(null), { network, key, requestRecord: record, lastEventId: lastEventIdOf(incoming) })
      );
    }
    const body = await incoming.text();
    if (body === null) {
      record.refusal = "body_too_large";
      return graphqlError(incoming, 413, bodyTooLargeMessage, ErrorCode.BAD_USER_INPUT);
    }
    if (!nestsAtMost(body)) {
      record.refusal = "body_too_deep";
      return graphqlError(incoming, 400, tooDeepMessage, ErrorCode.BAD_USER_INPUT);
    }
    const known = queries?.recognize(method, incoming.header, body);
    const answered = known ? await queries!.answer(known, graphql.contextOf(network, key, record)) : null;
    if (answered && "status" in answered) return answered;
    // Yoga answers the rest; a known query's result is handed over, not computed again.
    // A known document passed the limits when it was kept; only others are measured here.
    const refused = known ? null : overLimits(incoming, documentTextOf(body), record);
    return refused ?? graphql.handle(incoming.fetchRequest(body), { network, key, executed: answered?.executed, requestRecord: record, lastEventId: lastEventIdOf(incoming) });
  }

  /**
   * The refusal of a document over a limit, before Yoga validates it: Yoga answers parse and
   * validation errors as the GraphQL-over-HTTP spec has it (200 under application/json), a
   * refusal by a limit is a 400 whatever the media type.
   */
  function overLimits(incoming: IncomingHttp, text: string | null, record: RequestRecord): Reply | null {
    const refusal = text === null ? null : documentLimits.refusalOfText(text);
    if (!refusal) return null;
    record.refusal = limitRefusalReason(refusal);
    return refusalReply([refusal], keptMediaTypeFor(incoming.header("accept")) ?? "application/json");
  }

  /** The REST route's template, for a request refused before routing (null: no route). */
  function restRouteOf(incoming: IncomingHttp): string | null {
    const match = matchRest(incoming.method, incoming.pathname);
    return match && "route" in match ? match.route.path : null;
  }

  async function handleRest(incoming: IncomingHttp, record: RequestRecord): Promise<Reply> {
    const match = matchRest(incoming.method, incoming.pathname);
    if (!match) return errorJson(404, "Not Found.");
    if ("reply" in match) return match.reply;
    record.route = match.route.path;
    const admitted = await admit(incoming.header, record);
    if ("refusal" in admitted) return restErrorReply([admitted.refusal]);
    // A page of a listed origin may read the answer, a refusal for scope too.
    const fromPage = (reply: Reply) => withCors(reply, admitted.key, incoming.header("origin"));
    if (!mayRun(admitted.key.scopes, restScopes.get(match.route)!)) {
      record.refusal = "scope";
      return fromPage(restErrorReply([forbidden()]));
    }
    return fromPage(await match.route.handler({ incoming, params: match.params, network: admitted.network, key: admitted.key }));
  }

  /**
   * A CORS preflight of /graphql or a REST path: it carries no key, so it is answered from the
   * origins some key lists (./cors.ts).
   */
  async function preflight(incoming: IncomingHttp, record: RequestRecord, isGraphql: boolean): Promise<Reply> {
    const methods = isGraphql ? graphqlMethodList : matchRest.methodsOf(incoming.pathname);
    if (!methods) return errorJson(404, "Not Found.");
    if (!isGraphql) record.route = restRouteOf(incoming);
    const origin = incoming.header("origin");
    if (origin !== null && (await originsOfKeys(now())).has(origin)) return preflightReply(origin, methods);
    record.refusal = "origin";
    return errorJson(403, "No API key lists this origin: its pages may not use the API.");
  }

  async function route(incoming: IncomingHttp, record: RequestRecord): Promise<Answer> {
    const { pathname } = incoming;
    const isGraphql = pathname === "/graphql";
    const isPublic = !isGraphql && isPublicPath(pathname);
    if (isGraphql) record.route = "/graphql";
    else if (isPublic) record.route = publicRouteOf(pathname);
    if (!isPublic && isPreflight(incoming.method, incoming.header)) return preflight(incoming, record, isGraphql);
    // A body declared too large is refused before anything else, without reading it.
    if (declaresTooLargeBody(incoming)) {
      record.refusal = "body_too_large";
      if (isGraphql) return graphqlError(incoming, 413, bodyTooLargeMessage, ErrorCode.BAD_USER_INPUT);
      if (!isPublic) record.route = restRouteOf(incoming);
      return bodyTooLarge();
    }
    if (isGraphql) return handleGraphql(incoming, record);
    if (isPublic) return (await publicEndpoint(incoming.method, incoming.url())) ?? errorJson(404, "Not Found.");
    return handleRest(incoming, record);
  }

  /**
   * The reason of a refusal that the REST layer answered (its operations run through SOFA, which
   * carries no request record): by the status of an admitted request's answer. 503 after
   * OPERATION_TIMEOUT_MS is the key's line giving up; sooner, the database.
   */
  function refusalOfStatus(status: number, durationMs: number): RefusalReason | undefined {
    if (status === 403) return "scope";
    if (status === 429) return "fairness_queue";
    if (status === 503) return durationMs >= limits.operationTimeoutMs ? "timeout" : "database_unavailable";
    if (status === 413) return "body_too_large";
    return undefined;
  }

  /** Answers every error itself: a body that could not be read, 503 while the database is unreachable, else 500. */
  async function answer(incoming: IncomingHttp, record: RequestRecord): Promise<Answer> {
    try {
      return await route(incoming, record);
    } catch (error) {
      if (error instanceof RequestBodyError) {
        if (error.reply.status === 503) record.refusal = "bodies_in_flight";
        return error.reply;
      }
      if (isDatabaseUnavailable(error)) {
        record.refusal = "database_unavailable";
        return restErrorReply([unavailable()]);
      }
      observer.internalError(error, record);
      return errorJson(500, "Server Error.");
    }
  }

  /** The answer, with the request's record logged and counted once it is ready. */
  async function handle(incoming: IncomingHttp): Promise<Answer> {
    const started = performance.now();
    const record = new RequestRecord(incoming.requestId, incoming.method);
    // Read before the answer: a client that gives up waiting closes its socket, which forgets it.
    const peer = observer.watchesClients ? incoming.peerAddress() : undefined;
    const answered = await answer(incoming, record);
    record.status = answered.status;
    // Hundredths of a millisecond: what a log reader or a histogram bucket can tell apart.
    record.durationMs = Math.round((performance.now() - started) * 100) / 100;
    if (record.refusal === undefined && record.network !== undefined && (record.status === 403 || record.status >= 413)) record.refusal = refusalOfStatus(record.status, record.durationMs);
    observer.answered(record, peer, incoming.header);
    return answered;
  }

  const sockets = webSockets({
    schema,
    limits: documentLimits,
    execute,
    subscribe,
    heartbeatMs: limits.subscriptionHeartbeatMs,
    // A connection is admitted as a request of its own (its record is not logged: no request line per socket).
    admit: (header) => admit(header, new RequestRecord(randomUUID(), "GET")),
    contextOf: (network, key) => graphql.contextOf(network, key),
  });

  return {
    handle,
    endSubscriptions: () => {
      feed.close();
      void sockets.close();
    },
    upgrade: (request, socket, head) => sockets.upgrade(request, socket, head),
    async fetch(request) {
      const answer = await handle(incomingOfRequest(request, new URL(request.url)));
      const response = isReply(answer) ? toResponse(answer) : answer;
      return request.method === "HEAD" ? new Response(null, response) : response;
    },
  };
}
