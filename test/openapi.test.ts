// The OpenAPI document (src/rest/openapi/) against what it is generated from and what the server
// does: the route table and its overlays match one to one, every path of the route table and of
// the public paths is in the served /openapi.json with an operation for each of OpenAPI's eight
// methods (the served ones, HEAD wherever GET is, OPTIONS as the CORS preflight where the key is
// needed, and 405 with Allow for the others), each REST operation names the scopes fieldScopes
// (src/schema/scopes.ts) gives its root field, and every operation that needs the key
// documents 403; a real service answers every method on every path, with and without a key, with
// keys lacking scopes, from listed and unlisted origins, and to real preflights, with a status and
// a Content-Type (and the CORS headers) its operation documents; every $ref resolves, the schemas
// the REST routes pass through agree with the GraphQL types as REST sees them (src/rest/sofa.ts
// restView: the schema without the fields marked restOmitted), every GET route's query parameters
// are its operation's arguments, and the plate's pattern accepts exactly the plates the server accepts.
import { adminScope } from "../src/admin/keys";
import http from "node:http";
import fc from "fast-check";
import {
  getNamedType,
  isEnumType,
  isListType,
  isNonNullType,
  isObjectType,
  type GraphQLInputType,
  type GraphQLObjectType,
  type GraphQLOutputType,
} from "graphql";
import type { Database } from "../src/db/client";
import { vehicleFields } from "../src/model/vehicleFields";
import { vehicleChanges } from "../src/resolvers/vehicleInput";
import { grants, scopeMeanings, scopeNames, type Scope } from "../src/model/scopes";
import { createKey } from "../src/resolvers/apiKeys";
import { publicPaths, restOverlays } from "../src/rest/openapi/overlays";
import { keyWithScopes, otherMethodsTag, overlayMismatches, routeKey } from "../src/rest/openapi/paths";
import { operationMethods, type Method, type OpenApiDocument, type Operation, type Parameter, type Reference, type RequestBody, type Response, type Schema } from "../src/rest/openapi/types";
import { createRouter } from "../src/rest/router";
import { restRouteTable } from "../src/rest/routes";
import { restView } from "../src/rest/sofa";
import { schema as fullSchema } from "../src/schema";
import { corsAllowedHeaders, corsMaxAgeSeconds } from "../src/rest/corsHeaders";
import { fieldScopes } from "../src/schema/scopes";
import { isPublicPath, publicEndpoints } from "../src/server/publicEndpoints";
import { startService, type TestNetwork, type TestService } from "./support/service";

/** The public endpoints without a database: /openapi.json and their 405s need none. */
const servePublic = publicEndpoints({} as Database);

async function servedPublic(method: string, pathname: string) {
  const url = new URL(pathname, "http://localhost");
  const response = await servePublic(method, url);
  if (!response) throw new Error(`no public endpoint at ${pathname}`);
  return response;
}

let document: OpenApiDocument;
beforeAll(async () => {
  const response = await servedPublic("GET", "/openapi.json");
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toMatch(/^application\/json/);
  document = await response.json();
});

/** Every operation of the document, with its path and (lower-case) method. */
function operations(): { path: string; method: Method; operation: Operation }[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    operationMethods.flatMap((method) => {
      const operation = (item as Record<string, Operation | undefined>)[method];
      return operation ? [{ path, method, operation }] : [];
    }),
  );
}

/** Whether the operation is one of a method its path does not serve (405); false for none. */
const refusesMethod = (operation: Operation | undefined) => operation?.tags.includes(otherMethodsTag.name) === true;

/** The operations of the methods each path serves. */
const servedOperations = () => operations().filter((entry) => !refusesMethod(entry.operation));

/** The paths that need the key, from the route table and the public paths: REST's and /graphql. */
const keyedPaths = () => new Set([...restRouteTable.map((route) => route.path), ...Object.keys(publicPaths).filter((path) => publicPaths[path].authenticated === true)]);

/** Whether the path needs the key and this is its OPTIONS, the CORS preflight's operation. */
const isPreflightOperation = (path: string, method: string) => method === "options" && keyedPaths().has(path);

/** The operations of requests a key makes: the served ones of the paths that need the key, but their preflights. */
const keyedOperations = () => servedOperations().filter(({ path, method }) => keyedPaths().has(path) && !isPreflightOperation(path, method));

/**
 * What each path answers, from the route table and the public paths (src/rest/openapi/overlays.ts),
 * in lower case: the methods declared there, and HEAD wherever GET is (`Allow` names these).
 */
function declaredMethods(): Map<string, string[]> {
  const served = new Map<string, string[]>();
  const add = (path: string, method: string) => served.set(path, [...(served.get(path) ?? []), method.toLowerCase()]);
  for (const route of restRouteTable) add(route.path, route.method);
  for (const [path, declared] of Object.entries(publicPaths)) for (const method of Object.keys(declared.operations)) add(path, method);
  for (const list of served.values()) if (list.includes("get")) list.push("head");
  return served;
}

/** The methods each path has an operation of its own for: the declared ones, and OPTIONS (preflights) where the key is needed. */
function servedMethods(): Map<string, string[]> {
  const served = declaredMethods();
  for (const path of keyedPaths()) served.get(path)!.push("options");
  return served;
}

/** The route a REST operation runs (HEAD: its GET's), or undefined. */
const routeOf = (path: string, method: string) => restRouteTable.find((route) => route.path === path && route.method.toLowerCase() === (method === "head" ? "get" : method));

/** The methods a 405 operation's description says its path answers ("/x answers GET, HEAD; ..."). */
function describedAllow(operation: Operation): string[] | undefined {
  const response = operation.responses["405"];
  // A $ref's own description overrides the component's.
  const description = (response as Partial<Reference>).description ?? resolve<Response>(response).description;
  return /answers ([A-Z, ]+);/.exec(description)?.[1].split(", ").sort();
}

