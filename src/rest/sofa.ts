// SOFA turns the schema's operations into REST routes; this module configures it and maps
// GraphQL errors to the contract's statuses and bodies.
import { useSofa } from "sofa-api";
import { GraphQLError, type GraphQLSchema } from "graphql";
import type { Context, NetworkScope } from "../context";
import type { Database } from "../db/client";
import { ErrorCode, codeOf, statusOfCode } from "../errors";
import { logInternalError, publicError } from "../publicError";
import { errorJson, validationJson, type Reply } from "./responses";
import type { Execute } from "../server/guardedExecute";

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

/** GraphQL errors of a REST call, as the contract's error reply. */
export function restErrorReply(errors: ReadonlyArray<unknown>): Reply {
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
  /** The operation's result as SOFA serialized it: passed on as text, not parsed again. */
  json: string;
}
export type SofaResult = SofaSuccess | { ok: false; reply: Reply };

/**
 * What SOFA's error handler returns: the errors as they are. SOFA hands the handler's value
 * back as the route's answer, and the REST layer maps them to a reply (restErrorReply).
 */
class SofaErrors {
  constructor(readonly errors: ReadonlyArray<unknown>) {}
}

export type SofaOperation = keyof typeof sofaRoutes;

export interface SofaCall {
  operation: SofaOperation;
  /** Values of the route's path parameters (`:id`, `:identifier`), decoded. */
  params?: Record<string, string>;
  query?: URLSearchParams;
  variables?: Record<string, unknown>;
}

/** What SOFA's route handlers read of a request (sofa-api 0.18 router.js `useHandler`). */
interface SofaRequest {
  url: string;
  params: Record<string, string>;
  body: string | null;
  text(): Promise<string>;
}
type SofaHandler = (request: SofaRequest, serverContext: { network: NetworkScope }) => Promise<Response | SofaErrors>;

/**
 * SOFA's handler of each operation, taken from the router SOFA built. Our own router has already
 * matched the public path, so the call skips SOFA's HTTP router (URL pattern matching, a
 * Request object, an abort signal: ~40% of a small request's CPU). A SOFA version that builds
 * its routes differently fails here, at start, not at the first request.
 */
function sofaHandlers(router: ReturnType<typeof useSofa>): Map<SofaOperation, SofaHandler> {
  const built = (router as unknown as { __routes?: { method: string; path: string; handler: SofaHandler }[] }).__routes ?? [];
  const handlers = new Map<SofaOperation, SofaHandler>();
  for (const [operation, { method, path }] of Object.entries(sofaRoutes) as [SofaOperation, { method: string; path: string }][]) {
    const route = built.find((candidate) => candidate.method === method && candidate.path === path);
    if (!route) throw new Error(`SOFA built no route ${method} ${path} for ${operation}`);
    handlers.set(operation, route.handler);
  }
  return handlers;
}

export function createSofaClient(schema: GraphQLSchema, db: Database, now: () => Date, execute: Execute) {
  const router = useSofa({
    basePath: "",
    schema,
    routes: sofaRoutes,
    // VehiclePage.data is the vehicles themselves, not references to them.
    ignore: ["VehiclePage.data"],
    context: ({ network }: { network?: NetworkScope }): Context => ({ db, network: network!, now }),
    execute: execute as NonNullable<Parameters<typeof useSofa>[0]["execute"]>,
    // SOFA passes on whatever the handler returns (typed as its own Response class).
    errorHandler: ((errors: ReadonlyArray<unknown>) => new SofaErrors(errors)) as unknown as NonNullable<
      Parameters<typeof useSofa>[0]["errorHandler"]
    >,
  });
  const handlers = sofaHandlers(router);

  return async function callSofa(call: SofaCall, network: NetworkScope): Promise<SofaResult> {
    const body = call.variables ? JSON.stringify(call.variables) : null;
    const request: SofaRequest = {
      url: `http://sofa.internal${sofaRoutes[call.operation].path}`,
      // SOFA takes a variable from the path parameters before the query string, which it parses
      // again (qs) for each of the operation's variables: query values go in with the path's.
      params: call.query ? { ...Object.fromEntries(call.query), ...call.params } : (call.params ?? {}),
      body,
      text: async () => body ?? "",
    };
    const answer = await handlers.get(call.operation)!(request, { network });
    if (answer instanceof SofaErrors) return { ok: false, reply: restErrorReply(answer.errors) };
    return { ok: true, status: answer.status, json: await answer.text() };
  };
}

export type CallSofa = ReturnType<typeof createSofaClient>;
