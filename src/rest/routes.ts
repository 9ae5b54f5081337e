// The REST interface of the specification's section 4. Each handler only maps HTTP to a GraphQL
// operation (run by SOFA) and its result back to the contract's shape; the rules live in the
// resolvers. The route table below is the one list of public routes: the router, SOFA's
// configuration and the OpenAPI document's paths derive from it.
import type { GraphQLInputObjectType, GraphQLSchema } from "graphql";
import type { KeyScope, NetworkScope } from "../context";
import { Validator } from "../resolvers/validation";
import { validationSummary } from "../errors";
import { readJsonObject } from "./requestBody";
import { jsonText, noContent, validationJson, type Reply } from "./responses";
import type { IncomingRest } from "./incoming";
import type { PathParams, Route } from "./router";
import { restErrorReply, type SofaOperation, type SofaRunners } from "./sofa";
import { bodyToInput } from "./variables";
import { laravelCursorPageJson, laravelPageJson } from "./laravelPage";
import { queryReader, restNameOf } from "./queryParameters";

export interface RestRequest {
  incoming: IncomingRest;
  params: PathParams;
  network: NetworkScope;
  key: KeyScope;
}

export type RestHandler = (rest: RestRequest) => Promise<Reply>;

function invalid(check: Validator): Reply | null {
  const { errors } = check;
  return Object.keys(errors).length === 0 ? null : validationJson(validationSummary(errors), errors);
}

/** What a route does with its request and its operation's result. */
type RouteKind =
  /** A list: Laravel's page envelope around the operation's page. */
  | { kind: "page" }
  /** A list in cursor pages: Laravel's cursor paginator envelope around the operation's page. */
  | { kind: "cursorPage" }
  /** A vehicle write: the flat JSON body becomes the mutation's `input`. */
  | { kind: "vehicleWrite"; input: "CreateVehicleInput" | "UpdateVehicleInput"; status: number }
  /** The operation's result as `{"data": ...}`; a body, if sent, must be a JSON object (and is ignored). */
  | { kind: "data"; acceptsBody?: boolean }
  /** The operation's result as the whole body. */
  | { kind: "plain" }
  /** No content. */
  | { kind: "none" };

interface RouteSpec {
  method: Route<unknown>["method"];
  /**
   * The public path (SPEC section 4, and the routes beside it); `{name}` segments are the
   * operation's arguments, renamed by `arguments`. A GET's other arguments are its query
   * parameters (./queryParameters.ts).
   */
  path: string;
  operation: SofaOperation;
  /** The argument each path segment gives, where their names differ. */
  arguments?: Record<string, string>;
  does: RouteKind;
}

/** The REST interface of SPEC section 4: every route, its GraphQL operation and its shape. */
export const restRouteTable: readonly RouteSpec[] = [
  { method: "GET", path: "/vehicles", operation: "Query.vehicles", does: { kind: "page" } },
  { method: "POST", path: "/vehicles", operation: "Mutation.createVehicle", does: { kind: "vehicleWrite", input: "CreateVehicleInput", status: 201 } },
  { method: "GET", path: "/vehicles/{vehicle}", operation: "Query.vehicle", arguments: { vehicle: "id" }, does: { kind: "data" } },
  // PUT and PATCH both update only the fields sent (CONTRACT), so both run updateVehicle.
  { method: "PUT", path: "/vehicles/{vehicle}", operation: "Mutation.updateVehicle", arguments: { vehicle: "id" }, does: { kind: "vehicleWrite", input: "UpdateVehicleInput", status: 200 } },
  { method: "PATCH", path: "/vehicles/{vehicle}", operation: "Mutation.updateVehicle", arguments: { vehicle: "id" }, does: { kind: "vehicleWrite", input: "UpdateVehicleInput", status: 200 } },
  { method: "DELETE", path: "/vehicles/{vehicle}", operation: "Mutation.deleteVehicle", arguments: { vehicle: "id" }, does: { kind: "none" } },
  { method: "POST", path: "/dutytime/{identifier}/toggle", operation: "Mutation.toggleDutytime", does: { kind: "data", acceptsBody: true } },
  { method: "POST", path: "/dutytime/{identifier}/stop", operation: "Mutation.stopDutytime", does: { kind: "data", acceptsBody: true } },
  { method: "GET", path: "/statistics/active-users", operation: "Query.activeUsers", does: { kind: "plain" } },
  { method: "GET", path: "/statistics/missions/last-7-days", operation: "Query.missionsLastSevenDays", does: { kind: "plain" } },
  { method: "GET", path: "/statistics/missions/total", operation: "Query.missionsTotal", does: { kind: "plain" } },
  { method: "GET", path: "/statistics/files/last-7-days", operation: "Query.filesLastSevenDays", does: { kind: "plain" } },
  { method: "GET", path: "/statistics/files/total", operation: "Query.filesTotal", does: { kind: "plain" } },
  // Beside the specification's routes, in its conventions: dashboards' reads.
  { method: "GET", path: "/officers", operation: "Query.officers", does: { kind: "page" } },
  { method: "GET", path: "/officers/{identifier}", operation: "Query.officer", does: { kind: "data" } },
  { method: "GET", path: "/officers/{identifier}/dutytime", operation: "Query.officerDutytime", does: { kind: "page" } },
  { method: "GET", path: "/statistics/duty-hours", operation: "Query.dutyHours", does: { kind: "plain" } },
  { method: "GET", path: "/statistics/missions/per-day", operation: "Query.missionsPerDay", does: { kind: "plain" } },
  { method: "GET", path: "/statistics/files/per-day", operation: "Query.filesPerDay", does: { kind: "plain" } },
  { method: "GET", path: "/events", operation: "Query.events", does: { kind: "cursorPage" } },
];

