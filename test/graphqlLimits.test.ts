// GraphQL operation limits (hardening spec: "GraphQL operation limits"), as an abuse table over
// POST /graphql with a valid key: for each limit a document at the default maximum is answered,
// one past it is refused with 400 BAD_USER_INPUT naming the limit, before anything executes.
// Then the GET form, fragments, batches, huge variables, and the documents clients really send
// (the README's, GraphiQL's introspection) staying within the limits.
import fs from "node:fs";
import path from "node:path";
import { getIntrospectionQuery, Lexer, Source, TokenKind } from "graphql";
import { startService, type TestService } from "./support/service";
import { reportCost, reportCostPerMonth } from "../src/config/limits";
import { client, type ApiResponse, type Client } from "./support/http";
import { startServiceProcess } from "./support/process";
import { freshDatabase } from "./support/database";
import { migrate } from "../src/db/migrate";
import { openDatabase } from "../src/db/client";
import { createNetwork } from "../src/admin/networks";
import { vehicleResponseFields } from "./support/contract";
import { defaultLimits } from "../src/config/limits";

const rootFields = defaultLimits.graphqlMaxRootFields;

let service: TestService;
let api: Client;

beforeAll(async () => {
  service = await startService();
  const network = await service.network();
  api = client(service.url, network.apiKey);
  for (let i = 1; i <= 3; i++) expect((await api.post("/vehicles", { plate: `LIM-${i}`, owner: `Owner ${i}` })).status).toBe(201);
});
afterAll(() => service.close());

/** graphql-js's count of a document's lexical tokens (what parse's maxTokens counts). */
function tokenCount(document: string): number {
  const lexer = new Lexer(new Source(document));
  let count = 0;
  while (lexer.advance().kind !== TokenKind.EOF) count++;
  return count;
}

const allVehicleFields = vehicleResponseFields.join(" ");
const pageOfAll = (alias: string, selection = allVehicleFields) => `${alias}: vehicles(perPage: 100) { data { ${selection} } }`;
const aliased = (count: number, field: (i: number) => string) => Array.from({ length: count }, (_, i) => field(i + 1)).join(" ");
/** `__type { fields { type { ofType { ... name } } } }`: `levels` fields deep. */
const typeDepth = (levels: number) => `{ __type(name: "Vehicle") { fields { type { ${"ofType { ".repeat(levels - 4)}name${" }".repeat(levels - 4)} } } } }`;
const nestedUnknown = (levels: number) => `{ ${"a { ".repeat(levels - 1)}a${" }".repeat(levels - 1)} }`;
const createVehicles = (count: number, prefix: string) =>
  `mutation { ${aliased(count, (i) => `c${i}: createVehicle(input: {plate: "${prefix}-${i}"}) { id }`)} }`;

interface LimitCase {
  limit: "documentLength" | "tokens" | "depth" | "aliases" | "directives" | "rootFields" | "cost";
  max: number;
  /** At the limit: answered, without errors. */
  within: string;
  /** Past the limit: refused. */
  over: string;
  /** Over GET too (documents of over 16 KB do not fit a request line; mutations are not run over GET). */
  get: boolean;
  /** The operation to run, for documents of several. */
  operationName?: string;
}

const documentLengthBase = "{ network { name } }";
const table: LimitCase[] = [
  {
    limit: "documentLength",
    max: 20_000,
    within: documentLengthBase + " ".repeat(20_000 - documentLengthBase.length),
    over: documentLengthBase + " ".repeat(20_001 - documentLengthBase.length),
    get: false,
  },
  {
    // Many small operations (8 tokens each), one of them run: one selection of ~1,000 fields
    // would be refused by graphql-js's own validation (its budget for overlapping fields).
    limit: "tokens",
    max: 1000,
    within: `${aliased(124, (i) => `query Q${i} { network { name } }`)} query Q125 { network { name } }`,
    over: `${aliased(124, (i) => `query Q${i} { network { name } }`)} query Q125 { network { name id } }`,
    get: true,
    operationName: "Q1",
  },
  {
    // No field of the schema nests past 3 levels: introspection through __type does (only
    // __schema's fields are not counted, as graphql-armor's ignoreIntrospection does).
    limit: "depth",
    max: 10,
    within: typeDepth(10),
    over: typeDepth(11),
    get: true,
  },
  {
    limit: "aliases",
    max: 15,
    within: `{ ${aliased(15, (i) => `a${i}: network { name }`)} }`,
    over: `{ ${aliased(16, (i) => `a${i}: network { name }`)} }`,
    get: true,
  },
  {
    limit: "directives",
    max: 50,
    within: `{ network { ${"name @include(if: true) ".repeat(50)}} }`,
    over: `{ network { ${"name @include(if: true) ".repeat(51)}} }`,
    get: true,
  },
  { limit: "rootFields", max: rootFields, within: createVehicles(rootFields, "ROOT-OK"), over: createVehicles(rootFields + 1, "ROOT-NO"), get: false },
  {
    // The spec's example: a page of 100 with all 14 fields costs ~1,400; three fit, four do not.
    limit: "cost",
    max: 5000,
    within: `{ ${aliased(3, (i) => pageOfAll(`p${i}`))} }`,
    over: `{ ${aliased(4, (i) => pageOfAll(`p${i}`))} }`,
    get: true,
  },
];

