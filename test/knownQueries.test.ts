// Known GraphQL queries answered without Yoga's pipeline (src/server/knownQueries.ts): every
// answer equals, byte for byte and header for header, the one Yoga's pipeline gives alone, and
// only valid query operations take the shortcut.
import { createYoga } from "graphql-yoga";
// The server adapter hands the app requests of @whatwg-node/fetch, not node's own.
import { Request } from "@whatwg-node/fetch";
import { schema } from "../src/schema";
import { createGraphqlServer } from "../src/server/graphql";
import { answerKnownQueries, jsonMediaTypeFor } from "../src/server/knownQueries";
import type { Context } from "../src/context";
import { startService, type TestService, type TestNetwork } from "./support/service";
import { client } from "./support/http";

let service: TestService;
let network: TestNetwork;
beforeAll(async () => {
  service = await startService();
  network = await service.network();
  const api = client(service.url, network.apiKey);
  for (const plate of ["KQ-1", "KQ-2", "KQ-3"]) expect((await api.post("/vehicles", { plate, owner: "Known Query" })).status).toBe(201);
});
afterAll(() => service.close());

const scope = () => ({ network: { id: network.id, name: network.name, identifierType: network.identifierType } });

interface Sent {
  body: string;
  headers?: Record<string, string>;
  method?: string;
}

async function answer(server: ReturnType<typeof createGraphqlServer>, sent: Sent) {
  const request = new Request("http://service/graphql", {
    method: sent.method ?? "POST",
    headers: { "Content-Type": "application/json", ...sent.headers },
    body: sent.body,
  });
  const response = await server.handle(request, scope());
  return { status: response.status, headers: Object.fromEntries(response.headers), body: await response.text() };
}

const listQuery = `query List($perPage: Int) {
  vehicles(perPage: $perPage, sortField: plate) { data { id plate owner wanted createdAt } meta { total lastPage } }
}`;

const cases: [string, Sent][] = [
  ["a list query with variables", { body: JSON.stringify({ query: listQuery, variables: { perPage: 2 } }) }],
  ["null variables, operation name and extensions", { body: JSON.stringify({ query: listQuery, variables: null, operationName: null, extensions: null }) }],
  ["a fragment, an alias and __typename", { body: JSON.stringify({ query: "{ first: vehicles(perPage: 1) { data { ...V } } } fragment V on Vehicle { __typename id plate }" }) }],
  ["introspection", { body: JSON.stringify({ query: "{ __schema { queryType { name } } __type(name: \"Vehicle\") { fields { name } } }" }) }],
  ["an operation picked by name", { body: JSON.stringify({ query: "query A { network { name } } query B { activeUsers { count } }", operationName: "B" }) }],
  ["two operations and no name", { body: JSON.stringify({ query: "query A { network { name } } query B { activeUsers { count } }" }) }],
  ["an unknown operation name", { body: JSON.stringify({ query: "query A { network { name } }", operationName: "C" }) }],
  ["a field error (not found)", { body: JSON.stringify({ query: "{ vehicle(id: 999999) { id } }" }) }],
  ["a variable of the wrong type", { body: JSON.stringify({ query: listQuery, variables: { perPage: "two" } }) }],
  ["a value the resolver refuses", { body: JSON.stringify({ query: listQuery, variables: { perPage: -1 } }) }],
  ["an invalid document", { body: JSON.stringify({ query: "{ vehicles { nope } }" }) }],
  ["a syntax error", { body: JSON.stringify({ query: "{ vehicles { " }) }],
  ["an unknown body key", { body: JSON.stringify({ query: "{ network { name } }", extra: 1 }) }],
  ["variables as a list", { body: JSON.stringify({ query: listQuery, variables: [1] }) }],
  ["an operation name that is a number", { body: JSON.stringify({ query: listQuery, operationName: 7 }) }],
  ["no query", { body: JSON.stringify({ variables: {} }) }],
  ["a batch", { body: JSON.stringify([{ query: "{ network { name } }" }]) }],
  ["a JSON null", { body: "null" }],
  ["broken JSON", { body: "{\"query\": " }],
  ["a charset in the content type", { body: JSON.stringify({ query: "{ network { name } }" }), headers: { "Content-Type": "application/json; charset=utf-8" } }],
  ["Accept */*", { body: JSON.stringify({ query: "{ network { name } }" }), headers: { Accept: "*/*" } }],
  ["Accept application/json", { body: JSON.stringify({ query: "{ network { name } }" }), headers: { Accept: "application/json" } }],
  ["Accept graphql-response+json", { body: JSON.stringify({ query: "{ network { name } }" }), headers: { Accept: "application/graphql-response+json" } }],
  ["Accept graphql-response+json, json", { body: JSON.stringify({ query: "{ network { name } }" }), headers: { Accept: "application/graphql-response+json, application/json;q=0.9" } }],
  ["Accept json, graphql-response+json", { body: JSON.stringify({ query: "{ network { name } }" }), headers: { Accept: "application/json, application/graphql-response+json" } }],
  ["Accept event stream", { body: JSON.stringify({ query: "{ network { name } }" }), headers: { Accept: "text/event-stream" } }],
  ["Accept multipart", { body: JSON.stringify({ query: "{ network { name } }" }), headers: { Accept: "multipart/mixed" } }],
  ["Accept another charset", { body: JSON.stringify({ query: "{ network { name } }" }), headers: { Accept: "application/json; charset=iso-8859-1" } }],
  ["Accept text/plain", { body: JSON.stringify({ query: "{ network { name } }" }), headers: { Accept: "text/plain" } }],
  ["a GraphQL error with graphql-response+json", { body: JSON.stringify({ query: "{ vehicle(id: 999999) { id } }" }), headers: { Accept: "application/graphql-response+json" } }],
];

