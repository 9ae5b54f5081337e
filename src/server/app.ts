// The whole HTTP application as a function of its dependencies: public endpoints, GraphQL at
// /graphql, and the REST routes of SPEC.md. Every non-public request needs a valid API key.
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
import { createSofaClient, restErrorResponse } from "../rest/sofa";
import { codeOf, rateLimited, statusOfCode, unauthenticated, unavailable } from "../errors";
import type { GraphQLError } from "graphql";
import { errorJson, json } from "../rest/responses";
import { maxBodyBytes, readLimitedText } from "../rest/requestBody";
import { createGraphqlServer } from "./graphql";
import { publicEndpoints } from "./publicEndpoints";
import { createRateLimiter, type RateLimitOptions } from "./rateLimit";
import { Response } from "@whatwg-node/fetch";

export interface AppDependencies {
  db: Database;
  now?: () => Date;
  rateLimit?: RateLimitOptions;
}

export interface App {
  fetch(request: Request): Promise<Response>;
}

/** A refusal in GraphQL's shape, with the code's HTTP status (no operation ran). */
function graphqlRefusal(error: GraphQLError): Response {
  const code = codeOf(error)!;
  const retryAfter = error.extensions.retryAfter;
  const headers: Record<string, string> = retryAfter ? { "Retry-After": String(retryAfter) } : {};
  return json(statusOfCode[code], { errors: [{ message: error.message, extensions: { code } }] }, headers);
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
  async function admit(request: Request): Promise<{ network: NetworkScope } | { refusal: GraphQLError }> {
    const apiKey = apiKeyFromHeaders(request.headers);
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
      return json(
        413,
        { errors: [{ message: `The request body must not exceed ${maxBodyBytes} bytes.`, extensions: { code: "BAD_USER_INPUT" } }] },
        { Connection: "close" },
      );
    }
    // GraphiQL itself is a page anyone may load; the operations it sends carry the key.
    if (shouldRenderGraphiQL(request)) return graphql.graphiql();
    const admitted = await admit(request);
    if ("refusal" in admitted) return graphqlRefusal(admitted.refusal);
    return graphql.handle(request, { network: admitted.network });
  }

  async function handleRest(request: Request, url: URL): Promise<Response> {
    const match = matchRest(request.method, url.pathname);
    if (!match) return errorJson(404, "Not Found.");
    if ("response" in match) return match.response;
    const admitted = await admit(request);
    if ("refusal" in admitted) return restErrorResponse([admitted.refusal]);
    return match.route.handler({ request, url, params: match.params, network: admitted.network });
  }

  return {
    async fetch(request) {
      const url = new URL(request.url);
      try {
        const response =
          (await publicEndpoint(request, url)) ??
          (url.pathname === "/graphql" ? await handleGraphql(request) : await handleRest(request, url));
        return request.method === "HEAD" ? new Response(null, response) : response;
      } catch (error) {
        if (isDatabaseUnavailable(error)) return restErrorResponse([unavailable()]);
        logInternalError(error);
        return errorJson(500, "Server Error.");
      }
    },
  };
}