function expectAnswered(response: ApiResponse, context: string) {
  expect({ context, status: response.status, errors: response.body?.errors }).toEqual({ context, status: 200, errors: undefined });
  expect(response.body.data).toBeDefined();
}

/** 400, nothing executed, and an error BAD_USER_INPUT naming the limit and its maximum. */
function expectRefused(response: ApiResponse, limit: string, max: number, context: string) {
  expect({ context, status: response.status }).toEqual({ context, status: 400 });
  expect(response.headers.get("content-type")).toMatch(/^application\/(graphql-response\+)?json/);
  expect(Array.isArray(response.body?.errors)).toBe(true);
  expect(response.body.data ?? null).toBeNull();
  const extensions = response.body.errors.map((error: { extensions?: unknown }) => error.extensions);
  expect(extensions).toContainEqual(expect.objectContaining({ code: "BAD_USER_INPUT", limit, max }));
}

const vehiclesTotal = async (own: Client) => (await own.get("/vehicles?per_page=1")).body.meta.total as number;

describe("each limit: at the maximum answered, past it refused with 400", () => {
  test("the table's documents are as sized (lengths and token counts)", () => {
    const length = table.find((row) => row.limit === "documentLength")!;
    expect([length.within.length, length.over.length]).toEqual([20_000, 20_001]);
    const tokens = table.find((row) => row.limit === "tokens")!;
    expect([tokenCount(tokens.within), tokenCount(tokens.over)]).toEqual([1000, 1001]);
    // Every other document stays well within the limits it is not about.
    for (const row of table) {
      if (row.limit === "documentLength" || row.limit === "tokens") continue;
      expect({ limit: row.limit, tokens: tokenCount(row.over) < 1000, length: row.over.length < 20_000 }).toEqual({ limit: row.limit, tokens: true, length: true });
    }
  });

  test.each(table)("$limit: a document at the maximum ($max) is answered, twice", async ({ limit, within, operationName }) => {
    // Mutations write: each runs on a network of its own so its writes can be counted.
    const own = limit === "rootFields" ? client(service.url, (await service.network()).apiKey) : api;
    for (const attempt of [1, 2]) {
      const response = await own.request("POST", "/graphql", { body: { query: within.replace(/ROOT-OK/g, `ROOT-OK${attempt}`), operationName } });
      expectAnswered(response, `${limit} attempt ${attempt}`);
    }
    if (limit === "rootFields") expect(await vehiclesTotal(own)).toBe(2 * rootFields);
  });

  test.each(table)("$limit: a document past the maximum is refused with 400 BAD_USER_INPUT, twice", async ({ limit, max, over, operationName }) => {
    const own = client(service.url, (await service.network()).apiKey);
    // The second time the document is one the service has seen: no cache may let it through.
    for (const attempt of [1, 2]) {
      expectRefused(await own.request("POST", "/graphql", { body: { query: over, operationName } }), limit, max, `${limit} attempt ${attempt}`);
    }
    if (limit === "rootFields") expect(await vehiclesTotal(own)).toBe(0);
  });

  test(`${defaultLimits.graphqlMaxRootFields + 1} aliased createVehicle create nothing; under Apollo's Accept too`, async () => {
    const own = client(service.url, (await service.network()).apiKey);
    const response = await own.request("POST", "/graphql", {
      body: { query: createVehicles(rootFields + 1, "APOLLO") },
      headers: { Accept: "application/graphql-response+json,application/json;q=0.9" },
    });
    expectRefused(response, "rootFields", rootFields, "rootFields, graphql-response+json");
    expect(response.headers.get("content-type")).toMatch(/^application\/graphql-response\+json/);
    expect(await vehiclesTotal(own)).toBe(0);
  });

  test("ten levels of unknown fields are refused by validation, not by the depth limit (nor a 5xx)", async () => {
    const response = await api.graphql(nestedUnknown(10));
    expect(response.status).toBeLessThan(500);
    expect(response.body.errors.length).toBeGreaterThan(0);
    for (const error of response.body.errors) expect(error.extensions?.limit).toBeUndefined();
  });
});

