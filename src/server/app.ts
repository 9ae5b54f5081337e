// The whole HTTP application as a function of its dependencies: public endpoints, GraphQL at
// /graphql, and the REST routes of SPEC.md. Every non-public request needs a valid API key.
import { shouldRenderGraphiQL } from "graphql-yoga";
import type { Database } from "../db/client";
import type { NetworkScope } from "../context";
import { schema } from "../schema";
import { apiKeyFromHeaders, networkOfApiKey } from "../resolvers/apiKeys";
import { isDatabaseUnavailable } from "../resolvers/databaseErrors";
import { logInternalError } from "../publicError";
import { createRouter } from "../rest/router";
import { restRoutes } from "../rest/routes";
import { createSofaClient } from "../rest/sofa";
import { errorJson, json } from "../rest/responses";
import { maxBodyBytes } from "../rest/requestBody";
import { createGraphqlServer } from "./graphql";
import { publicEndpoints } from "./publicEndpoints";
import { createRateLimiter, type RateLimitOptions } from "./rateLimit";

export interface AppDependencies {
  db: Database;
  now?: () => Date;
  rateLimit?: RateLimitOptions;
}

export interface App {
  fetch(request: Request): Promise<Response>;
}

type Authentication = { network: NetworkScope; apiKey: string } | { failure: "unauthenticated" | "unavailable" };

export function createApp({ db, now = () => new Date(), rateLimit }: AppDependencies): App {
  const graphql = createGraphqlServer(schema, db, now);
  const matchRest = createRouter(restRoutes(schema, createSofaClient(schema, db, now)));
  const publicEndpoint = publicEndpoints(db);
  const limiter = createRateLimiter(rateLimit);

  async function authenticate(request: Request): Promise<Authentication> {
    const apiKey = apiKeyFromHeaders(request.headers);
    if (!apiKey) return { failure: "unauthenticated" };
    try {
      const network = await networkOfApiKey(db.prisma, apiKey, now());
      return network ? { network, apiKey } : { failure: "unauthenticated" };
    } catch (error) {
      if (isDatabaseUnavailable(error)) return { failure: "unavailable" };
      throw error;
    }
  }

  async function handleGraphql(request: Request): Promise<Response> {
    if (Number(request.headers.get("content-length") ?? 0) > maxBodyBytes) {
      return json(
        413,
        { errors: [{ message: `The request body must not exceed ${maxBodyBytes} bytes.`, extensions: { code: "BAD_USER_INPUT" } }] },
        { Connection: "close" },
      );
    }
    // GraphiQL itself is a page anyone may load; the operations it sends carry the key.
    if (shouldRenderGraphiQL(request)) return graphql.fetch(request, {} as never);
    const auth = await authenticate(request);
    if ("failure" in auth) {
      const [status, message, code] =
        auth.failure === "unavailable"
          ? [503, "The service is temporarily unavailable. Please retry.", "UNAVAILABLE"]
          : [401, "Unauthenticated.", "UNAUTHENTICATED"];
      return json(status, { errors: [{ message, extensions: { code } }] });
    }
    const retryAfter = limiter.take(auth.apiKey);
    if (retryAfter) {
      return json(429, { errors: [{ message: "Too Many Attempts.", extensions: { code: "RATE_LIMITED" } }] }, { "Retry-After": String(retryAfter) });
    }
    return graphql.fetch(request, { network: auth.network });
  }

  async function handleRest(request: Request, url: URL): Promise<Response> {
    const match = matchRest(request.method, url.pathname);
    if (!match) return errorJson(404, "Not Found.");
    if ("response" in match) return match.response;
    const auth = await authenticate(request);
    if ("failure" in auth) {
      return auth.failure === "unavailable"
        ? errorJson(503, "The service is temporarily unavailable. Please retry.")
        : errorJson(401, "Unauthenticated.");
    }
    const retryAfter = limiter.take(auth.apiKey);
    if (retryAfter) return errorJson(429, "Too Many Attempts.", { "Retry-After": String(retryAfter) });
    return match.route.handler({ request, url, params: match.params, network: auth.network });
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
        if (isDatabaseUnavailable(error)) return errorJson(503, "The service is temporarily unavailable. Please retry.");
        logInternalError(error);
        return errorJson(500, "Server Error.");
      }
    },
  };
}
