// The whole HTTP application as a function of its dependencies: public endpoints, GraphQL at
// /graphql, and the REST routes of SPEC.md. Every non-public request needs a valid API key.
// REST requests are answered from what the REST layer reads of them (IncomingRest) with plain
// replies; the HTTP server passes them in from node's request (src/server/nodeRequests.ts),
// App.fetch from a fetch Request.
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
import { isPublicPath, publicEndpoints } from "./publicEndpoints";
import { createRateLimiter, type RateLimitOptions } from "./rateLimit";
import { Response } from "@whatwg-node/fetch";

export interface AppDependencies {
  db: Database;
  now?: () => Date;
  rateLimit?: RateLimitOptions;
}

export interface App {
  /** Any request: GraphQL, the public endpoints and REST. */
  fetch(request: Request): Promise<Response>;
  /** Whether `rest` answers a path: every path but /graphql's and the public endpoints'. */
  isRestPath(pathname: string): boolean;
  /** A request to a REST path (an unknown path's 404 included); never throws. */
  rest(incoming: IncomingRest): Promise<Reply>;
}

/** A refusal in GraphQL's shape, with the code's HTTP status (no operation ran). */
function graphqlRefusal(error: GraphQLError): Response {
  const code = codeOf(error)!;
  const retryAfter = error.extensions.retryAfter;
  const headers: Record<string, string> = retryAfter ? { "Retry-After": String(retryAfter) } : {};
  return toResponse(json(statusOfCode[code], { errors: [{ message: error.message, extensions: { code } }] }, headers));
}

export function createApp({ db, now = () => new Date(), rateLimit }: AppDependencies): App {
  const graphql = createGraphqlServer(schema, db, now);
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
    if (!request) {
      return toResponse(
        json(
          413,
          { errors: [{ message: `The request body must not exceed ${maxBodyBytes} bytes.`, extensions: { code: "BAD_USER_INPUT" } }] },
          { Connection: "close" },
        ),
      );
    }
    // GraphiQL itself is a page anyone may load; the operations it sends carry the key.
    if (shouldRenderGraphiQL(request)) return graphql.graphiql();
    const admitted = await admit((name) => request.headers.get(name));
    if ("refusal" in admitted) return graphqlRefusal(admitted.refusal);
    return graphql.handle(request, { network: admitted.network });
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

  return {
    isRestPath,
    rest,
    async fetch(request) {
      const url = new URL(request.url);
      const response = isRestPath(url.pathname)
        ? toResponse(await rest(incomingOfRequest(request, url)))
        : await answered(
            async () => (await publicEndpoint(request, url)) ?? (await handleGraphql(request)),
            toResponse,
          );
      return request.method === "HEAD" ? new Response(null, response) : response;
    },
  };
}