describe("the same limits over GET /graphql", () => {
  const viaGet = (query: string, operationName?: string) =>
    api.get(`/graphql?query=${encodeURIComponent(query)}${operationName ? `&operationName=${operationName}` : ""}`);
  const overGet = table.filter((row) => row.get);

  test.each(overGet)("$limit over GET: at the maximum answered", async ({ limit, within, operationName }) => {
    expectAnswered(await viaGet(within, operationName), `GET ${limit}`);
  });

  test.each(overGet)("$limit over GET: past the maximum refused with 400", async ({ limit, max, over, operationName }) => {
    expectRefused(await viaGet(over, operationName), limit, max, `GET ${limit}`);
  });
});

describe("a cost kept per document and variables", () => {
  // Five pages whose size is a variable with a default written in the document: absent, the
  // default (100) applies and the five cost ~7,000; sent as null, perPage is null (15 rows,
  // ~1,000). A kept cost must tell the two apart, whichever comes first and whichever network sends it.
  const pagesOfDefault = (name: string) => `query ${name}($p: Int = 100) { ${aliased(5, (i) => `a${i}: vehicles(perPage: $p) { data { ${allVehicleFields} } }`)} }`;

  test("absent after an explicit null is refused for cost, also from another network", async () => {
    const document = pagesOfDefault("KeptNull");
    expectAnswered(await api.graphql(document, { p: null }), "explicit null first");
    expectRefused(await api.graphql(document, {}), "cost", 5000, "absent after null");
    expectRefused(await api.graphql(document), "cost", 5000, "no variables after null");
    const other = client(service.url, (await service.network()).apiKey);
    expectRefused(await other.graphql(document, {}), "cost", 5000, "absent, another network");
  });

  test("an explicit null after absent is answered", async () => {
    const document = pagesOfDefault("KeptAbsent");
    expectRefused(await api.graphql(document, {}), "cost", 5000, "absent first");
    expectAnswered(await api.graphql(document, { p: null }), "explicit null after absent");
  });
});

describe("fragments", () => {
  const fragment = `fragment All on Vehicle { ${allVehicleFields} }`;

  test("three pages of all fields spread from a fragment are answered", async () => {
    expectAnswered(await api.graphql(`{ ${aliased(3, (i) => pageOfAll(`p${i}`, "...All"))} } ${fragment}`), "3 pages by fragment");
  });

  test("four pages of all fields spread from a fragment cost what four written out do: refused", async () => {
    expectRefused(await api.graphql(`{ ${aliased(4, (i) => pageOfAll(`p${i}`, "...All"))} } ${fragment}`), "cost", 5000, "4 pages by fragment");
  });

  test("a fragment spread twelve times (one page as executed, twelve as written) is answered or refused for cost", async () => {
    const fragments = `fragment Page on Query { vehicles(perPage: 100) { data { ${allVehicleFields} } } } fragment Twelve on Query { ${"...Page ".repeat(12)}}`;
    const response = await api.graphql(`{ ...Twelve } ${fragments}`);
    // Executed, the spreads merge into one page (~1,400); counted as written, twelve (~16,800).
    // Either answer is acceptable: a 200 without errors, or a 400 naming the cost.
    if (response.status === 200) expectAnswered(response, "fragment spread twelve times");
    else expectRefused(response, "cost", 5000, "fragment spread twelve times");
  });

  test("a fragment doubling 40 times is answered at once (a 400 or a 200), never hangs or 5xx", async () => {
    // Run in a process of its own: a server that expands the spreads would block its event loop
    // (here: the test's own) for hours; the child is killed instead.
    const database = await freshDatabase();
    await migrate(database.url);
    const db = await openDatabase(database.url);
    const { apiKey } = await createNetwork(db, { name: "Bomb", identifierType: "steam", graceSeconds: 0 }, new Date());
    await db.close();
    const child = await startServiceProcess({ DATABASE_URL: database.url });
    try {
      const levels = 40;
      const fragments = ["fragment F0 on Vehicle { plate }"];
      for (let level = 1; level <= levels; level++) fragments.push(`fragment F${level} on Vehicle { ...F${level - 1} ...F${level - 1} }`);
      const response = await fetch(`${child.url}/graphql`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json", "X-API-Key": apiKey },
        body: JSON.stringify({ query: `{ vehicles(perPage: 100) { data { ...F${levels} } } } ${fragments.join(" ")}` }),
        signal: AbortSignal.timeout(15_000),
      }).catch((error: Error) => error);
      expect(response).toBeInstanceOf(Response);
      const answer = response as Response;
      expect([200, 400]).toContain(answer.status);
      const body = (await answer.json()) as { data?: unknown; errors?: unknown[] };
      if (answer.status === 400) expect(Array.isArray(body.errors)).toBe(true);
      else expect(body.errors).toBeUndefined();
    } finally {
      await child.stop("SIGKILL");
      await database.drop();
    }
  }, 60_000);
});

