// The document's paths, generated: every route of the route table (src/rest/routes.ts) with its
// overlay (./overlays.ts), and the paths the overlays declare besides them (GraphQL, health, the
// docs, the dashboard). Added here, the same for every path: the success status and whether a
// body is read (from the route's kind), the path parameters (from the path template), the errors
// every route shares, a HEAD operation wherever GET is served (as src/rest/router.ts answers);
// on the paths that need the key (REST and /graphql) the scopes each REST operation needs (from
// its root field's declaration: ./scopes.ts) in its security requirement, `x-scopes` and 403, and
// an OPTIONS operation answering CORS preflights (src/server/cors.ts); and for each of OpenAPI's
// eight methods a path does not serve an operation answering 405 with `Allow` (tagged "Other
// methods"), so that every answer of the service has an operation. Building fails at module load
// when routes, overlays and components disagree.
import { pathArgumentNames, restRouteTable } from "../routes";
import { restSchema } from "./schemas";
import { queryParametersOf } from "./fromGraphQL";
import { parameters, requestBodies, responses } from "./components";
import { publicPaths, restOverlays, type Overlay, type PublicPath } from "./overlays";
import { bodyRef, headerRef, jsonContent, parameterRef, refName, responseRef, schemaRef } from "./refs";
import { schemas } from "./schemas";
import { neededText, operationScopes } from "./scopes";
import type { Scope } from "../../model/scopes";
import { operationMethods, type Method, type Operation, type Parameter, type PathItem, type Reference, type Response, type SecurityRequirement } from "./types";

type RestRoute = (typeof restRouteTable)[number];
type RouteKind = RestRoute["does"];
type HttpMethod = RestRoute["method"];

export interface DocumentedRoute {
  method: HttpMethod;
  path: string;
}

/** The overlay key of a route: "GET /vehicles". */
export const routeKey = ({ method, path }: DocumentedRoute) => `${method} ${path}`;

/**
 * A key, sent either way (one of the two requirements suffices), that holds these scopes: OpenAPI
 * 3.1 lets a requirement of a scheme other than OAuth name the roles it needs.
 */
export const keyWithScopes = (scopes: readonly string[]): SecurityRequirement[] => [{ ApiKeyHeader: [...scopes] }, { BearerAuth: [...scopes] }];

/** Every REST route and /graphql needs a key (each REST operation names its scopes too). */
export const apiKeyAuth: SecurityRequirement[] = keyWithScopes([]);

/** Where the key is optional (GraphiQL's page): either way of sending it, or none. */
const keyOptionalAuth: SecurityRequirement[] = [...apiKeyAuth, {}];

type ErrorShape = PublicPath["errorShape"];

/**
 * The errors every path of a shape answers alike: without or with a bad key, without the scope
 * or from an origin the key does not list, over the rate limit, with the database down
 * (authenticated paths); reading a body (paths that read one); a method the path does not serve.
 * In the contract's `{"message"}`, or GraphQL's `{"errors"}`.
 */
const sharedErrors: Record<ErrorShape, { authenticated: Record<string, Reference>; body: Record<string, Reference>; methodNotAllowed: string }> = {
  contract: {
    authenticated: {
      "401": responseRef("Unauthenticated"),
      "403": responseRef("Forbidden"),
      "429": responseRef("TooManyRequests"),
      "503": responseRef("ServiceUnavailable"),
    },
    body: { "400": responseRef("MalformedJson"), "413": responseRef("BodyTooLarge"), "415": responseRef("UnsupportedMediaType") },
    methodNotAllowed: "MethodNotAllowed",
  },
  graphql: {
    authenticated: {
      "401": responseRef("GraphQLUnauthenticated"),
      "403": responseRef("GraphQLForbidden"),
      "429": responseRef("GraphQLTooManyRequests"),
      "503": responseRef("GraphQLServiceUnavailable"),
    },
    body: { "400": responseRef("GraphQLBadRequest"), "413": responseRef("GraphQLBodyTooLarge"), "415": responseRef("GraphQLUnsupportedMediaType") },
    methodNotAllowed: "GraphQLMethodNotAllowed",
  },
};

