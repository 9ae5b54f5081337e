// The OpenAPI document (src/rest/openapi/) against what it is generated from and what the server
// does: the route table and its overlays match one to one, every route is in the served
// /openapi.json with its method (and HEAD where GET is served), every path documents 404 and 405
// with the Allow header the router really sends, every $ref resolves, the schemas the REST routes
// pass through agree with the GraphQL types as REST sees them (src/rest/sofa.ts restView: the
// schema without the fields marked restOmitted), every GET route's query parameters are its
// operation's arguments, and the plate's pattern accepts exactly the plates the server accepts.
// Needs no database.
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
import { publicOverlays, restOverlays } from "../src/rest/openapi/overlays";
import { overlayMismatches, routeKey } from "../src/rest/openapi/paths";
import type { OpenApiDocument, Operation, Parameter, Reference, Response, Schema } from "../src/rest/openapi/types";
import { createRouter } from "../src/rest/router";
import { restRouteTable } from "../src/rest/routes";
import { restView } from "../src/rest/sofa";
import { schema as fullSchema } from "../src/schema";
import { isPublicPath, publicEndpoints } from "../src/server/publicEndpoints";

/** The public endpoints without a database: /openapi.json and the 405s need none. */
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

const methods = ["get", "head", "post", "put", "patch", "delete", "options", "trace"] as const;

/** Every operation of the document, with its path and (lower-case) method. */
function operations(): { path: string; method: string; operation: Operation }[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    methods.flatMap((method) => {
      const operation = (item as Record<string, Operation | undefined>)[method];
      return operation ? [{ path, method, operation }] : [];
    }),
  );
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

  test("each path documents exactly the methods it serves: the route table's (or the public endpoint's), plus HEAD for GET", () => {
    const served = new Map<string, string[]>();
    const add = (method: string, path: string) => served.set(path, [...(served.get(path) ?? []), method.toLowerCase()]);
    for (const route of restRouteTable) add(route.method, route.path);
    for (const key of Object.keys(publicOverlays)) add(...(key.split(" ") as [string, string]));
    for (const list of served.values()) if (list.includes("get")) list.push("head");

    expect(Object.keys(document.paths).sort()).toEqual([...served.keys()].sort());
    for (const [path, item] of Object.entries(document.paths)) {
      const documented = methods.filter((method) => method in item);
      expect({ path, methods: documented.sort() }).toEqual({ path, methods: served.get(path)!.sort() });
    }
  });

  test("the paths outside the route table are public endpoints, and the route table's are not", () => {
    const restPaths = new Set(restRouteTable.map((route) => route.path));
    for (const path of Object.keys(document.paths)) {
      expect({ path, public: isPublicPath(path) }).toEqual({ path, public: !restPaths.has(path) });
      const security = operations().filter((entry) => entry.path === path).map((entry) => entry.operation.security);
      for (const requirement of security) expect({ path, security: requirement }).toEqual({ path, security: restPaths.has(path) ? document.security : [] });
    }
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
  test("every operation documents 404, and 405 with the Allow header", () => {
    const all = operations();
    expect(all.length).toBeGreaterThan(restRouteTable.length);
    for (const { path, method, operation } of all) {
      const where = `${method} ${path}`;
      expect({ where, statuses: Object.keys(operation.responses) }).toEqual({ where, statuses: expect.arrayContaining(["404", "405"]) });
      const notFound = resolve<Response>(operation.responses["404"]);
      expect({ where, description: typeof notFound.description }).toEqual({ where, description: "string" });
      const notAllowed = resolve<Response>(operation.responses["405"]);
      const allow = notAllowed.headers?.Allow && resolve(notAllowed.headers.Allow);
      expect({ where, allow: allow?.schema }).toEqual({ where, allow: { type: "string" } });
    }
  });

  test("the Allow each path documents is the one the server sends, for every method the path does not serve", async () => {
    for (const [path, item] of Object.entries(document.paths)) {
      const documented = new Set(operations().filter((entry) => entry.path === path).map((entry) => entry.operation.responses["405"].description));
      expect({ path, descriptions: documented.size }).toEqual({ path, descriptions: 1 });
      const allow = /`Allow: ([A-Z, ]+)`/.exec([...documented][0] ?? "")?.[1];
      const others = ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"].filter((method) => !(method.toLowerCase() in item));
      expect(others.length).toBeGreaterThan(0);
      for (const method of others) {
        const answer = await refusal(method, path);
        expect({ path, method, status: answer.status, allow: answer.allow }).toEqual({ path, method, status: 405, allow });
      }
    }
  });

  test("the 405 example is what the server says to DELETE on a GET-only path", async () => {
    const getOnly = Object.keys(document.paths).find((path) => !isPublicPath(path) && restRouteTable.filter((route) => route.path === path).every((route) => route.method === "GET"))!;
    const example = (document.components.responses.MethodNotAllowed.content!["application/json"].example as { message: string }).message;
    expect((await refusal("DELETE", getOnly)).message).toBe(example);
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

  test("the router answers HEAD wherever GET is served, and only there", () => {
    for (const route of restRouteTable) {
      const match = matchRoute("HEAD", concrete(route.path));
      const servesGet = restRouteTable.some((other) => other.path === route.path && other.method === "GET");
      expect({ path: route.path, head: match !== null && "route" in match }).toEqual({ path: route.path, head: servesGet });
      expect({ path: route.path, documented: "head" in document.paths[route.path] }).toEqual({ path: route.path, documented: servesGet });
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

  test("every REST operation documents 401, 429 and 503", () => {
    for (const { path, method, operation } of operations()) {
      if (isPublicPath(path)) continue;
      expect({ path, method, statuses: Object.keys(operation.responses) }).toEqual({ path, method, statuses: expect.arrayContaining(["401", "429", "503"]) });
    }
  });

  test("operationIds are unique and every tag is declared", () => {
    const ids = operations().map((entry) => entry.operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    const tags = new Set(document.tags.map((tag) => tag.name));
    for (const { path, operation } of operations()) for (const tag of operation.tags) expect({ path, tag, declared: tags.has(tag) }).toEqual({ path, tag, declared: true });
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
  const jsonTypes: Record<string, string> = { Int: "integer", Float: "number", String: "string", ID: "string", Boolean: "boolean", DateTime: "string" };

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
      if (route.does.kind === "page") {
        // Laravel's page: GraphQL's page, reshaped, with its items as they are.
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
      expect.arrayContaining(["ActiveUser", "ActiveUsers", "DailyCount", "DailyCounts", "DutyHoursReport", "DutytimeEntry", "DutytimeStatus", "Officer", "RecordCount", "Vehicle"]),
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
