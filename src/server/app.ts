// The whole HTTP application as a function of its dependencies: public endpoints, GraphQL at
// /graphql, and the REST routes of SPEC.md. Every non-public request needs a valid API key.
// REST requests, and GraphQL queries validated before (src/server/knownQueries.ts), are answered
// from what the app reads of them (IncomingRest) with plain replies; the HTTP server passes them
// in from node's request (src/server/nodeRequests.ts), App.fetch from a fetch Request.
import { shouldRenderGraphiQL } from "graphql-yoga";
import type { Database } from "../db/client";
import type { NetworkScope } from "../context";
import { schema } from "../schema";
import { apiKeyFromHeaders } from "../resolvers/apiKeys";
import { admittedKeys } from "../resolvers/admittedKeys";
import { isDatabaseUnavailable } from "../resolvers/databaseErrors";
import { logInternalError } from "../publicError";
import { createRouter } from "../rest/router";
import { restRoutes } from "../rest/routes";
import { createSofaClient, restErrorReply } from "../rest/sofa";
import { codeOf, rateLimited, statusOfCode, unauthenticated, unavailable } from "../errors";
import type { GraphQLError } from "graphql";
import { errorJson, json, toResponse, type Reply } from "../rest/responses";
import { incomingOfRequest, type IncomingRest } from "../rest/incoming";
import { maxBodyBytes, readLimitedText } from "../rest/requestBody";
import { createGraphqlServer } from "./graphql";
import { knownQueries } from "./knownQueries";
import { isPublicPath, publicEndpoints } from "./publicEndpoints";
import { createRateLimiter, type RateLimitOptions } from "./rateLimit";
import { Response } from "@whatwg-node/fetch";

export interface AppDependencies {
  db: Database;
  now?: () => Date;
  rateLimit?: RateLimitOptions;
  /** false leaves every GraphQL request to Yoga's pipeline (tests compare both ways). */
  knownQueries?: boolean;
}

export interface App {
  /** Any request: GraphQL, the public endpoints and REST. */
  fetch(request: Request): Promise<Response>;
  /** Whether `rest` answers a path: every path but /graphql's and the public endpoints'. */
  isRestPath(pathname: string): boolean;
  /** A request to a REST path (an unknown path's 404 included); never throws. */
  rest(incoming: IncomingRest): Promise<Reply>;
  /**
   * A request to /graphql when it is a query validated before (src/server/knownQueries.ts),
   * answered without a fetch Request; null for any other, which `fetch` then answers. Never
   * throws. `asRequest` makes the request with its body a fetch Request, for Yoga to answer a
   * result with errors.
   */
  knownQuery(incoming: IncomingRest, asRequest: (body: string) => Request): Promise<Reply | null>;
}

/** A refusal in GraphQL's shape, with the code's HTTP status (no operation ran). */
function graphqlRefusal(error: GraphQLError): Reply {
  const code = codeOf(error)!;
  const retryAfter = error.extensions.retryAfter;
  const headers: Record<string, string> = retryAfter ? { "Retry-After": String(retryAfter) } : {};
  return json(statusOfCode[code], { errors: [{ message: error.message, extensions: { code } }] }, headers);
}

const graphqlBodyTooLarge = () =>
  json(413, { errors: [{ message: `The request body must not exceed ${maxBodyBytes} bytes.`, extensions: { code: "BAD_USER_INPUT" } }] }, {
    Connection: "close",
  });

/** A fetch Response as a plain reply (Yoga's answers are JSON text; its length is set when sent). */
async function replyOf(response: Response): Promise<Reply> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    if (name !== "content-length") headers[name] = value;
  });
  return { status: response.status, headers, body: await response.text() };
}

