// SOFA turns the schema's operations into REST routes; this module configures it and maps
// GraphQL errors to the contract's statuses and bodies.
import { useSofa } from "sofa-api";
import { GraphQLError, type GraphQLSchema } from "graphql";
import type { Context, NetworkScope } from "../context";
import type { Database } from "../db/client";
import { ErrorCode, codeOf, statusOfCode } from "../errors";
import { logInternalError, publicError } from "../publicError";
import { errorJson, validationJson } from "./responses";
import { compiledExecute } from "../server/compiledExecute";

/** The GraphQL operation behind each SOFA route; the public paths are mapped in routes.ts. */
export const sofaRoutes = {
  "Query.vehicles": { method: "GET", path: "/vehicles" },
  "Query.vehicle": { method: "GET", path: "/vehicles/:id" },
  "Mutation.createVehicle": { method: "POST", path: "/vehicles", responseStatus: 201 },
  "Mutation.updateVehicle": { method: "PATCH", path: "/vehicles/:id" },
  "Mutation.deleteVehicle": { method: "DELETE", path: "/vehicles/:id" },
  "Mutation.toggleDutytime": { method: "POST", path: "/dutytime/:identifier/toggle" },
  "Mutation.stopDutytime": { method: "POST", path: "/dutytime/:identifier/stop" },
  "Query.activeUsers": { method: "GET", path: "/statistics/active-users" },
  "Query.missionsLastSevenDays": { method: "GET", path: "/statistics/missions/last-7-days" },
  "Query.missionsTotal": { method: "GET", path: "/statistics/missions/total" },
  "Query.filesLastSevenDays": { method: "GET", path: "/statistics/files/last-7-days" },
  "Query.filesTotal": { method: "GET", path: "/statistics/files/total" },
} as const;

/** GraphQL errors of a REST call, as the contract's error response. */
export function restErrorResponse(errors: ReadonlyArray<unknown>): Response {
  for (const error of errors) {
    const exposed = publicError(error);
    const code = codeOf(exposed);
    if (!exposed || !code) continue;
    const status = statusOfCode[code];
    if (code === ErrorCode.BAD_USER_INPUT) {
      return validationJson(exposed.message, (exposed.extensions.errors as Record<string, string[]>) ?? {});
    }
    const retryAfter = exposed.extensions.retryAfter;
    return errorJson(status, exposed.message, retryAfter ? { "Retry-After": String(retryAfter) } : {});
  }
  const first = errors[0];
  // A GraphQL request error (no resolver ran): the input did not fit the schema's types.
  if (first instanceof GraphQLError && !first.originalError) {
    return validationJson(first.message, {});
  }
  logInternalError(first);
  return errorJson(500, "Server Error.");
}

export interface SofaSuccess {
  ok: true;
  status: number;
  data: unknown;
}
export type SofaResult = SofaSuccess | { ok: false; response: Response };

export interface SofaCall {
  method: string;
  /** The SOFA route path with its parameters filled in (already URL-encoded). */
  path: string;
  query?: URLSearchParams;
  variables?: Record<string, unknown>;
}

export function createSofaClient(schema: GraphQLSchema, db: Database, now: () => Date) {
  const router = useSofa({
    basePath: "",
    schema,
    routes: sofaRoutes,
    // VehiclePage.data is the vehicles themselves, not references to them.
    ignore: ["VehiclePage.data"],
    context: ({ network }: { network?: NetworkScope }): Context => ({ db, network: network!, now }),
    execute: compiledExecute as NonNullable<Parameters<typeof useSofa>[0]["execute"]>,
    // fets types its own Response class; ours is the platform's, which is what it runs on.
    errorHandler: restErrorResponse as unknown as NonNullable<Parameters<typeof useSofa>[0]["errorHandler"]>,
  });

  return async function callSofa(call: SofaCall, network: NetworkScope): Promise<SofaResult> {
    const query = call.query && [...call.query.keys()].length > 0 ? `?${call.query}` : "";
    // A URL and init, not a Request: the router then builds its own light request object (no
    // platform Request, no abort signal), a noticeable share of a request's CPU.
    const init = {
      method: call.method,
      headers: { "content-type": "application/json" },
      body: call.variables ? JSON.stringify(call.variables) : undefined,
    };
    const response = await router.fetch(`http://sofa.internal${call.path}${query}`, init, { network });
    if (response.status >= 400) return { ok: false, response };
    return { ok: true, status: response.status, data: await response.json() };
  };
}

export type CallSofa = ReturnType<typeof createSofaClient>;
