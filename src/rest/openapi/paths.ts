// The document's paths, generated: every route of the route table (src/rest/routes.ts) with its
// overlay (./overlays.ts), and the public endpoints the overlays describe. Added here, the same
// for every route: the success status and whether a body is read (from the route's kind), the
// path parameters (from the path template), the errors every route shares, 404 and 405 with
// `Allow` on every path, and a HEAD operation wherever GET is served (as src/rest/router.ts
// answers). Building fails at module load when routes, overlays and components disagree.
import { pathArgumentNames, restRouteTable } from "../routes";
import { restSchema } from "./schemas";
import { queryParametersOf } from "./fromGraphQL";
import { parameters, requestBodies, responses } from "./components";
import { publicOverlays, restOverlays, type Overlay } from "./overlays";
import { bodyRef, jsonContent, parameterRef, refName, responseRef, schemaRef } from "./refs";
import { schemas } from "./schemas";
import type { Method, Operation, Parameter, PathItem, Reference, Response, SecurityRequirement } from "./types";

type RestRoute = (typeof restRouteTable)[number];
type RouteKind = RestRoute["does"];
type HttpMethod = RestRoute["method"];

export interface DocumentedRoute {
  method: HttpMethod;
  path: string;
}

/** The overlay key of a route: "GET /vehicles". */
export const routeKey = ({ method, path }: DocumentedRoute) => `${method} ${path}`;

/** Every REST route needs the key, sent either way (one of the two requirements suffices). */
export const apiKeyAuth: SecurityRequirement[] = [{ ApiKeyHeader: [] }, { BearerAuth: [] }];

/** Errors every authenticated route can answer: no or bad key, rate limit, database down. */
const authenticatedErrors = {
  "401": responseRef("Unauthenticated"),
  "429": responseRef("TooManyRequests"),
  "503": responseRef("ServiceUnavailable"),
};

/** Errors of reading a JSON body (routes that accept one). */
const bodyErrors = {
  "400": responseRef("MalformedJson"),
  "413": responseRef("BodyTooLarge"),
  "415": responseRef("UnsupportedMediaType"),
};

/** The status of a route's success, from its kind (src/rest/routes.ts). */
export function successStatus(does: RouteKind): number {
  switch (does.kind) {
    case "vehicleWrite":
      return does.status;
    case "none":
      return 204;
    default:
      return 200;
  }
}

/** Whether a route reads a JSON body (and so may answer 400, 413 and 415). */
export const readsBody = (does: RouteKind) => does.kind === "vehicleWrite" || (does.kind === "data" && does.acceptsBody === true);

/** The `Allow` header of a path with these methods: them, and HEAD where GET is served (as the router answers). */
export const allowOf = (methods: readonly string[]) => [...methods, ...(methods.includes("GET") ? ["HEAD"] : [])].join(", ");

/** What keeps routes and overlays from matching one to one; empty when they do. */
export function overlayMismatches(routes: readonly DocumentedRoute[], overlays: Record<string, unknown>): string[] {
  const keys = routes.map(routeKey);
  return [
    ...keys.filter((key, index) => keys.indexOf(key) !== index).map((key) => `route listed twice: ${key}`),
    ...keys.filter((key) => !(key in overlays)).map((key) => `route without overlay: ${key}`),
    ...Object.keys(overlays).filter((key) => !keys.includes(key)).map((key) => `overlay without route: ${key}`),
  ];
}

const capitalized = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

function fail(message: string): never {
  throw new Error(`OpenAPI document: ${message}`);
}

function need(components: Record<string, unknown>, kind: string, name: string, where: string): string {
  return name in components ? name : fail(`${where} names ${kind} "${name}", which is not a component`);
}

/** The path's `{name}` segments (the router's syntax), each the parameter component of its name capitalized. */
function pathParameters(path: string): Reference[] {
  return [...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => {
    const component = parameters[capitalized(name)];
    if (!component || component.in !== "path" || component.name !== name) fail(`${path}: no path parameter component "${capitalized(name)}" named "${name}"`);
    return parameterRef(capitalized(name));
  });
}

interface Documented extends DocumentedRoute {
  overlay: Overlay;
  /** Its GraphQL operation (REST routes), and the argument each path segment gives where their names differ. */
  operation?: RestRoute["operation"];
  arguments?: RestRoute["arguments"];
  status: number;
  readsBody: boolean;
  /** REST routes: the key, 401, 429, 503. The public endpoints: none of them. */
  authenticated: boolean;
  tag: string;
}

/**
 * A GET route's query parameters: the overlay's components where it names them (GET /vehicles,
 * whose parameters say more than its arguments do), else its operation's arguments the path does
 * not give.
 */
function queryParameters(route: Documented): (Parameter | Reference)[] | undefined {
  const where = routeKey(route);
  if (route.overlay.parameters) return route.overlay.parameters.map((name) => parameterRef(need(parameters, "parameter", name, where)));
  if (route.method !== "GET" || !route.operation) return undefined;
  const [root, field] = route.operation.split(".") as ["Query" | "Mutation", string];
  const rootType = root === "Query" ? restSchema.getQueryType()! : restSchema.getMutationType()!;
  const derived = queryParametersOf(rootType.getFields()[field].args, pathArgumentNames(route));
  return derived.length > 0 ? derived : undefined;
}