/** The object a local $ref points to (JSON pointer into the document); the object itself when it is none. */
function resolve<T>(value: T | Reference): T {
  const ref = (value as Partial<Reference>).$ref;
  if (ref === undefined) return value as T;
  expect(ref).toMatch(/^#\//);
  let target: unknown = document;
  for (const part of ref.slice(2).split("/")) {
    target = (target as Record<string, unknown> | undefined)?.[part.replace(/~1/g, "/").replace(/~0/g, "~")];
  }
  if (target === undefined) throw new Error(`unresolved $ref ${ref}`);
  return resolve(target as T | Reference);
}

const schemaName = (value: unknown) => {
  const ref = (value as Partial<Reference>).$ref ?? "";
  expect(ref).toMatch(/^#\/components\/schemas\//);
  return ref.slice("#/components/schemas/".length);
};

/** A path of the template, with a value in each `{name}` segment. */
const concrete = (template: string) => template.replace(/\{\w+\}/g, "1");

/** The router of the route table, with no handlers: only its 404, 405 and matches are looked at. */
const matchRoute = createRouter(restRouteTable.map((route) => ({ method: route.method, path: route.path, handler: null })));

/** What the server answers to a method the path does not serve: the Allow header and the message. */
async function refusal(method: string, template: string): Promise<{ status: number; allow: string | null; message: string }> {
  if (isPublicPath(template)) {
    const response = await servedPublic(method, template);
    return { status: response.status, allow: response.headers.get("allow"), message: (await response.json()).message };
  }
  const match = matchRoute(method, concrete(template));
  if (!match || !("reply" in match)) throw new Error(`${method} ${template} was not refused`);
  return { status: match.reply.status, allow: match.reply.headers.Allow ?? null, message: JSON.parse(match.reply.body!).message };
}

describe("the overlays and the route table", () => {
  test("every route has an overlay and every overlay a route", () => {
    expect(overlayMismatches(restRouteTable, restOverlays)).toEqual([]);
    expect(Object.keys(restOverlays).sort()).toEqual(restRouteTable.map(routeKey).sort());
  });

  test("a missing overlay, an overlay without route and a route listed twice are each named", () => {
    const { ["GET /vehicles"]: _left, ...withoutOne } = restOverlays;
    expect(overlayMismatches(restRouteTable, withoutOne)).toEqual(["route without overlay: GET /vehicles"]);
    expect(overlayMismatches(restRouteTable, { ...restOverlays, "GET /nowhere": restOverlays["GET /vehicles"] })).toEqual([
      "overlay without route: GET /nowhere",
    ]);
    expect(overlayMismatches([...restRouteTable, restRouteTable[0]], restOverlays)).toEqual([`route listed twice: ${routeKey(restRouteTable[0])}`]);
  });

  test("the document fails to load when a route has no overlay", () => {
    jest.isolateModules(() => {
      jest.doMock("../src/rest/openapi/overlays", () => {
        const actual = jest.requireActual("../src/rest/openapi/overlays");
        const { ["DELETE /vehicles/{vehicle}"]: _left, ...restOverlays } = actual.restOverlays;
        return { ...actual, restOverlays };
      });
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded anew under the mock above
      expect(() => require("../src/rest/openapi/document")).toThrow(/route without overlay: DELETE \/vehicles\/\{vehicle\}/);
    });
  });

  test("the served document is the one the module builds", async () => {
    const { openApiDocument } = await import("../src/rest/openapi/document");
    expect(document).toEqual(JSON.parse(JSON.stringify(openApiDocument())));
    expect(document.openapi).toBe("3.1.0");
  });
});

describe("paths and methods of /openapi.json", () => {
  test("every route of restRouteTable is there with its method, and HEAD wherever GET is", () => {
    for (const route of restRouteTable) {
      const item = document.paths[route.path] as Record<string, Operation | undefined>;
      const where = routeKey(route);
      expect({ where, operationId: item?.[route.method.toLowerCase()]?.operationId }).toEqual({ where, operationId: restOverlays[where].operationId });
      if (route.method === "GET") expect({ where, head: item.head?.operationId }).toEqual({ where, head: `${restOverlays[where].operationId}Head` });
    }
  });

  test("every path of the route table and the public paths is there, each with an operation for every OpenAPI method", () => {
    const expected = [...new Set([...restRouteTable.map((route) => route.path), ...Object.keys(publicPaths)])];
    expect(Object.keys(document.paths).sort()).toEqual(expected.sort());
    for (const [path, item] of Object.entries(document.paths)) {
      const documented = operationMethods.filter((method) => method in item);
      expect({ path, methods: documented }).toEqual({ path, methods: [...operationMethods] });
    }
    expect(operations()).toHaveLength(expected.length * operationMethods.length);
  });

  test("the methods each path serves are the route table's (or the public path's), plus HEAD for GET and OPTIONS where the key is needed; every other answers 405", () => {
    const served = servedMethods();
    const allowed = declaredMethods();
    for (const [path, item] of Object.entries(document.paths)) {
      const own = operationMethods.filter((method) => !refusesMethod(item[method]));
      expect({ path, served: own.sort() }).toEqual({ path, served: served.get(path)!.sort() });
      for (const method of operationMethods.filter((each) => refusesMethod(item[each]))) {
        const operation = item[method]!;
        const where = `${method} ${path}`;
        expect({ where, tags: operation.tags, security: operation.security }).toEqual({ where, tags: [otherMethodsTag.name], security: [] });
        // Allow names the methods of requests: OPTIONS only answers preflights.
        expect({ where, allow: describedAllow(operation) }).toEqual({ where, allow: allowed.get(path)!.map((each) => each.toUpperCase()).sort() });
      }
    }
  });

  test("the paths outside the route table are /graphql and the public endpoints; only REST and /graphql need the key, with the scopes of the REST operation's root field (preflights none)", () => {
    const restPaths = new Set(restRouteTable.map((route) => route.path));
    expect(document.security).toEqual([{ ApiKeyHeader: [] }, { BearerAuth: [] }]);
    for (const path of Object.keys(document.paths)) {
      expect({ path, public: isPublicPath(path) }).toEqual({ path, public: !restPaths.has(path) && path !== "/graphql" });
      for (const { method, operation } of servedOperations().filter((entry) => entry.path === path)) {
        const route = routeOf(path, method);
        const security = isPreflightOperation(path, method)
          ? []
          : route
            ? keyWithScopes(fieldScopes(fullSchema, route.operation))
            : path === "/graphql"
              ? expect.arrayContaining(document.security)
              : [];
        expect({ path, method, security: operation.security }).toEqual({ path, method, security });
      }
    }
    // GraphiQL's page needs no key: GET and HEAD /graphql list the empty requirement besides the key.
    expect(document.paths["/graphql"].get!.security).toContainEqual({});
    expect(document.paths["/graphql"].post!.security).toEqual(document.security);
  });

  test("the path template's parameters are declared on the path, required", () => {
    for (const [path, item] of Object.entries(document.paths)) {
      const names = [...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => name);
      const declared = (item.parameters ?? []).map((parameter) => resolve(parameter)).filter((parameter) => parameter.in === "path");
      expect({ path, names: declared.map((parameter) => parameter.name) }).toEqual({ path, names });
      for (const parameter of declared) expect({ path, name: parameter.name, required: parameter.required }).toEqual({ path, name: parameter.name, required: true });
    }
  });
});

describe("404 and 405 on every path", () => {
  test("every served operation documents 404; every other method's operation 405 with the Allow header, and nothing else but an unknown file's 404", () => {
    expect(servedOperations().length).toBeGreaterThan(restRouteTable.length);
    for (const { path, method, operation } of operations()) {
      const where = `${method} ${path}`;
      const statuses = Object.keys(operation.responses);
      if (!refusesMethod(operation)) {
        expect({ where, statuses }).toEqual({ where, statuses: expect.arrayContaining(["404"]) });
        expect({ where, description: typeof resolve<Response>(operation.responses["404"]).description }).toEqual({ where, description: "string" });
        continue;
      }
      const unknownFile = path.includes("{file}");
      expect({ where, statuses: statuses.sort() }).toEqual({ where, statuses: unknownFile ? ["404", "405"] : ["405"] });
      const notAllowed = resolve<Response>(operation.responses["405"]);
      const allow = notAllowed.headers?.Allow && resolve(notAllowed.headers.Allow);
      expect({ where, allow: allow?.schema }).toEqual({ where, allow: { type: "string" } });
      expect({ where, body: notAllowed.content !== undefined }).toEqual({ where, body: method !== "head" });
    }
  });

  test("a 405 operation is named after its method and path, and GraphQL's is in GraphQL's error shape", () => {
    expect(document.paths["/statistics/missions/last-7-days"].post!.operationId).toBe("postStatisticsMissionsLast7DaysNotAllowed");
    expect(document.paths["/vehicles/{vehicle}"].trace!.operationId).toBe("traceVehiclesVehicleNotAllowed");
    expect(document.paths["/healthz"].options!.operationId).toBe("optionsHealthzNotAllowed");
    const graphql = resolve<Response>(document.paths["/graphql"].put!.responses["405"]);
    expect(Object.keys(graphql.content!).sort()).toEqual(["application/graphql-response+json", "application/json"]);
    expect((graphql.content!["application/json"].example as { errors: { extensions: { code: string } }[] }).errors[0].extensions.code).toBe("METHOD_NOT_ALLOWED");
    const rest = resolve<Response>(document.paths["/vehicles"].put!.responses["405"]);
    expect(Object.keys(rest.content!)).toEqual(["application/json"]);
  });

  test("the 405 example is what the server says to DELETE on a GET-only path", async () => {
    const getOnly = Object.keys(document.paths).find((path) => !isPublicPath(path) && restRouteTable.filter((route) => route.path === path).every((route) => route.method === "GET"))!;
    const example = (document.components.responses.MethodNotAllowed.content!["application/json"].example as { message: string }).message;
    expect((await refusal("DELETE", getOnly)).message).toBe(example);
  });

  test("the Allow the public endpoints send without a database is the one documented", async () => {
    for (const path of Object.keys(publicPaths).filter((each) => isPublicPath(each) && !each.includes("{"))) {
      for (const method of operationMethods.filter((each) => refusesMethod(document.paths[path][each]))) {
        const answer = await refusal(method.toUpperCase(), path);
        const allow = answer.allow?.split(", ").sort();
        expect({ path, method, status: answer.status, allow }).toEqual({ path, method, status: 405, allow: describedAllow(document.paths[path][method]!) });
      }
    }
  });
});

/** The GraphQL error codes of a response's examples (null for the contract's shape), of the media types with one. */
const exampleCodes = (response: Response) =>
  Object.values(response.content ?? {})
    .filter((media) => media.example !== undefined)
    .map((media) => (media.example as { errors?: { extensions: { code: string } }[] }).errors?.[0].extensions.code ?? null);

/** The component a header $ref names. */
const refNameOf = (value: unknown) => (value as Reference).$ref?.split("/").at(-1);

describe("scopes and origins", () => {
  test("each REST operation names the scopes fieldScopes gives its root field: its security requirement, x-scopes, description and 403", () => {
    const named = new Set<Scope>();
    for (const { path, method, operation } of keyedOperations()) {
      const route = routeOf(path, method);
      if (!route) continue;
      const where = `${method} ${path}`;
      const scopes = [...fieldScopes(fullSchema, route.operation)];
      scopes.forEach((scope) => named.add(scope));
      expect({ where, scopes: operation["x-scopes"], security: operation.security }).toEqual({ where, scopes, security: keyWithScopes(scopes) });
      const forbidden = operation.responses["403"] as Reference;
      // HEAD's responses are GET's without bodies, written out.
      if (method !== "head") expect({ where, ref: forbidden.$ref }).toEqual({ where, ref: "#/components/responses/Forbidden" });
      for (const scope of scopes) {
        const needs = `Needs the \`${scope}\` scope: ${scopeMeanings[scope]}.`;
        expect({ where, description: operation.description, forbidden: forbidden.description }).toEqual({
          where,
          description: expect.stringContaining(needs),
          forbidden: expect.stringContaining(needs),
        });
      }
    }
    expect([...named].sort()).toEqual(["dutytime", "read", "write"]);
    // Not written by hand: each mutation of the table (createVehicle: write, toggleDutytime: dutytime).
    expect(document.paths["/vehicles"].post!["x-scopes"]).toEqual(["write"]);
    expect(document.paths["/dutytime/{identifier}/toggle"].post!["x-scopes"]).toEqual(["dutytime"]);
    expect(document.paths["/graphql"].post!["x-scopes"]).toBeUndefined();
  });

  test("every operation that needs the key documents 403: REST as {message}, /graphql in GraphQL's shape with FORBIDDEN, listing what every root field needs", () => {
    for (const { path, method, operation } of keyedOperations()) {
      const where = `${method} ${path}`;
      const forbidden = resolve<Response>(operation.responses["403"]);
      const graphql = path === "/graphql";
      const codes = method === "head" ? [] : graphql ? ["FORBIDDEN", "FORBIDDEN"] : [null];
      expect({ where, codes: exampleCodes(forbidden) }).toEqual({ where, codes });
      if (method !== "head") {
        const examples = Object.values(forbidden.content!).flatMap((media) => (media.example === undefined ? [] : [media.example]));
        const message = examples.map((example) => (graphql ? (example as { errors: { message: string }[] }).errors[0].message : (example as { message: string }).message));
        expect({ where, message: [...new Set(message)] }).toEqual({ where, message: ["This action is unauthorized."] });
      }
    }
    const graphqlForbidden = document.components.responses.GraphQLForbidden.description;
    for (const name of Object.keys(fullSchema.getMutationType()!.getFields())) {
      const [scope] = fieldScopes(fullSchema, `Mutation.${name}`);
      expect({ name, listed: new RegExp(`\`${name}\`[^;]*: \`${scope}\``).test(graphqlForbidden) }).toEqual({ name, listed: true });
    }
    expect(graphqlForbidden).toContain("`viewer`: any key");
  });

  test("the key's security schemes say that keys have scopes, each with its meaning, and may list origins", () => {
    for (const [name, scheme] of Object.entries(document.components.securitySchemes)) {
      for (const scope of scopeNames) expect({ name, scope, described: String(scheme.description).includes(`\`${scope}\`: ${scopeMeanings[scope]}`) }).toEqual({ name, scope, described: true });
      expect({ name, origins: String(scheme.description) }).toEqual({ name, origins: expect.stringContaining("Access-Control-Allow-Origin") });
    }
  });

  test("the success of every operation that needs the key documents Access-Control-Allow-Origin and Vary", () => {
    for (const { path, method, operation } of keyedOperations()) {
      const [, success] = Object.entries(operation.responses).find(([status]) => status.startsWith("2"))!;
      const headers = Object.fromEntries(Object.entries(resolve<Response>(success).headers ?? {}).map(([name, header]) => [name, refNameOf(header)]));
      expect({ path, method, headers }).toEqual({ path, method, headers: { "Access-Control-Allow-Origin": "AccessControlAllowOrigin", Vary: "Vary" } });
    }
  });
});

describe("CORS preflights", () => {
  test("OPTIONS of every REST path and /graphql is the preflight: no key, the Origin and Access-Control-Request-Method headers, 204 with the CORS headers, 403, 404, 405 with Allow, 503", () => {
    const allowed = declaredMethods();
    expect(keyedPaths().has("/graphql")).toBe(true);
    for (const path of keyedPaths()) {
      const operation = document.paths[path].options!;
      const where = path;
      expect({ where, tags: operation.tags, security: operation.security, id: operation.operationId }).toEqual({
        where,
        tags: document.paths[path][allowed.get(path)![0] as Method]!.tags,
        security: [],
        id: expect.stringMatching(/^preflight/),
      });
      const parameters = (operation.parameters ?? []).map((parameter) => resolve<Parameter>(parameter)).map((parameter) => `${parameter.in} ${parameter.name}`);
      expect({ where, parameters }).toEqual({ where, parameters: ["header Origin", "header Access-Control-Request-Method"] });
      expect({ where, statuses: Object.keys(operation.responses).sort() }).toEqual({ where, statuses: ["204", "403", "404", "405", "503"] });
      const answered = resolve<Response>(operation.responses["204"]);
      expect({ where, body: answered.content, headers: Object.keys(answered.headers ?? {}).sort() }).toEqual({
        where,
        body: undefined,
        headers: ["Access-Control-Allow-Headers", "Access-Control-Allow-Methods", "Access-Control-Allow-Origin", "Access-Control-Max-Age", "Vary"],
      });
      const methods = /Access-Control-Allow-Methods: ([A-Z, ]+)/.exec((operation.responses["204"] as Reference).description!)?.[1].split(", ").sort();
      expect({ where, methods }).toEqual({ where, methods: allowed.get(path)!.map((method) => method.toUpperCase()).sort() });
      // The preflight's refusal is in the contract's shape everywhere; its 405 in the path's.
      expect({ where, refused: exampleCodes(resolve<Response>(operation.responses["403"])) }).toEqual({ where, refused: [null] });
      const notAllowed = resolve<Response>(operation.responses["405"]);
      expect({ where, allow: Boolean(notAllowed.headers?.Allow), codes: exampleCodes(notAllowed) }).toEqual({
        where,
        allow: true,
        codes: path === "/graphql" ? ["METHOD_NOT_ALLOWED", "METHOD_NOT_ALLOWED"] : [null],
      });
    }
    // The public paths answer no preflight: their OPTIONS is a method they do not serve.
    for (const path of Object.keys(document.paths).filter((each) => !keyedPaths().has(each))) expect({ path, refused: refusesMethod(document.paths[path].options) }).toEqual({ path, refused: true });
  });

  test("the CORS headers' documented values are the ones src/server/cors.ts sends", () => {
    const { headers } = document.components;
    expect(headers.AccessControlAllowHeaders.schema.const).toBe(corsAllowedHeaders);
    expect(headers.AccessControlMaxAge.schema.const).toBe(corsMaxAgeSeconds);
  });
});

/** A request as node's client sends it: any method (fetch refuses TRACE), the body as bytes. */
function send(agent: http.Agent, url: string, method: string, headers: Record<string, string>, body?: string): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method, agent, headers: body === undefined ? headers : { ...headers, "Content-Length": String(Buffer.byteLength(body)) } }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks) }));
      response.on("error", reject);
    });
    request.on("error", reject);
    request.end(body);
  });
}