export function createApp({ db, now = () => new Date(), rateLimit, knownQueries: answerKnown = true }: AppDependencies): App {
  const graphql = createGraphqlServer(schema, db, now);
  const queries = answerKnown ? knownQueries(schema) : null;
  const matchRest = createRouter(restRoutes(schema, createSofaClient(schema, db, now)));
  const publicEndpoint = publicEndpoints(db);
  const limiter = createRateLimiter(rateLimit);
  const networkOfApiKey = admittedKeys(db.read, db.keyChanges);

  /**
   * The request's network, or the domain error that refuses it before any resolver runs: no or
   * unknown key, database unreachable, or the key over its rate limit.
   */
  async function admit(header: (name: string) => string | null): Promise<{ network: NetworkScope } | { refusal: GraphQLError }> {
    const apiKey = apiKeyFromHeaders(header);
    if (!apiKey) return { refusal: unauthenticated() };
    let network: NetworkScope | null;
    try {
      network = await networkOfApiKey(apiKey, now());
    } catch (error) {
      if (isDatabaseUnavailable(error)) return { refusal: unavailable() };
      throw error;
    }
    if (!network) return { refusal: unauthenticated() };
    const retryAfter = limiter.take(apiKey);
    return retryAfter ? { refusal: rateLimited(retryAfter) } : { network };
  }

  /**
   * The request with a body of known size within the limit, or null when it is too large. The
   * HTTP server declares every body's size (src/server/requestBodies.ts); a body of unknown
   * length (the app called without it) is read here, within the limit.
   */
  async function boundedBody(request: Request): Promise<Request | null> {
    if (Number(request.headers.get("content-length") ?? 0) > maxBodyBytes) return null;
    if (request.headers.has("content-length") || !request.body) return request;
    const text = await readLimitedText(request);
    if (text === null) return null;
    return new Request(request.url, { method: request.method, headers: request.headers, body: text });
  }

  async function handleGraphql(received: Request): Promise<Response> {
    const request = await boundedBody(received);
    if (!request) return toResponse(graphqlBodyTooLarge());
    // GraphiQL itself is a page anyone may load; the operations it sends carry the key.
    if (shouldRenderGraphiQL(request)) return graphql.graphiql();
    const admitted = await admit((name) => request.headers.get(name));
    if ("refusal" in admitted) return toResponse(graphqlRefusal(admitted.refusal));
    return graphql.handle(request, { network: admitted.network });
  }

  /** Admitted once: a result with errors goes to Yoga with the network already admitted. */
  async function handleKnownQuery(incoming: IncomingRest, asRequest: (body: string) => Request): Promise<Reply | null> {
    if (!queries || incoming.method !== "POST") return null;
    const body = await incoming.text();
    if (body === null) return graphqlBodyTooLarge();
    const known = queries.recognize(incoming.method, incoming.header, body);
    if (!known) return null;
    const admitted = await admit(incoming.header);
    if ("refusal" in admitted) return graphqlRefusal(admitted.refusal);
    const { network } = admitted;
    return (await queries.answer(known, graphql.contextOf(network))) ?? replyOf(await graphql.handle(asRequest(body), { network }));
  }

  async function handleRest(incoming: IncomingRest): Promise<Reply> {
    const match = matchRest(incoming.method, incoming.pathname);
    if (!match) return errorJson(404, "Not Found.");
    if ("reply" in match) return match.reply;
    const admitted = await admit(incoming.header);
    if ("refusal" in admitted) return restErrorReply([admitted.refusal]);
    return match.route.handler({ incoming, params: match.params, network: admitted.network });
  }

  /** Answers every error itself: 503 while the database is unreachable, else 500. */
  async function answered<Answer>(answer: () => Promise<Answer>, asAnswer: (reply: Reply) => Answer): Promise<Answer> {
    try {
      return await answer();
    } catch (error) {
      if (isDatabaseUnavailable(error)) return asAnswer(restErrorReply([unavailable()]));
      logInternalError(error);
      return asAnswer(errorJson(500, "Server Error."));
    }
  }

  const isRestPath = (pathname: string) => pathname !== "/graphql" && !isPublicPath(pathname);
  const rest = (incoming: IncomingRest) => answered(() => handleRest(incoming), (reply) => reply);
  const knownQuery = (incoming: IncomingRest, asRequest: (body: string) => Request) =>
    answered<Reply | null>(() => handleKnownQuery(incoming, asRequest), (reply) => reply);

  /** A GraphQL request as the HTTP server answers it: a known query, else through Yoga. */
  async function fetchGraphql(received: Request, url: URL): Promise<Response> {
    // The body is read once; Yoga gets it again in a new Request.
    let body: Promise<string | null> | undefined;
    const incoming = { ...incomingOfRequest(received, url), text: () => (body ??= readLimitedText(received)) };
    const withBody = (text: string) => new Request(received.url, { method: received.method, headers: received.headers, body: text });
    const reply = await knownQuery(incoming, withBody);
    if (reply) return toResponse(reply);
    const text = body && (await body);
    const request = typeof text === "string" ? withBody(text) : received;
    return answered(() => handleGraphql(request), toResponse);
  }

  return {
    isRestPath,
    rest,
    knownQuery,
    async fetch(request) {
      const url = new URL(request.url);
      const response = isRestPath(url.pathname)
        ? toResponse(await rest(incomingOfRequest(request, url)))
        : url.pathname === "/graphql"
          ? await fetchGraphql(request, url)
          : await answered(async () => (await publicEndpoint(request, url)) ?? (await handleGraphql(request)), toResponse);
      return request.method === "HEAD" ? new Response(null, response) : response;
    },
  };
}
