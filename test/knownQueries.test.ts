// Known GraphQL queries answered without a fetch Request and Yoga's pipeline
// (src/server/knownQueries.ts, src/server/app.ts): every answer equals, byte for byte and header
// for header, the one Yoga's pipeline gives alone, in the app and over HTTP; only valid query
// operations take the shortcut, and a request is admitted (and rate-limited) once either way.
import { schema } from "../src/schema";
import { createApp, type App } from "../src/server/app";
import { jsonMediaTypeFor, knownQueries } from "../src/server/knownQueries";
import { operationGuards } from "../src/server/guardedExecute";
import { defaultLimits } from "../src/config/limits";
import { operatorKey, type Context } from "../src/context";
import { overPaths } from "../src/db/client";
import { startService, type TestService, type TestNetwork } from "./support/service";
import { client } from "./support/http";
import { countingReads } from "./support/countingReads";

let service: TestService;
let network: TestNetwork;
beforeAll(async () => {
  service = await startService();
  network = await service.network();
  const api = client(service.url, network.apiKey);
  for (const plate of ["KQ-1", "KQ-2", "KQ-3"]) expect((await api.post("/vehicles", { plate, owner: "Known Query" })).status).toBe(201);
});
afterAll(() => service.close());

interface Sent {
  body: string;
  headers?: Record<string, string>;
  method?: string;
}

const sentHeaders = (sent: Sent) => ({ "Content-Type": "application/json", "X-API-Key": network.apiKey, ...sent.headers });

async function answer(app: App, sent: Sent) {
  const request = new Request("http://service/graphql", { method: sent.method ?? "POST", headers: sentHeaders(sent), body: sent.body });
  const response = await app.fetch(request);
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

describe("a known query with errors runs once", () => {
  test("Yoga answers the result the shortcut computed, without running the operation again", async () => {
    const { read: counted, statements } = countingReads(service.db.read);
    const app = createApp({ db: overPaths(service.db, { read: counted }), now: service.clock.now });
    const sent = { body: JSON.stringify({ query: "{ vehicle(id: 999999) { id } }" }) };
    const vehicleReads = () => statements.filter((sql) => /FROM vehicles/.test(sql)).length;
    for (let request = 1; request <= 3; request++) {
      const answered = await answer(app, sent);
      expect(JSON.parse(answered.body).errors[0].extensions.code).toBe("NOT_FOUND");
      // Each request is a known query (its document is kept at first sight) and reads once.
      expect(vehicleReads()).toBe(request);
    }
  });
});

describe("answers equal Yoga's own", () => {
  const withShortcut = () => createApp({ db: service.db, now: service.clock.now });
  const yogaAlone = () => createApp({ db: service.db, now: service.clock.now, knownQueries: false });

  test.each(cases)("%s", async (_name, sent) => {
    const [shortcut, yoga] = [withShortcut(), yogaAlone()];
    // Three times: a document is compiled at its second run (src/server/compiledExecute.ts).
    for (let run = 0; run < 3; run++) {
      const [fast, plain] = [await answer(shortcut, sent), await answer(yoga, sent)];
      expect(fast).toEqual(plain);
    }
  });

  test.each(cases)("over HTTP: %s", async (_name, sent) => {
    const yoga = yogaAlone();
    for (let run = 0; run < 3; run++) {
      const response = await fetch(`${service.url}/graphql`, { method: sent.method ?? "POST", headers: sentHeaders(sent), body: sent.body });
      const plain = await answer(yoga, sent);
      const body = await response.text();
      expect({ status: response.status, type: response.headers.get("content-type"), body }).toEqual({
        status: plain.status,
        type: new Headers(plain.headers).get("content-type"),
        body: plain.body,
      });
      // JSON goes out with its length (streamed media types are Yoga's, chunked).
      if (response.headers.get("content-type")?.includes("json")) expect(Number(response.headers.get("content-length"))).toBe(Buffer.byteLength(body));
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

  test("a refused key, and a body over the limit, are answered as Yoga's path answers them", async () => {
    const sent = { body: JSON.stringify({ query: "{ network { name } }" }) };
    for (const headers of [{ "X-API-Key": "vrd_unknown" }, {}]) {
      const request = () => new Request("http://service/graphql", { method: "POST", headers: { ...sentHeaders(sent), ...headers }, body: sent.body });
      const [fast, plain] = [await withShortcut().fetch(request()), await yogaAlone().fetch(request())];
      expect({ status: fast.status, body: await fast.text() }).toEqual({ status: plain.status, body: await plain.text() });
    }
    const large = { body: JSON.stringify({ query: "{ network { name } }", variables: { pad: "x".repeat(1024 * 1024) } }) };
    const [fast, plain] = [await answer(withShortcut(), large), await answer(yogaAlone(), large)];
    expect(fast.status).toBe(413);
    expect(fast).toEqual(plain);
  });
});

describe("which requests take the shortcut", () => {
  const { documentLimits, execute } = operationGuards(schema, defaultLimits);
  const queries = knownQueries(schema, documentLimits, execute);
  const context = (): Context => ({ db: service.db, network: { id: network.id, name: network.name, identifierType: network.identifierType, timeZone: "UTC", autoStopAfterHours: null }, key: operatorKey, now: service.clock.now });
  const header = (headers: Record<string, string>) => (name: string) => headers[name] ?? null;
  const json = header({ "content-type": "application/json" });
  const recognized = (body: unknown, headers: (name: string) => string | null = json, method = "POST") =>
    queries.recognize(method, headers, JSON.stringify(body));

  test("a valid query is recognized and answered, again and again", async () => {
    for (let run = 0; run < 3; run++) {
      const known = recognized({ query: "{ network { name } }" });
      expect(known).not.toBeNull();
      const reply = await queries.answer(known!, context());
      expect(reply && "status" in reply && { status: reply.status, body: JSON.parse(reply.body!) }).toEqual({ status: 200, body: { data: { network: { name: network.name } } } });
    }
  });

  test("a query whose result has errors is handed to Yoga with its result", async () => {
    const known = recognized({ query: "{ vehicle(id: 999999) { id } }" });
    expect(known).not.toBeNull();
    const answered = await queries.answer(known!, context());
    expect(answered).toEqual({ executed: { data: { vehicle: null }, errors: [expect.objectContaining({ message: "Vehicle not found." })] } });
  });

  test("mutations, invalid documents, other methods and media types are not recognized", () => {
    expect(recognized({ query: "mutation { deleteVehicle(id: 999999) { id } }" })).toBeNull();
    expect(recognized({ query: "{ network { nope } }" })).toBeNull();
    expect(recognized({ query: "{ network { name } }" }, header({ "content-type": "application/json", accept: "text/event-stream" }))).toBeNull();
    expect(recognized({ query: "{ network { name } }" }, header({ "content-type": "text/plain" }))).toBeNull();
    expect(recognized({ query: "{ network { name } }" }, json, "PUT")).toBeNull();
    expect(recognized({ query: "{ network { name } }" })).not.toBeNull();
  });

  test("over HTTP, a query with errors counts once against the key's rate limit", async () => {
    const limited = await startService({ rateLimit: { perMinute: 4 } });
    try {
      const own = await limited.network();
      const api = client(limited.url, own.apiKey);
      for (let i = 0; i < 4; i++) {
        const { status, body } = await api.graphql("{ vehicle(id: 999999) { id } }");
        expect(status).toBe(200);
        expect(body.errors).toHaveLength(1);
      }
      expect((await api.graphql("{ network { name } }")).status).toBe(429);
    } finally {
      await limited.close();
    }
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