/** The tag of the operations of the methods a path does not serve; the document lists it last. */
export const otherMethodsTag = {
  name: "Other methods",
  description:
    "Every path answers 405 Method Not Allowed, with Allow, to a method it does not serve; listed so that each answer has an operation.",
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

/** The methods a path with these methods answers: them, and HEAD where GET is served (as the router answers). */
export const servedOf = (methods: readonly string[]) => [...methods, ...(methods.includes("GET") && !methods.includes("HEAD") ? ["HEAD"] : [])];

/** The `Allow` header of a path with these methods. */
export const allowOf = (methods: readonly string[]) => servedOf(methods).join(", ");

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

/** What a path shares among its operations: REST paths are authenticated, in the contract's shape. */
interface DocumentedPath {
  path: string;
  tag: string;
  /** The key, and 401, 429, 503: the REST routes and /graphql. */
  authenticated: boolean;
  errorShape: ErrorShape;
  anyMethod: Record<string, Response | Reference>;
}

interface Documented extends DocumentedRoute {
  overlay: Overlay;
  /** Its GraphQL operation (REST routes), and the argument each path segment gives where their names differ. */
  operation?: RestRoute["operation"];
  arguments?: RestRoute["arguments"];
  status: number;
  readsBody: boolean;
  on: DocumentedPath;
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

/** The headers of an answer to a key that lists the request's Origin (src/server/cors.ts withCors). */
const corsAnswerHeaders = { "Access-Control-Allow-Origin": headerRef("AccessControlAllowOrigin"), Vary: headerRef("Vary") };

/** A REST operation's 403: the scopes it needs, and the key's origins. */
const forbiddenOf = (scopes: readonly Scope[]): Reference => ({
  ...responseRef("Forbidden"),
  description:
    `${neededText(scopes)} A key ${scopes.length === 0 ? "" : `without ${scopes.length > 1 ? "them" : "it"}, or one `}that lists origins ` +
    "none of which is the request's `Origin`, gets 403 before the body is read; nothing ran.",
});

function operationOf(route: Documented): Operation {
  const { overlay, status, on } = route;
  const where = routeKey(route);
  const query = queryParameters(route);
  if (route.readsBody !== (overlay.requestBody !== undefined)) {
    fail(`${where} ${route.readsBody ? "reads a body but its overlay has no requestBody" : "reads no body but its overlay has a requestBody"}`);
  }
  const { schema, example, content } = overlay.success;
  if (schema !== undefined && content !== undefined) fail(`${where}: a success schema or content, not both`);
  if ((status === 204) !== (schema === undefined && content === undefined)) fail(`${where}: a success body exactly when the status is not 204 (it is ${status})`);
  if (overlay.keyOptional && !on.authenticated) fail(`${where}: keyOptional on a path that needs no key`);
  if (route.operation && !on.authenticated) fail(`${where}: a REST operation on a path that needs no key`);
  // A page of another origin reads the success of a key that lists it.
  const success: Response = { description: overlay.success.description, ...(on.authenticated && { headers: corsAnswerHeaders }) };
  if (schema) success.content = jsonContent(schemaRef(need(schemas, "schema", schema, where)), example);
  if (content) success.content = content;
  const shared = sharedErrors[on.errorShape];
  // A REST route's scopes, from its root field; /graphql's depend on the operation sent (its 403 lists them).
  const scopes = route.operation ? operationScopes(route.operation) : undefined;
  const description = [overlay.description, scopes && neededText(scopes)].filter((part) => part !== undefined).join("\n\n");
  return {
    operationId: overlay.operationId,
    tags: [on.tag],
    summary: overlay.summary,
    ...(description !== "" && { description }),
    security: !on.authenticated ? [] : overlay.keyOptional ? keyOptionalAuth : scopes ? keyWithScopes(scopes) : apiKeyAuth,
    ...(scopes && { "x-scopes": scopes }),
    ...(query && { parameters: query }),
    ...(overlay.requestBody && { requestBody: bodyRef(need(requestBodies, "request body", overlay.requestBody, where)) }),
    responses: {
      [status]: success,
      ...(route.readsBody ? shared.body : {}),
      ...(on.authenticated ? shared.authenticated : {}),
      ...(scopes && { "403": forbiddenOf(scopes) }),
      "404": responseRef("PathNotFound"),
      ...on.anyMethod,
      ...overlay.errors,
    },
  };
}

/** "/statistics/missions/last-7-days" as "StatisticsMissionsLast7Days": the path's words, for operationIds. */
const pathWords = (path: string) =>
  path
    .split(/[^A-Za-z0-9]+/)
    .filter((word) => word !== "")
    .map(capitalized)
    .join("");

/**
 * The operation of a method the path does not serve: 405 with `Allow` (in the path's error
 * shape), answered before the key is checked, so none is needed; besides it only what the path
 * answers to every method first (an unknown file's 404).
 */
function notServedOf(on: DocumentedPath, method: Method, allow: string): Operation {
  const name = method.toUpperCase();
  const notAllowed = {
    ...responseRef(sharedErrors[on.errorShape].methodNotAllowed),
    description:
      `${on.path} answers ${allow}; ${name} answers 405, with them in \`Allow\`` +
      (on.authenticated ? ", before the API key is checked (OPTIONS answers CORS preflights only)." : "."),
  };
  return {
    operationId: `${method}${pathWords(on.path)}NotAllowed`,
    tags: [otherMethodsTag.name],
    summary: `Not served: 405 (the path answers ${allow})`,
    security: [],
    responses: { ...on.anyMethod, "405": notAllowed },
  };
}

/**
 * OPTIONS of a path that needs the key: a CORS preflight, answered from the origins the valid
 * keys list, without a key (src/server/cors.ts); without Access-Control-Request-Method it is no
 * preflight but a method the path does not serve (405, in the path's error shape). The preflight's
 * own answers are in the contract's shape on every path, /graphql's too.
 */
function preflightOf(on: DocumentedPath, allow: string): Operation {
  return {
    operationId: `preflight${pathWords(on.path)}`,
    tags: [on.tag],
    summary: `CORS preflight: may a page of this origin send ${allow}?`,
    description:
      "What a browser asks before it sends a request from a page of another origin. Answered without a key, from the " +
      "origins the valid keys list: 204 with the CORS headers when one lists the `Origin`, else 403. The request itself " +
      "then needs a key that lists that origin.",
    security: [],
    parameters: [parameterRef("Origin"), parameterRef("AccessControlRequestMethod")],
    responses: {
      "204": {
        ...responseRef("PreflightAllowed"),
        description: `A valid key lists the \`Origin\`: the browser may send the request (\`Access-Control-Allow-Methods: ${allow}\`). No body.`,
      },
      "403": responseRef("PreflightRefused"),
      "404": responseRef("PathNotFound"),
      "405": {
        ...responseRef(sharedErrors[on.errorShape].methodNotAllowed),
        description: `No preflight (no \`Access-Control-Request-Method\`): OPTIONS is no method ${on.path} serves; 405 with \`Allow: ${allow}\`.`,
      },
      "503": { ...responseRef("ServiceUnavailable"), description: "The database is unavailable: the keys' origins could not be read." },
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

const withoutBodies = (responses: Operation["responses"]) =>
  Object.fromEntries(Object.entries(responses).map(([status, response]) => [status, withoutBody(response)]));

/** HEAD of a GET route: the same parameters, scopes and statuses, no bodies. */
const headOf = (get: Operation): Operation => ({
  operationId: `${get.operationId}Head`,
  tags: get.tags,
  summary: `${get.summary} (headers only)`,
  description: ["Answers as GET does, with the same status and headers, and no body.", get["x-scopes"] && neededText(get["x-scopes"])].filter(Boolean).join("\n\n"),
  security: get.security,
  ...(get["x-scopes"] && { "x-scopes": get["x-scopes"] }),
  ...(get.parameters && { parameters: get.parameters }),
  responses: withoutBodies(get.responses),
});

/** The documented routes: the route table's, then the public paths'. */
function documentedRoutes(tags: readonly string[]): Documented[] {
  const problems = overlayMismatches(restRouteTable, restOverlays);
  if (problems.length > 0) fail(`the overlays (src/rest/openapi/overlays.ts) and restRouteTable disagree:\n  ${problems.join("\n  ")}`);
  const tagged = (path: string, tag: string) => (tags.includes(tag) ? tag : fail(`${path}: tag "${tag}" is not in the document's tags`));
  const restPaths = new Map<string, DocumentedPath>();
  const onRestPath = (path: string) => {
    let on = restPaths.get(path);
    // REST paths: the key, the contract's error shape, tagged by their first segment, capitalized.
    if (!on) restPaths.set(path, (on = { path, tag: tagged(path, capitalized(path.split("/")[1])), authenticated: true, errorShape: "contract", anyMethod: {} }));
    return on;
  };
  const rest = restRouteTable.map((route) => ({
    method: route.method,
    path: route.path,
    overlay: restOverlays[routeKey(route)],
    operation: route.operation,
    arguments: route.arguments,
    status: successStatus(route.does),
    readsBody: readsBody(route.does),
    on: onRestPath(route.path),
  }));
  const publicOnes = Object.entries(publicPaths).flatMap(([path, declared]) => {
    if (restPaths.has(path)) fail(`public path ${path}: a REST route has that path`);
    const overlays = Object.entries(declared.operations) as [HttpMethod, Overlay][];
    if (overlays.length === 0) fail(`public path ${path}: no operation`);
    const on: DocumentedPath = {
      path,
      tag: tagged(path, declared.tag),
      authenticated: declared.authenticated === true,
      errorShape: declared.errorShape,
      anyMethod: declared.anyMethod ?? {},
    };
    // A public path reads a body exactly where its overlay declares one: it has no route kind.
    return overlays.map(([method, overlay]) => ({ method, path, overlay, status: 200, readsBody: overlay.requestBody !== undefined, on }));
  });
  return [...rest, ...publicOnes];
}

/**
 * The paths object: per path its parameters, then its operations in the table's order (HEAD
 * after GET), the CORS preflight (OPTIONS) where the key is needed, then one answering 405 for
 * each OpenAPI method the path does not serve.
 */
export function buildPaths(tags: readonly string[]): Record<string, PathItem> {
  const routes = documentedRoutes(tags);
  if (!tags.includes(otherMethodsTag.name)) fail(`the document's tags lack "${otherMethodsTag.name}"`);
  const paths: Record<string, PathItem> = {};
  const operationIds = new Set<string>();
  const put = (item: PathItem, method: Method, operation: Operation) => {
    if (item[method]) fail(`${method.toUpperCase()} is documented twice on one path (${operation.operationId})`);
    if (operationIds.has(operation.operationId)) fail(`operationId "${operation.operationId}" is used twice`);
    operationIds.add(operation.operationId);
    item[method] = operation;
  };
  for (const path of new Set(routes.map((route) => route.path))) {
    const onPath = routes.filter((route) => route.path === path);
    const on = onPath[0].on;
    const served = [...servedOf(onPath.map((route) => route.method)), ...(on.authenticated ? ["OPTIONS"] : [])].map((method) => method.toLowerCase());
    const unknown = served.filter((method) => !(operationMethods as readonly string[]).includes(method));
    if (unknown.length > 0) fail(`${path}: ${unknown.join(", ")} is no OpenAPI method`);
    const parameters = pathParameters(path);
    const item: PathItem = parameters.length > 0 ? { parameters } : {};
    for (const route of onPath) {
      const operation = operationOf(route);
      put(item, route.method.toLowerCase() as Method, operation);
      if (route.method === "GET") put(item, "head", headOf(operation));
    }
    // Allow names the methods of requests, not OPTIONS: a preflight is a browser's question about them.
    const allow = allowOf(onPath.map((route) => route.method));
    if (on.authenticated) put(item, "options", preflightOf(on, allow));
    for (const method of operationMethods) {
      if (served.includes(method)) continue;
      const refused = notServedOf(on, method, allow);
      put(item, method, method === "head" ? { ...refused, responses: withoutBodies(refused.responses) } : refused);
    }
    paths[path] = item;
  }
  return paths;
}