describe("requests that are not one operation", () => {
  test("a batch (a JSON array of operations) is refused with a 4xx and runs nothing", async () => {
    const own = client(service.url, (await service.network()).apiKey);
    const batch = [
      { query: 'mutation { createVehicle(input: {plate: "BATCH-1"}) { id } }' },
      { query: 'mutation { createVehicle(input: {plate: "BATCH-2"}) { id } }' },
    ];
    const response = await own.request("POST", "/graphql", { rawBody: JSON.stringify(batch), headers: { "Content-Type": "application/json" } });
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
    expect(Array.isArray(response.body?.errors) || typeof response.body?.message === "string").toBe(true);
    expect(await vehiclesTotal(own)).toBe(0);
  });

  test("a query with a 900 KB string variable answers 4xx or normally, never 5xx", async () => {
    const search = "x".repeat(900 * 1024);
    const response = await api.graphql("query($s: String) { vehicles(search: $s) { meta { total } } }", { s: search });
    expect(response.status).toBeLessThan(500);
    if (response.status === 200 && !response.body.errors) expect(response.body.data.vehicles.meta.total).toBe(0);
    else expect(Array.isArray(response.body?.errors)).toBe(true);
  });

  test("a mutation with a 900 KB string variable answers 4xx or BAD_USER_INPUT, never 5xx, stores nothing", async () => {
    const own = client(service.url, (await service.network()).apiKey);
    const response = await own.graphql("mutation($input: CreateVehicleInput!) { createVehicle(input: $input) { id } }", {
      input: { plate: "HUGE-1", comment: "c".repeat(900 * 1024) },
    });
    expect(response.status).toBeLessThan(500);
    expect(Array.isArray(response.body?.errors)).toBe(true);
    if (response.status === 200) expect(response.body.errors[0].extensions.code).toBe("BAD_USER_INPUT");
    expect(await vehiclesTotal(own)).toBe(0);
  });
});

describe("the documents clients send stay within the limits", () => {
  const readme = fs.readFileSync(path.resolve(__dirname, "..", "README.md"), "utf8");
  const readmeDocuments = [...readme.matchAll(/```graphql\n([\s\S]*?)```/g)].map((match) => match[1]);

  test("the README shows at least one GraphQL document", () => {
    expect(readmeDocuments.length).toBeGreaterThan(0);
  });

  test.each(readmeDocuments.map((document, index) => ({ index, document })))("README document #$index is answered without errors", async ({ document }) => {
    expectAnswered(await api.graphql(document), document.slice(0, 60));
  });

  test.each([
    ["graphql's getIntrospectionQuery()", getIntrospectionQuery()],
    [
      "getIntrospectionQuery() with every option",
      getIntrospectionQuery({ descriptions: true, specifiedByUrl: true, directiveIsRepeatable: true, schemaDescription: true, inputValueDeprecation: true }),
    ],
  ])("%s (GraphiQL's schema fetch) is answered without errors", async (_name, query) => {
    const response = await api.graphql(query);
    expectAnswered(response, "introspection");
    expect(response.body.data.__schema.queryType.name).toBe("Query");
  });
});

describe("a report's cost follows its range", () => {
  const day = 86_400_000;
  const until = Date.parse("2026-06-01T00:00:00Z");
  const reports = (count: number, days: number) =>
    `{ ${Array.from({ length: count }, (_, i) => `r${i}: dutyHours(from: "${new Date(until - days * day).toISOString()}", to: "${new Date(until).toISOString()}") { groupBy }`).join(" ")} }`;

  test("unit: 400 per month (31 days) of the range, at most 4,000; a month's when the range cannot be read", () => {
    const at = (days: number) => reportCost({ from: new Date(until - days * day), to: new Date(until) });
    expect([at(1), at(31), at(32), at(93), at(365), at(400), at(4000)]).toEqual([400, 400, 800, 1200, 4000, 4000, 4000]);
    expect(reportCost({ from: new Date(until - 40 * day) }, until)).toBe(800);
    expect(reportCost({ from: new Date(until), to: new Date(until - day) })).toBe(reportCostPerMonth);
    expect(reportCost({ from: "not a date" })).toBe(reportCostPerMonth);
  });

  test("over HTTP: five one-month reports fit in one operation, five three-month reports do not, two year reports do not", async () => {
    expectAnswered(await api.graphql(reports(5, 30)), "five one-month reports");
    expectAnswered(await api.graphql(reports(4, 90)), "four three-month reports");
    expectRefused(await api.graphql(reports(5, 90)), "cost", 5000, "five three-month reports");
    expectAnswered(await api.graphql(reports(1, 400)), "one report of 400 days");
    expectRefused(await api.graphql(reports(2, 365)), "cost", 5000, "two year reports");
  });
});