describe("answers equal Yoga's own", () => {
  const withShortcut = () => createGraphqlServer(schema, service.db, service.clock.now);
  const yogaAlone = () => createGraphqlServer(schema, service.db, service.clock.now, { knownQueries: false });

  test.each(cases)("%s", async (_name, sent) => {
    const [shortcut, yoga] = [withShortcut(), yogaAlone()];
    // Three times: a document is compiled at its second run (src/server/compiledExecute.ts).
    for (let run = 0; run < 3; run++) {
      const [fast, plain] = [await answer(shortcut, sent), await answer(yoga, sent)];
      expect(fast).toEqual(plain);
    }
  });

  test("a list query answers its data (the comparison above compares real answers)", async () => {
    const { status, body } = await answer(withShortcut(), cases[0][1]);
    expect(status).toBe(200);
    expect(JSON.parse(body).data.vehicles.data.map((vehicle: { plate: string }) => vehicle.plate)).toEqual(["KQ-1", "KQ-2"]);
  });

  test("a mutation runs once, through Yoga", async () => {
    const query = "mutation { createVehicle(input: {plate: \"KQ-M\"}) { plate } }";
    const created = await answer(withShortcut(), { body: JSON.stringify({ query }) });
    expect(JSON.parse(created.body)).toEqual({ data: { createVehicle: { plate: "KQ-M" } } });
    const { body } = await answer(withShortcut(), { body: JSON.stringify({ query: "{ vehicles(search: \"KQ-M\") { meta { total } } }" }) });
    expect(JSON.parse(body).data.vehicles.meta.total).toBe(1);
  });
});

describe("which requests take the shortcut", () => {
  /** A Yoga with the plugin, counting the operations Yoga's own pipeline executes. */
  function countingYoga() {
    const counts = { yogaExecutions: 0 };
    const yoga = createYoga<Record<string, unknown>, Context>({
      schema,
      logging: false,
      plugins: [
        answerKnownQueries(schema, (): Context => ({ db: service.db, network: scope().network, now: service.clock.now })),
        { onExecute: () => void counts.yogaExecutions++ },
      ],
      context: (): Context => ({ db: service.db, network: scope().network, now: service.clock.now }),
    });
    const post = async (body: unknown, headers: Record<string, string> = {}) => {
      const response = await yoga.fetch("http://service/graphql", {
        method: "POST",
        headers: { "Content-Type": "application/json", ...headers },
        body: JSON.stringify(body),
      });
      const text = await response.text();
      const isJson = response.headers.get("content-type")?.startsWith("application/json");
      return { status: response.status, body: (isJson ? JSON.parse(text) : text) as { data?: unknown; errors?: unknown[] } };
    };
    return { counts, post };
  }

  test("a valid query is answered without Yoga's execution, again and again", async () => {
    const { counts, post } = countingYoga();
    for (let run = 0; run < 3; run++) {
      const { status, body } = await post({ query: "{ network { name } }" });
      expect({ status, body }).toEqual({ status: 200, body: { data: { network: { name: network.name } } } });
    }
    expect(counts.yogaExecutions).toBe(0);
  });

  test("a query whose result has errors is run again by Yoga, which answers it", async () => {
    const { counts, post } = countingYoga();
    const { body } = await post({ query: "{ vehicle(id: 999999) { id } }" });
    expect(body.errors).toHaveLength(1);
    expect(counts.yogaExecutions).toBe(1);
  });

  test("mutations, invalid documents and streamed media types go to Yoga", async () => {
    const { counts, post } = countingYoga();
    await post({ query: "mutation { deleteVehicle(id: 999999) { id } }" });
    expect(counts.yogaExecutions).toBe(1);
    await post({ query: "{ network { nope } }" });
    expect(counts.yogaExecutions).toBe(1); // refused by validation, before execution
    await post({ query: "{ network { name } }" }, { Accept: "text/event-stream" });
    expect(counts.yogaExecutions).toBe(2);
  });
});

describe("jsonMediaTypeFor (Yoga's choice among its result processors)", () => {
  test.each([
    [null, "application/json"],
    ["*/*", "application/json"],
    ["application/*", "application/json"],
    ["application/json", "application/json"],
    ["application/graphql-response+json", "application/graphql-response+json"],
    ["application/graphql-response+json, application/json", "application/graphql-response+json"],
    // The last listed JSON type wins, as in Yoga.
    ["application/json, application/graphql-response+json", "application/json"],
    ["text/event-stream", null],
    ["multipart/mixed", null],
    ["text/event-stream, application/json", "application/json"],
    ["application/json; charset=latin1", null],
    ["text/html", null],
  ])("Accept %p -> %p", (accept, expected) => {
    expect(jsonMediaTypeFor(accept)).toBe(expected);
  });
});