function operationOf(route: Documented, allow: string): Operation {
  const { overlay, status } = route;
  const where = routeKey(route);
  const query = queryParameters(route);
  if (route.readsBody !== (overlay.requestBody !== undefined)) {
    fail(`${where} ${route.readsBody ? "reads a body but its overlay has no requestBody" : "reads no body but its overlay has a requestBody"}`);
  }
  if ((status === 204) !== (overlay.success.schema === undefined)) fail(`${where}: a success schema exactly when the status is not 204 (it is ${status})`);
  const success: Response = { description: overlay.success.description };
  if (overlay.success.schema) {
    success.content = jsonContent(schemaRef(need(schemas, "schema", overlay.success.schema, where)), overlay.success.example);
  }
  return {
    operationId: overlay.operationId,
    tags: [route.tag],
    summary: overlay.summary,
    ...(overlay.description !== undefined && { description: overlay.description }),
    security: route.authenticated ? apiKeyAuth : [],
    ...(query && { parameters: query }),
    ...(overlay.requestBody && { requestBody: bodyRef(need(requestBodies, "request body", overlay.requestBody, where)) }),
    responses: {
      [status]: success,
      ...(route.readsBody ? bodyErrors : {}),
      ...(route.authenticated ? authenticatedErrors : {}),
      "404": responseRef("PathNotFound"),
      "405": {
        ...responseRef("MethodNotAllowed"),
        description:
          `This path answers ${allow}; any other method answers 405 with \`Allow: ${allow}\`` +
          (route.authenticated ? ", before the API key is checked." : "."),
      },
      ...overlay.errors,
    },
  };
}

/** A response as HEAD answers it: the same description and headers, no body. */
function withoutBody(response: Response | Reference): Response {
  const name = refName("responses", response);
  const resolved = name === null ? (response as Response) : (responses[name] ?? fail(`no response component "${name}"`));
  const description = (response as Partial<Reference>).description ?? resolved.description;
  return { description, ...(resolved.headers && { headers: resolved.headers }) };
}

/** HEAD of a GET route: the same parameters and statuses, no bodies. */
const headOf = (get: Operation): Operation => ({
  operationId: `${get.operationId}Head`,
  tags: get.tags,
  summary: `${get.summary} (headers only)`,
  description: "Answers as GET does, with the same status and headers, and no body.",
  security: get.security,
  ...(get.parameters && { parameters: get.parameters }),
  responses: Object.fromEntries(Object.entries(get.responses).map(([status, response]) => [status, withoutBody(response)])),
});

/** The documented routes: the route table's, then the public endpoints'. */
function documentedRoutes(tags: readonly string[]): Documented[] {
  const problems = overlayMismatches(restRouteTable, restOverlays);
  if (problems.length > 0) fail(`the overlays (src/rest/openapi/overlays.ts) and restRouteTable disagree:\n  ${problems.join("\n  ")}`);
  const tagOf = (path: string) => {
    const tag = capitalized(path.split("/")[1]);
    return tags.includes(tag) ? tag : fail(`${path}: no tag "${tag}" (the first segment, capitalized)`);
  };
  const rest = restRouteTable.map((route) => ({
    method: route.method,
    path: route.path,
    overlay: restOverlays[routeKey(route)],
    operation: route.operation,
    arguments: route.arguments,
    status: successStatus(route.does),
    readsBody: readsBody(route.does),
    authenticated: true,
    tag: tagOf(route.path),
  }));
  const restPaths = new Set(restRouteTable.map((route) => route.path));
  const publicOnes = Object.entries(publicOverlays).map(([key, overlay]) => {
    const [method, path] = key.split(" ") as [HttpMethod, string];
    if (method !== "GET" || restPaths.has(path)) fail(`public endpoint ${key}: only GET, on a path of no REST route`);
    return { method, path, overlay, status: 200, readsBody: false, authenticated: false, tag: "Health" };
  });
  return [...rest, ...publicOnes];
}

/** The paths object: per path its parameters, then its operations in the table's order (HEAD after GET). */
export function buildPaths(tags: readonly string[]): Record<string, PathItem> {
  const routes = documentedRoutes(tags);
  const paths: Record<string, PathItem> = {};
  const operationIds = new Set<string>();
  for (const path of new Set(routes.map((route) => route.path))) {
    const onPath = routes.filter((route) => route.path === path);
    const allow = allowOf(onPath.map((route) => route.method));
    const parameters = pathParameters(path);
    const item: PathItem = parameters.length > 0 ? { parameters } : {};
    for (const route of onPath) {
      const operation = operationOf(route, allow);
      const operations: [Method, Operation][] = [[route.method.toLowerCase() as Method, operation]];
      if (route.method === "GET") operations.push(["head", headOf(operation)]);
      for (const [method, built] of operations) {
        if (operationIds.has(built.operationId)) fail(`operationId "${built.operationId}" is used twice`);
        operationIds.add(built.operationId);
        item[method] = built;
      }
    }
    paths[path] = item;
  }
  return paths;
}
