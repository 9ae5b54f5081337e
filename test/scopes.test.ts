// Scopes (CONTRACT: Keys, scopes and origins), generated from the schema and the
// route table: every mutation and query root field, and every REST route, asked with a key of
// each single scope. A key without the scope the field declares (src/schema/scopes.ts) gets 403:
// FORBIDDEN over GraphQL, {"message": "This action is unauthorized."} over REST, and nothing
// changes; a key with it is not refused for scope.
import { adminScope } from "../src/admin/keys";
import { GraphQLObjectType, GraphQLSchema, GraphQLString, getNamedType, isObjectType, type GraphQLField } from "graphql";
import { schema } from "../src/schema";
import { checkDeclaredScopes, declaredScope, needs, queryDefaultScope } from "../src/schema/scopes";
import { grants, scopeNames, type Scope } from "../src/model/scopes";
import { restRouteTable } from "../src/rest/routes";
import { createKey } from "../src/resolvers/apiKeys";
import { startService, type TestNetwork, type TestService } from "./support/service";
import { client, type Client } from "./support/http";

let service: TestService;
let network: TestNetwork;
/** A client of a key holding only this scope. */
const keyOf = {} as Record<Scope, Client>;

beforeAll(async () => {
  service = await startService();
  network = await service.network({ name: "Scoped" });
  await network.officer("1", "Scoped Officer");
  const owner = client(service.url, network.apiKey);
  expect((await owner.post("/vehicles", { plate: "SC-1" })).status).toBe(201);
  for (const scope of scopeNames) {
    const { apiKey } = await createKey(adminScope(service.db, network.id, new Date()), { name: `only ${scope}`, scopes: [scope], origins: [], expiresAt: null });
    keyOf[scope] = client(service.url, apiKey);
  }
});
afterAll(() => service.close());

/** What a write would change: every table's rows and the network's versions, as one text. */
async function snapshot(): Promise<string> {
  const tables = ["vehicles", "officers", "dutytime_entries", "mission_reports", "patient_files", "offender_files", "api_keys"];
  const counts = [];
  for (const table of tables) counts.push(await service.db.prisma.$queryRawUnsafe<{ rows: unknown }[]>(`SELECT COUNT(*) AS rows FROM ${table}`));
  const networks = await service.db.prisma.$queryRawUnsafe(`SELECT * FROM networks ORDER BY id`);
  const keys = await service.db.prisma.$queryRawUnsafe(`SELECT id, name, scopes, revoked_at FROM api_keys ORDER BY id`);
  return JSON.stringify([counts, networks, keys], (_key, value) => (typeof value === "bigint" ? Number(value) : value));
}

/** A document running one root field with its arguments as variables (none sent): scopes are checked before variables. */
function documentOf(kind: "query" | "mutation", field: GraphQLField<unknown, unknown>): string {
  const variables = field.args.map((arg) => `$${arg.name}: ${arg.type.toString()}`).join(", ");
  const args = field.args.map((arg) => `${arg.name}: $${arg.name}`).join(", ");
  const selection = isObjectType(getNamedType(field.type)) ? " { __typename }" : "";
  return `${kind}${variables ? `(${variables})` : ""} { ${field.name}${args ? `(${args})` : ""}${selection} }`;
}

const neededOf = (field: GraphQLField<unknown, unknown>, kind: "query" | "mutation") => declaredScope(field) ?? (kind === "query" ? queryDefaultScope : undefined);

const rootFields = (kind: "query" | "mutation") =>
  Object.values((kind === "query" ? schema.getQueryType() : schema.getMutationType())!.getFields()).map((field) => ({ kind, name: field.name, field }));
const cases = [...rootFields("mutation"), ...rootFields("query")].flatMap((root) => scopeNames.map((scope) => ({ ...root, scope })));

describe("every root field, with a key of each single scope", () => {
  test("every mutation declares its scope (else the schema is not built)", () => {
    for (const { field } of rootFields("mutation")) expect({ field: field.name, scope: declaredScope(field) }).toEqual({ field: field.name, scope: expect.any(String) });
    const undeclared = new GraphQLSchema({
      query: new GraphQLObjectType({ name: "Query", fields: { a: { type: GraphQLString } } }),
      mutation: new GraphQLObjectType({
        name: "Mutation",
        fields: { declared: { type: GraphQLString, extensions: needs("write") }, forgotten: { type: GraphQLString } },
      }),
    });
    expect(() => checkDeclaredScopes(undeclared)).toThrow(/forgotten/);
  });

  test.each(cases)("$kind $name with a $scope key", async ({ kind, field, scope }) => {
    const needed = neededOf(field, kind);
    const allowed = needed === "any key" || grants([scope], needed!);
    const before = await snapshot();
    const response = await keyOf[scope].graphql(documentOf(kind, field));
    const code = response.body.errors?.[0]?.extensions?.code;
    if (allowed) {
      expect({ field: field.name, code }).not.toEqual({ field: field.name, code: "FORBIDDEN" });
      return;
    }
    expect({ field: field.name, status: response.status, code, message: response.body.errors?.[0]?.message, data: response.body.data ?? null }).toEqual({
      field: field.name,
      status: 403,
      code: "FORBIDDEN",
      message: "This action is unauthorized.",
      data: null,
    });
    expect(await snapshot()).toBe(before);
  });
});

describe("every REST route, with a key of each single scope", () => {
  const paths: Record<string, string> = { vehicle: "1", identifier: encodeURIComponent("steam:1") };
  const routeCases = restRouteTable.flatMap((route) => scopeNames.map((scope) => ({ ...route, scope })));

  test.each(routeCases)("$method $path with a $scope key", async ({ method, path, operation, scope }) => {
    const [root, name] = operation.split(".");
    const field = (root === "Query" ? schema.getQueryType() : schema.getMutationType())!.getFields()[name];
    const needed = neededOf(field, root === "Query" ? "query" : "mutation")!;
    const allowed = needed === "any key" || grants([scope], needed);
    const url = path.replace(/\{(\w+)\}/g, (_, segment: string) => paths[segment]);
    const before = await snapshot();
    // A body that passes no check of its own: the scope is refused before the body is read.
    const response = await keyOf[scope].request(method, url, method === "GET" || method === "DELETE" ? {} : { rawBody: "{not json", headers: { "Content-Type": "application/json" } });
    if (allowed) {
      expect({ route: `${method} ${path}`, status: response.status }).not.toEqual({ route: `${method} ${path}`, status: 403 });
      return;
    }
    expect({ route: `${method} ${path}`, status: response.status, body: response.body }).toEqual({
      route: `${method} ${path}`,
      status: 403,
      body: { message: "This action is unauthorized." },
    });
    expect(await snapshot()).toBe(before);
  });
});