describe("every path and every method, as a real service answers them", () => {
  let service: TestService;
  let network: TestNetwork;
  const agent = new http.Agent({ keepAlive: true });
  /** The origin of a page a key lists, and one no key lists. */
  const listedOrigin = "https://page.example";
  const unlistedOrigin = "https://stranger.example";
  /** Keys that lack scopes: a page's `read` key for the listed origin, and a time clock's `dutytime` key for no browser. */
  const keys: { name: string; apiKey: string; scopes: Scope[]; origins: string[] }[] = [];

  beforeAll(async () => {
    service = await startService();
    network = await service.network();
    const now = new Date();
    for (const [name, scopes, origins] of [
      ["page", ["read"], [listedOrigin]],
      ["clock", ["dutytime"], []],
    ] as [string, Scope[], string[]][]) {
      const { apiKey } = await createKey(adminScope(service.db, network.id, now), { name, scopes, origins, expiresAt: null });
      keys.push({ name, apiKey, scopes, origins });
    }
  });
  afterAll(async () => {
    agent.destroy();
    await service?.close();
  });

  /**
   * The requests to send to a path template: its `{name}` segments filled with a record of the
   * key's network (a vehicle, an officer) or, for `{file}`, with each file its page links to and
   * a name that is none.
   */
  async function concretePaths(template: string, values: Record<string, string>): Promise<string[]> {
    if (!template.includes("{file}")) return [template.replace(/\{(\w+)\}/g, (_, name: string) => values[name])];
    const pagePath = template.slice(0, template.indexOf("/assets/"));
    const page = (await send(agent, `${service.url}${pagePath}`, "GET", {})).body.toString("utf8");
    const linked = [...new Set([...page.matchAll(/(?:href|src)="([^"]+)"/g)].map(([, link]) => link).filter((link) => link.startsWith(`${pagePath}/assets/`)))];
    expect({ page: pagePath, linked: linked.length > 0 }).toEqual({ page: pagePath, linked: true });
    return [...linked, `${pagePath}/assets/no-such-file.js`];
  }

  /** The media type of a Content-Type header, without its parameters. */
  const mediaType = (contentType: string | undefined) => contentType?.split(";")[0].trim().toLowerCase();

  /** A method list as `Allow` and Access-Control-Allow-Methods send it, sorted. */
  const methodList = (value: unknown) => String(value ?? "").split(", ").sort();

  test("every method on every path, with and without a key, with keys lacking scopes, from listed and unlisted origins, and as a preflight, answers a status and a Content-Type its operation documents", async () => {
    const created = await send(agent, `${service.url}/vehicles`, "POST", { "X-API-Key": network.apiKey, "Content-Type": "application/json" }, JSON.stringify({ plate: "DOC 1" }));
    expect(created.status).toBe(201);
    const officer = await network.officer("1001");
    const values: Record<string, string> = { vehicle: String(JSON.parse(created.body.toString()).data.id), identifier: encodeURIComponent(officer.identifier) };
    // What a client asks for: anything, a browser's page, GraphQL's own media type, one nothing is answered in, a stream.
    const accepts = [undefined, "text/html,application/xhtml+xml,*/*;q=0.8", "application/graphql-response+json", "text/plain", "text/event-stream", "multipart/mixed"];
    // DELETE last, so that the other methods find the vehicle.
    const methods = [...operationMethods].sort((a, b) => Number(a === "delete") - Number(b === "delete"));
    const allowed = declaredMethods();

    const problems: unknown[] = [];
    const answered = new Map<string, Set<string>>();

    /**
     * Sends the operation's request (its query parameters' examples, a required instant a day
     * ago; its body's example, unless another is given) to the concrete path with these headers,
     * and checks the answer: a status the operation documents, a Content-Type its response
     * documents (no body where none is, and never to HEAD), `Allow` on a 405 of a method the path
     * does not serve (or of an OPTIONS that is no preflight), a documented header's `const`. The
     * answer and its documented response, or null (a problem recorded) when the status is not documented.
     */
    async function exchange(template: string, path: string, method: Method, headers: Record<string, string>, about: Record<string, unknown>, ownBody?: string) {
      const where = `${method.toUpperCase()} ${path}`;
      const operation = document.paths[template][method];
      if (!operation) {
        problems.push({ where, problem: `no operation for ${method} ${template}` });
        return null;
      }
      const requestBody = operation.requestBody && resolve<RequestBody>(operation.requestBody);
      const example = requestBody?.content["application/json"]?.example;
      const query = (operation.parameters ?? [])
        .map((parameter) => resolve<Parameter>(parameter))
        .filter((parameter) => parameter.in === "query")
        .flatMap((parameter) => {
          const isInstant = parameter.required && (parameter.schema as Schema).format === "date-time";
          const value = parameter.example ?? (isInstant ? new Date(Date.now() - 86_400_000).toISOString() : undefined);
          return value === undefined ? [] : [`${parameter.name}=${encodeURIComponent(String(value))}`];
        });
      const url = `${service.url}${path}${query.length > 0 ? `?${query.join("&")}` : ""}`;
      const body = ownBody ?? (example === undefined ? undefined : JSON.stringify(example));
      const answer = await send(agent, url, method.toUpperCase(), body === undefined ? headers : { "Content-Type": "application/json", ...headers }, body);
      const request = { where, ...about };
      const documented = operation.responses[answer.status];
      if (!documented) {
        problems.push({ ...request, status: answer.status, documented: Object.keys(operation.responses), body: answer.body.toString("utf8").slice(0, 200) });
        return null;
      }
      answered.set(`${method} ${template}`, (answered.get(`${method} ${template}`) ?? new Set()).add(String(answer.status)));
      const response = resolve<Response>(documented);
      const contentType = mediaType(answer.headers["content-type"]);
      if (method === "head") {
        if (answer.body.length > 0) problems.push({ ...request, status: answer.status, problem: "HEAD answered a body" });
      } else if (response.content === undefined) {
        if (answer.body.length > 0) problems.push({ ...request, status: answer.status, problem: `a body (${contentType}) where none is documented` });
      } else if (contentType === undefined || !(contentType in response.content)) {
        problems.push({ ...request, status: answer.status, contentType, documented: Object.keys(response.content) });
      }
      if (answer.status === 405 && (refusesMethod(operation) || isPreflightOperation(template, method))) {
        const allow = methodList(answer.headers.allow);
        const expected = allowed.get(template)!.map((each) => each.toUpperCase()).sort();
        if (JSON.stringify(allow) !== JSON.stringify(expected)) problems.push({ ...request, allow, expected });
      }
      for (const [name, header] of Object.entries(response.headers ?? {})) {
        const value = answer.headers[name.toLowerCase()];
        const constant = (resolve(header).schema as Schema).const;
        if (value !== undefined && constant !== undefined && value !== String(constant)) problems.push({ ...request, header: name, value, documented: constant });
      }
      return { answer, response };
    }

    // Keys that lack scopes, from the origin the page's key lists and from one it does not: before
    // the DELETE below, and none of them may delete. A REST operation answers 403 exactly when the
    // key lacks a scope of its x-scopes, or lists origins and not the request's; the success to a
    // key that lists the Origin carries the CORS headers its response documents.
    for (const { path: template, method, operation } of keyedOperations()) {
      const route = routeOf(template, method);
      for (const path of await concretePaths(template, values)) {
        for (const key of keys) {
          for (const origin of [listedOrigin, unlistedOrigin]) {
            const listsOrigin = key.origins.includes(origin);
            for (const accept of accepts) {
              const about = { key: key.name, origin, accept };
              const exchanged = await exchange(template, path, method, { "X-API-Key": key.apiKey, Origin: origin, ...(accept && { Accept: accept }) }, about);
              if (!exchanged) continue;
              const { answer, response } = exchanged;
              if (route) {
                const refused = (key.origins.length > 0 && !listsOrigin) || !operation["x-scopes"]!.every((scope) => grants(key.scopes, scope));
                if ((answer.status === 403) !== refused) problems.push({ where: `${method.toUpperCase()} ${path}`, ...about, status: answer.status, refused });
              }
              // GraphiQL's page is answered to a browser before any key is looked at: no CORS headers.
              if (listsOrigin && answer.status < 300 && mediaType(answer.headers["content-type"]) !== "text/html") {
                const cors = { origin: answer.headers["access-control-allow-origin"], vary: String(answer.headers.vary).includes("Origin") };
                const documented = Object.keys(response.headers ?? {}).filter((name) => name === "Access-Control-Allow-Origin" || name === "Vary");
                if (cors.origin !== origin || !cors.vary || documented.length !== 2) problems.push({ where: `${method.toUpperCase()} ${path}`, ...about, status: answer.status, cors, documented });
              }
            }
          }
        }
      }
    }

    // GraphQL: a mutation with the page's `read` key runs nothing and answers 403 with FORBIDDEN.
    const mutation = "deleteVehicle";
    expect(fieldScopes(fullSchema, `Mutation.${mutation}`).every((scope) => grants(keys[0].scopes, scope))).toBe(false);
    for (const accept of accepts) {
      const body = JSON.stringify({ query: `mutation { ${mutation}(id: ${values.vehicle}) { id } }` });
      const exchanged = await exchange("/graphql", "/graphql", "post", { "X-API-Key": keys[0].apiKey, Origin: listedOrigin, ...(accept && { Accept: accept }) }, { key: "page", mutation, accept }, body);
      if (exchanged && accept === undefined) {
        const { errors } = JSON.parse(exchanged.answer.body.toString("utf8"));
        expect([exchanged.answer.status, errors[0].extensions.code]).toEqual([403, "FORBIDDEN"]);
      }
    }

    // Preflights, to every path: from the origin a key lists (204 with the documented CORS headers
    // where the key is needed), from one no key lists and without an Origin (403); the public
    // paths answer none (405).
    for (const template of Object.keys(document.paths)) {
      const keyed = keyedPaths().has(template);
      for (const path of await concretePaths(template, values)) {
        for (const origin of [listedOrigin, unlistedOrigin, null]) {
          const headers = { "Access-Control-Request-Method": allowed.get(template)![0].toUpperCase(), "Access-Control-Request-Headers": "x-api-key, content-type", ...(origin && { Origin: origin }) };
          const about = { preflight: true, origin };
          const exchanged = await exchange(template, path, "options", headers, about);
          if (!exchanged) continue;
          const { answer, response } = exchanged;
          const expected = !keyed ? (path.includes("no-such-file") ? 404 : 405) : origin === listedOrigin ? 204 : 403;
          if (answer.status !== expected) problems.push({ where: `OPTIONS ${path}`, ...about, status: answer.status, expected });
          if (answer.status !== 204) continue;
          const missing = Object.keys(response.headers ?? {}).filter((name) => answer.headers[name.toLowerCase()] === undefined);
          const sent = { origin: answer.headers["access-control-allow-origin"], methods: methodList(answer.headers["access-control-allow-methods"]) };
          const wanted = { origin, methods: allowed.get(template)!.map((each) => each.toUpperCase()).sort() };
          if (missing.length > 0 || JSON.stringify(sent) !== JSON.stringify(wanted)) problems.push({ where: `OPTIONS ${path}`, ...about, missing, sent, wanted });
        }
      }
    }

    // Every method on every path, without a key and with the network's key (every scope): the
    // OPTIONS of a path that needs the key, sent without Access-Control-Request-Method, is no preflight (405).
    for (const template of Object.keys(document.paths)) {
      for (const path of await concretePaths(template, values)) {
        for (const method of methods) {
          for (const key of [null, network.apiKey]) {
            for (const accept of accepts) {
              await exchange(template, path, method, { ...(key && { "X-API-Key": key }), ...(accept && { Accept: accept }) }, { key: key !== null, accept });
            }
          }
        }
      }
    }
    expect(problems).toEqual([]);

    // Each operation was answered: the 405 ones with 405; the served ones with their success at
    // least once, those that need the key with 403 too, and the preflights with 204, 403 and 405.
    const unanswered = operations()
      .map(({ path, method, operation }) => {
        const statuses = [...(answered.get(`${method} ${path}`) ?? [])];
        const wanted = refusesMethod(operation) ? ["405"] : isPreflightOperation(path, method) ? ["204", "403", "405"] : keyedPaths().has(path) ? ["2xx", "403"] : ["2xx"];
        const missing = wanted.filter((status) => !statuses.some((each) => each === status || (status === "2xx" && each.startsWith("2"))));
        return missing.length > 0 ? `${method} ${path}: ${statuses.join(", ")} (not ${missing.join(", ")})` : null;
      })
      .filter((each) => each !== null);
    expect(unanswered).toEqual([]);
  });
});

describe("HEAD", () => {
  test("HEAD has the GET's parameters and statuses, without bodies", () => {
    for (const [path, item] of Object.entries(document.paths)) {
      if (!item.get) continue;
      const head = item.head!;
      expect({ path, parameters: head.parameters }).toEqual({ path, parameters: item.get.parameters });
      expect({ path, security: head.security }).toEqual({ path, security: item.get.security });
      expect({ path, statuses: Object.keys(head.responses).sort() }).toEqual({ path, statuses: Object.keys(item.get.responses).sort() });
      for (const [status, response] of Object.entries(head.responses)) {
        expect({ path, status, content: resolve<Response>(response).content }).toEqual({ path, status, content: undefined });
      }
    }
  });

  test("the router answers HEAD wherever GET is served, and only there (elsewhere HEAD's operation is a 405)", () => {
    for (const route of restRouteTable) {
      const match = matchRoute("HEAD", concrete(route.path));
      const servesGet = restRouteTable.some((other) => other.path === route.path && other.method === "GET");
      expect({ path: route.path, head: match !== null && "route" in match }).toEqual({ path: route.path, head: servesGet });
      const head = document.paths[route.path].head!;
      expect({ path: route.path, served: !refusesMethod(head) }).toEqual({ path: route.path, served: servesGet });
    }
  });
});

describe("operations as the route table has them", () => {
  test("the success status follows the route's kind, with a body except on 204", () => {
    for (const route of restRouteTable) {
      const operation = (document.paths[route.path] as Record<string, Operation>)[route.method.toLowerCase()];
      const expected = route.does.kind === "vehicleWrite" ? route.does.status : route.does.kind === "none" ? 204 : 200;
      const successes = Object.keys(operation.responses).filter((status) => status.startsWith("2"));
      const where = routeKey(route);
      expect({ where, successes }).toEqual({ where, successes: [String(expected)] });
      expect({ where, body: resolve<Response>(operation.responses[expected]).content !== undefined }).toEqual({ where, body: expected !== 204 });
    }
  });

  test("exactly the routes that read a body document one, and 400, 413 and 415", () => {
    for (const route of restRouteTable) {
      const operation = (document.paths[route.path] as Record<string, Operation>)[route.method.toLowerCase()];
      const reads = route.does.kind === "vehicleWrite" || (route.does.kind === "data" && route.does.acceptsBody === true);
      const where = routeKey(route);
      expect({ where, requestBody: operation.requestBody !== undefined }).toEqual({ where, requestBody: reads });
      for (const status of ["400", "413", "415"]) expect({ where, status, documented: status in operation.responses }).toEqual({ where, status, documented: reads });
    }
  });

  test("every operation of REST and /graphql but the preflights documents 401, 403, 429 and 503", () => {
    expect(keyedOperations().length).toBeGreaterThan(restRouteTable.length);
    for (const { path, method, operation } of keyedOperations()) {
      expect({ path, method, statuses: Object.keys(operation.responses) }).toEqual({ path, method, statuses: expect.arrayContaining(["401", "403", "429", "503"]) });
    }
  });

  test("operationIds are unique, every tag is declared and used, and the other methods' tag is last", () => {
    const ids = operations().map((entry) => entry.operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    const tags = document.tags.map((tag) => tag.name);
    for (const { path, operation } of operations()) for (const tag of operation.tags) expect({ path, tag, declared: tags.includes(tag) }).toEqual({ path, tag, declared: true });
    const used = new Set(operations().flatMap((entry) => entry.operation.tags));
    expect(tags.filter((tag) => !used.has(tag))).toEqual([]);
    expect(document.tags.at(-1)).toEqual(otherMethodsTag);
  });

  test("every operation is well-formed: an id, one tag, a summary, security of declared schemes, responses with descriptions under status codes", () => {
    const schemes = Object.keys(document.components.securitySchemes);
    for (const { path, method, operation } of operations()) {
      const where = `${method} ${path}`;
      expect({ where, id: operation.operationId }).toEqual({ where, id: expect.stringMatching(/^[A-Za-z][A-Za-z0-9]*$/) });
      expect({ where, tags: operation.tags.length, summary: typeof operation.summary }).toEqual({ where, tags: 1, summary: "string" });
      for (const requirement of operation.security) for (const name of Object.keys(requirement)) expect({ where, scheme: name, declared: schemes.includes(name) }).toEqual({ where, scheme: name, declared: true });
      expect(Object.keys(operation.responses).length).toBeGreaterThan(0);
      for (const [status, response] of Object.entries(operation.responses)) {
        expect({ where, status }).toEqual({ where, status: expect.stringMatching(/^[1-5]\d\d$/) });
        const resolved = resolve<Response>(response);
        expect({ where, status, description: typeof resolved.description }).toEqual({ where, status, description: "string" });
        for (const type of Object.keys(resolved.content ?? {})) expect({ where, status, type }).toEqual({ where, status, type: expect.stringMatching(/^[a-z]+\/[a-z0-9.+-]+$/) });
      }
    }
  });

  test("every $ref in the document resolves", () => {
    const refs: string[] = [];
    const walk = (value: unknown): void => {
      if (Array.isArray(value)) value.forEach(walk);
      else if (value && typeof value === "object") {
        for (const [key, child] of Object.entries(value)) {
          if (key === "$ref") refs.push(child as string);
          else walk(child);
        }
      }
    };
    walk(document);
    expect(refs.length).toBeGreaterThan(50);
    for (const ref of new Set(refs)) expect(() => resolve({ $ref: ref })).not.toThrow();
  });
});

/** The schema as the REST routes see and answer it (src/rest/sofa.ts), built from the real schema object. */
const view = restView(fullSchema);

/** A root field of the REST view: "Query.vehicles". */
function operationField(operation: string) {
  const [root, fieldName] = operation.split(".");
  const rootType = root === "Query" ? view.getQueryType()! : view.getMutationType()!;
  const field = rootType.getFields()[fieldName];
  if (!field) throw new Error(`${operation} is not in the REST view of the schema`);
  return field;
}

describe("schemas against the GraphQL types as REST sees them (restView)", () => {
  const jsonTypes: Record<string, string> = { Int: "integer", Float: "number", String: "string", ID: "string", Boolean: "boolean", DateTime: "string", EventData: "object" };

  /** The JSON types a property allows besides null (a $ref or a oneOf with null: none of its own). */
  const typesOf = (property: Schema) => [property.type].flat().filter((type) => type !== undefined && type !== "null");

  /**
   * The property agrees with the GraphQL type: null exactly where GraphQL allows it (as `type: [..., "null"]`,
   * or an object as `oneOf: [{$ref}, {type: "null"}]`), lists as arrays of their items, objects as $refs to
   * schemas that agree in turn, enums as strings of their values, scalars as their JSON types.
   */
  function agreeType(where: string, property: Schema, type: GraphQLOutputType, seen: Set<string>) {
    const nullable = !isNonNullType(type);
    const inner = isNonNullType(type) ? type.ofType : type;
    if (isObjectType(inner)) {
      let ref: Schema = property;
      if (nullable) {
        expect({ where, oneOf: property.oneOf }).toEqual({ where, oneOf: [{ $ref: expect.any(String) }, { type: "null" }] });
        ref = (property.oneOf as Schema[])[0];
      } else {
        expect({ where, keys: Object.keys(property).filter((key) => key !== "description") }).toEqual({ where, keys: ["$ref"] });
      }
      agree(schemaName(ref), inner, seen);
      return;
    }
    expect({ where, nullable: [property.type].flat().includes("null") }).toEqual({ where, nullable });
    expect({ where, oneOf: property.oneOf }).toEqual({ where, oneOf: undefined });
    if (isListType(inner)) {
      expect({ where, type: typesOf(property) }).toEqual({ where, type: ["array"] });
      agreeType(`${where}[]`, property.items as Schema, inner.ofType, seen);
    } else if (isEnumType(inner)) {
      const values = inner.getValues().map((value) => value.name);
      expect({ where, type: typesOf(property), enum: property.enum }).toEqual({ where, type: ["string"], enum: nullable ? [...values, null] : values });
    } else {
      expect({ where, type: typesOf(property) }).toEqual({ where, type: [jsonTypes[getNamedType(inner).name]] });
      if (inner.name === "DateTime") expect({ where, format: property.format }).toEqual({ where, format: "date-time" });
    }
  }

  /** The component schema agrees with the GraphQL object type: the same fields, all present, each agreeing. */
  function agree(name: string, type: GraphQLObjectType, seen: Set<string>) {
    expect({ schema: name }).toEqual({ schema: type.name });
    if (seen.has(name)) return;
    seen.add(name);
    const schema = document.components.schemas[name] as Schema & { properties: Record<string, Schema>; required: string[] };
    const fields = Object.values(type.getFields());
    expect({ name, properties: Object.keys(schema.properties).sort() }).toEqual({ name, properties: fields.map((field) => field.name).sort() });
    expect({ name, required: [...schema.required].sort() }).toEqual({ name, required: fields.map((field) => field.name).sort() });
    for (const field of fields) agreeType(`${name}.${field.name}`, schema.properties[field.name], field.type, seen);
  }

  test("what each route passes through is its operation's GraphQL type, field by field", () => {
    const seen = new Set<string>();
    for (const route of restRouteTable) {
      if (route.does.kind === "none") continue;
      let type = getNamedType(operationField(route.operation).type) as GraphQLObjectType;
      const operation = (document.paths[route.path] as Record<string, Operation>)[route.method.toLowerCase()];
      const success = Object.entries(operation.responses).find(([status]) => status.startsWith("2"))![1];
      let schema = resolve<Response>(success).content!["application/json"].schema as Schema;
      if (route.does.kind === "page" || route.does.kind === "cursorPage") {
        // Laravel's page (or cursor page): GraphQL's page, reshaped, with its items as they are.
        type = getNamedType(type.getFields().data.type) as GraphQLObjectType;
        schema = resolve<Schema>(schema as Schema).properties as Schema;
        schema = (schema.data as Schema).items as Schema;
      } else if (route.does.kind !== "plain") {
        schema = (resolve<Schema>(schema as Schema).properties as Record<string, Schema>).data;
      }
      expect({ route: routeKey(route), schema: schemaName(schema) }).toEqual({ route: routeKey(route), schema: type.name });
      agree(type.name, type, seen);
    }
    expect([...seen].sort()).toEqual(
      expect.arrayContaining(["ActiveUser", "ActiveUsers", "DailyCount", "DailyCounts", "DutyHoursReport", "DutytimeEntry", "DutytimeStatus", "Event", "Officer", "RecordCount", "Vehicle"]),
    );
  });

  test("REST's view omits exactly the fields marked restOmitted, and the document names none of them", () => {
    const omitted = (schema: typeof fullSchema) =>
      Object.values(schema.getTypeMap())
        .filter((type): type is GraphQLObjectType => isObjectType(type) && !type.name.startsWith("__"))
        .flatMap((type) => Object.values(type.getFields()).map((field) => ({ type: type.name, field: field.name, marked: field.extensions?.restOmitted === true })));
    const inView = new Set(omitted(view).map(({ type, field }) => `${type}.${field}`));
    const marked = omitted(fullSchema).filter((entry) => entry.marked).map(({ type, field }) => `${type}.${field}`);
    const missing = omitted(fullSchema).filter(({ type, field }) => !inView.has(`${type}.${field}`)).map(({ type, field }) => `${type}.${field}`);
    expect(marked).toEqual(expect.arrayContaining(["Officer.dutySeconds", "Officer.dutytime"]));
    expect(missing.sort()).toEqual(marked.sort());
    for (const name of marked) {
      const [type, field] = name.split(".");
      const component = document.components.schemas[type] as { properties?: Record<string, unknown> } | undefined;
      expect({ name, documented: component?.properties !== undefined && field in component.properties }).toEqual({ name, documented: false });
    }
  });
});

describe("query parameters of GET routes", () => {
  const snakeCase = (name: string) => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
  const jsonTypes: Record<string, string> = { Int: "integer", Float: "number", String: "string", ID: "string", Boolean: "boolean", DateTime: "string" };

  /** What a query parameter of this argument's type looks like: a repeated parameter for a list, an enum's values. */
  function parameterShape(type: GraphQLInputType): Schema {
    const inner = isNonNullType(type) ? type.ofType : type;
    if (isListType(inner)) return { type: "array", items: parameterShape(inner.ofType) };
    if (isEnumType(inner)) return { type: "string", enum: inner.getValues().map((value) => value.name).sort() };
    return { type: jsonTypes[getNamedType(inner).name] };
  }
  const shapeOf = (schema: Schema | Reference): Schema => {
    const resolved = resolve<Schema>(schema as Schema);
    return {
      type: resolved.type,
      ...(resolved.items !== undefined && { items: shapeOf(resolved.items as Schema) }),
      ...(resolved.enum !== undefined && { enum: [...(resolved.enum as string[])].sort() }),
    };
  };

  test("every GET route's query parameters are its operation's arguments the path does not give: snake_case, plus the GraphQL name as alias", () => {
    const gets = restRouteTable.filter((route) => route.method === "GET");
    expect(gets.map(routeKey)).toEqual(expect.arrayContaining(["GET /vehicles", "GET /officers", "GET /statistics/missions/per-day", "GET /statistics/files/per-day"]));
    const documentedAll: unknown[] = [];
    const expectedAll: unknown[] = [];
    for (const route of gets) {
      const where = routeKey(route);
      const fromPath = new Set([...route.path.matchAll(/\{(\w+)\}/g)].map(([, segment]) => route.arguments?.[segment] ?? segment));
      const args = operationField(route.operation).args.filter((arg) => !fromPath.has(arg.name));
      const expected = args.flatMap((arg) => {
        const shape = parameterShape(arg.type);
        const main = { name: snakeCase(arg.name), required: isNonNullType(arg.type), shape };
        return arg.name === main.name ? [main] : [main, { name: arg.name, required: false, shape }];
      });
      const documented = (((document.paths[route.path] as Record<string, Operation>).get.parameters ?? []) as (Parameter | Reference)[])
        .map((parameter) => resolve<Parameter>(parameter))
        .filter((parameter) => parameter.in === "query")
        .map((parameter) => ({ name: parameter.name, required: parameter.required === true, shape: shapeOf(parameter.schema) }));
      const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);
      documentedAll.push({ where, parameters: documented.sort(byName) });
      expectedAll.push({ where, parameters: expected.sort(byName) });
    }
    // GET /vehicles/{vehicle}: the path gives `id` (`arguments: { vehicle: "id" }`), so it is no query parameter.
    expect(documentedAll).toEqual(expectedAll);
  });
});

describe("vehicle fields as the server accepts them", () => {
  const requestProperties = () => (document.components.schemas.VehicleFields as { properties: Record<string, Schema> }).properties;
  const responseProperties = () => (document.components.schemas.Vehicle as { properties: Record<string, Schema> }).properties;
  const plate = vehicleFields.find((field) => field.kind === "plate")!;

  /** Whether the server takes this plate on create (src/resolvers/vehicleInput.ts). */
  function serverAccepts(value: string): boolean {
    try {
      vehicleChanges({ [plate.request]: value }, { required: true });
      return true;
    } catch {
      return false;
    }
  }

  test("the plate's length is checked after trimming: no maxLength on the request, the maximum in the description and the pattern", () => {
    const property = requestProperties()[plate.request];
    expect(property.maxLength).toBeUndefined();
    expect(property.description).toContain(`at most ${plate.max} characters after trimming`);
    expect(responseProperties()[plate.response].maxLength).toBe(plate.max);
    const pattern = new RegExp(property.pattern as string, "u");
    for (const value of [`  ${"P".repeat(plate.max)}\t `, "P".repeat(plate.max), "💥".repeat(plate.max), " A ", "A"]) {
      expect({ value, pattern: pattern.test(value), server: serverAccepts(value) }).toEqual({ value, pattern: true, server: true });
    }
    for (const value of ["P".repeat(plate.max + 1), ` ${"P".repeat(plate.max)}x `, "", "   ", "\u00a0\u2028", "A\u0000B"]) {
      expect({ value, pattern: pattern.test(value), server: serverAccepts(value) }).toEqual({ value, pattern: false, server: false });
    }
  });

  test("the plate's pattern accepts exactly the plates the server accepts", () => {
    const pattern = new RegExp(requestProperties()[plate.request].pattern as string, "u");
    const unit = fc.constantFrom("P", "ä", "💥", " ", "\t", "\n", "\u00a0", "\u2028", "\ufeff", "\u3000", "\u0000", "\u001f", "\ud800");
    const text = fc.oneof(
      fc.string({ unit, maxLength: plate.max + 6 }),
      fc.tuple(fc.string({ unit: fc.constantFrom(" ", "\t", "\u00a0"), maxLength: 3 }), fc.string({ unit: fc.constantFrom("P", "💥", " "), minLength: plate.max - 2, maxLength: plate.max + 2 }), fc.string({ unit: fc.constantFrom(" ", "\n"), maxLength: 3 })).map((parts) => parts.join("")),
    );
    fc.assert(
      fc.property(text, (value) => pattern.test(value) === serverAccepts(value)),
      { seed: 20261121, numRuns: 2000 },
    );
  });

  test("every other text field's maxLength is the field table's maximum", () => {
    for (const field of vehicleFields) {
      if (field.kind !== "text") continue;
      expect({ field: field.request, maxLength: requestProperties()[field.request].maxLength }).toEqual({ field: field.request, maxLength: field.max });
    }
  });
});