/** The names of the operation's arguments a route's path gives. */
export const pathArgumentNames = (spec: Pick<RouteSpec, "path" | "arguments">): ReadonlySet<string> =>
  new Set([...spec.path.matchAll(/\{(\w+)\}/g)].map(([, segment]) => spec.arguments?.[segment] ?? segment));

/** The operations the REST routes run, for SOFA's configuration. */
export const restOperations = restRouteTable.map((route) => route.operation);

/** A REST route, with the operation it runs (the app checks a key's scopes for it before the body is read). */
export interface RestRoute extends Route<RestHandler> {
  operation: SofaOperation;
}

export function restRoutes(schema: GraphQLSchema, runnerOf: SofaRunners): RestRoute[] {
  const rootFields = { Query: schema.getQueryType()!.getFields(), Mutation: schema.getMutationType()!.getFields() };
  const argumentsOf = (spec: RouteSpec) => {
    const [root, field] = spec.operation.split(".") as ["Query" | "Mutation", string];
    return rootFields[root][field].args;
  };

  /** The contract's `{"data": ...}` around the operation's JSON, which is not parsed again. */
  const dataJson = (status: number, operationJson: string) => jsonText(status, `{"data":${operationJson}}`);

  /** The operation's arguments from the path's segments. */
  const pathArguments = (spec: RouteSpec, params: PathParams) => {
    const args: Record<string, string> = {};
    for (const segment of Object.keys(params)) args[spec.arguments?.[segment] ?? segment] = params[segment];
    return args;
  };

  /** A route's operation, its runner found once: runs it and answers with `respond`, or the contract's error. */
  type RunRoute = (rest: RestRequest, variables: Record<string, unknown>, respond: (json: string) => Reply, rename?: (field: string) => string) => Promise<Reply>;
  function runnerOfRoute(spec: RouteSpec): RunRoute {
    const runOperation = runnerOf(spec.operation);
    return async (rest, variables, respond, rename) => {
      const result = await runOperation(variables, rest.network, rest.key);
      return result.ok ? respond(result.json) : restErrorReply(result.errors, rename);
    };
  }

  /**
   * A GET's arguments: the path's, and the query string's for the others (errors under their REST
   * names). A route whose operation takes no other argument (get by id, the counts) reads no
   * query string: its answer needs no URL unless it is a page, whose links do.
   */
  function getHandler(spec: RouteSpec, run: RunRoute, respond: (url: URL | null, json: string) => Reply, needsUrl = false): RestHandler {
    const fromPath = pathArgumentNames(spec);
    const queryArgs = argumentsOf(spec).filter((arg) => !fromPath.has(arg.name));
    if (queryArgs.length === 0 && !needsUrl) return (rest) => run(rest, pathArguments(spec, rest.params), (json) => respond(null, json));
    const readQuery = queryReader(queryArgs);
    return async (rest) => {
      const url = rest.incoming.url();
      const check = new Validator();
      const variables = { ...readQuery(check, url), ...pathArguments(spec, rest.params) };
      return invalid(check) ?? run(rest, variables, (json) => respond(url, json), restNameOf);
    };
  }

  function handlerOf(spec: RouteSpec): RestHandler {
    const does = spec.does;
    const run = runnerOfRoute(spec);
    switch (does.kind) {
      case "page":
        return getHandler(spec, run, (url, json) => jsonText(200, laravelPageJson(url!, json)), true);
      case "cursorPage":
        return getHandler(spec, run, (url, json) => jsonText(200, laravelCursorPageJson(url!, json)), true);
      case "vehicleWrite": {
        const inputType = schema.getType(does.input) as GraphQLInputObjectType;
        return async (rest) => {
          const read = await readJsonObject(rest.incoming);
          if (!read.ok) return read.reply;
          const check = new Validator();
          const input = bodyToInput(check, read.body ?? {}, inputType);
          return invalid(check) ?? run(rest, { ...pathArguments(spec, rest.params), input }, (json) => dataJson(does.status, json));
        };
      }
      case "data":
        if (spec.method === "GET") return getHandler(spec, run, (_url, json) => dataJson(200, json));
        return async (rest) => {
          if (does.acceptsBody) {
            const read = await readJsonObject(rest.incoming);
            if (!read.ok) return read.reply;
          }
          return run(rest, pathArguments(spec, rest.params), (json) => dataJson(200, json));
        };
      case "plain":
        return getHandler(spec, run, (_url, json) => jsonText(200, json));
      case "none":
        return (rest) => run(rest, pathArguments(spec, rest.params), () => noContent());
    }
  }

  return restRouteTable.map((spec) => ({ method: spec.method, path: spec.path, operation: spec.operation, handler: handlerOf(spec) }));
}
