// The REST operations (src/rest/sofa.ts, with src/rest/sofaOperations.ts and
// src/rest/operationVariables.ts): each runs the document SOFA's own router runs for it, with the
// variables SOFA's route handler made, through public APIs only. An upgrade of sofa-api or
// @graphql-tools/utils that builds other documents or variables fails here, in plain `npm test`.
import { GraphQLError, print, type ExecutionArgs, type ExecutionResult } from "graphql";
import { useSofa } from "sofa-api";
import type { Database } from "../src/db/client";
import { createSofaClient, restIgnoredTypes, restView, type SofaOperation } from "../src/rest/sofa";
import { sofaOperationDocuments } from "../src/rest/sofaOperations";
import { restOperations, restRouteTable } from "../src/rest/routes";
import { schema } from "../src/schema";
import { operatorKey } from "../src/context";

const network = { id: 7, name: "Guard", identifierType: "steam", timeZone: "UTC", autoStopAfterHours: null };

/** A SOFA client whose execute records what it was asked and answers `answer`. */
function recordingClient(answer: (args: ExecutionArgs) => ExecutionResult | Promise<ExecutionResult> = () => ({ data: {} })) {
  const calls: ExecutionArgs[] = [];
  const runnerOf = createSofaClient(schema, {} as Database, () => new Date(0), (args) => {
    calls.push(args);
    return answer(args);
  }, restOperations);
  const callSofa = (operation: SofaOperation, ...[values, runFor, key]: Parameters<ReturnType<typeof runnerOf>>) => runnerOf(operation)(values, runFor, key);
  return { calls, callSofa, runnerOf };
}

/** What SOFA's own router (useSofa, called as a fetch handler) runs for an operation, with these values as a JSON body. */
async function runBySofasRouter(operations: SofaOperation[]) {
  const view = restView(schema);
  const calls: ExecutionArgs[] = [];
  const router = useSofa({
    basePath: "",
    schema: view,
    routes: Object.fromEntries(operations.map((operation) => [operation, { method: "POST", path: `/${operation}` }])),
    ignore: restIgnoredTypes(view),
    context: () => ({}),
    execute: ((args: ExecutionArgs) => {
      calls.push(args);
      return { data: {} };
    }) as never,
  });
  return async (operation: SofaOperation, values: Record<string, unknown>) => {
    calls.length = 0;
    const response = await router.fetch(
      new Request(`http://sofa.test/${operation}`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(values) }),
    );
    await response.text();
    expect(calls).toHaveLength(1);
    return calls[0];
  };
}

describe("REST operations as SOFA builds them (src/rest/sofa.ts)", () => {
  test("every operation runs the document, operation name and variables SOFA's own router runs", async () => {
    const operations = [...new Set(restOperations)];
    expect(operations.length).toBeGreaterThan(5);
    const bySofa = await runBySofasRouter(operations);
    const { calls, callSofa } = recordingClient();
    // Typed values as the REST layer holds them; SOFA's router gets them as JSON text.
    const typed = { id: "5", identifier: "steam:1", page: 2, perPage: 3, sortField: "owner", from: new Date("2026-01-01T00:00:00Z"), input: { plate: "A", wanted: true } };
    for (const operation of operations) {
      calls.length = 0;
      await callSofa(operation, typed, network, operatorKey);
      const sofa = await bySofa(operation, JSON.parse(JSON.stringify(typed)));
      expect({ operation, document: print(calls[0].document) }).toEqual({ operation, document: print(sofa.document) });
      expect(calls[0].operationName).toBe(sofa.operationName);
      expect(calls[0].variableValues).toEqual(sofa.variableValues);
    }
  });

  test("a document is built once and the same object runs every time (compiled queries are kept per document)", async () => {
    const { calls, callSofa } = recordingClient();
    await callSofa("Query.vehicle", { id: "1" }, network, operatorKey);
    await callSofa("Query.vehicle", { id: "2" }, network, operatorKey);
    expect(calls[1].document).toBe(calls[0].document);
    expect(print(calls[0].document)).toMatch(/^query vehicle_query\(\$id: ID!\) \{\n {2}vehicle\(id: \$id\) \{\n {4}id\n {4}plate\n/);
  });

  test("an operation the schema has no root field for fails when the client is made; an unknown one has no route", async () => {
    expect(() => sofaOperationDocuments(restView(schema), [], ["Query.nothingLikeThis"])).toThrow(/no root field/);
    const { runnerOf } = recordingClient();
    expect(() => runnerOf("Query.nothingLikeThis")).toThrow(/no SOFA route/);
  });

  test("typed variables reach execute as they are (an input object is not serialized), and the data comes back as JSON", async () => {
    const { calls, callSofa } = recordingClient((args) => ({ data: { updateVehicle: { id: 5, echoed: args.variableValues } } }));
    const input = { plate: "GUARD 1", wanted: true, tuv: null };
    const result = await callSofa("Mutation.updateVehicle", { id: "5", input }, network, operatorKey);
    expect(calls).toHaveLength(1);
    expect(calls[0].variableValues).toEqual({ id: "5", input });
    expect((calls[0].variableValues as { input: unknown }).input).toBe(input);
    expect((calls[0].contextValue as { network: unknown }).network).toEqual(network);
    expect(calls[0].operationName).toBe("updateVehicle_mutation");
    expect(result).toEqual({ ok: true, json: JSON.stringify({ id: 5, echoed: { id: "5", input } }) });
  });

  test("an Int and an enum argument keep their types; absent and null ones stay absent; an instant is sent as ISO text", async () => {
    const { calls, callSofa } = recordingClient(() => ({ data: { vehicles: { data: [], meta: {} } } }));
    await callSofa("Query.vehicles", { page: 2, sortField: "owner", search: null, perPage: undefined }, network, operatorKey);
    expect(calls[0].variableValues).toEqual({ page: 2, sortField: "owner" });
    await callSofa("Query.dutyHours", { from: new Date("2026-03-01T00:00:00+01:00") }, network, operatorKey);
    expect(calls[1].variableValues).toEqual({ from: "2026-02-28T23:00:00.000Z" });
  });

  test("a value its scalar refuses is a request error, and nothing runs", async () => {
    const { calls, callSofa } = recordingClient();
    const result = await callSofa("Query.vehicles", { page: "two" }, network, operatorKey);
    expect(calls).toHaveLength(0);
    expect(result.ok).toBe(false);
    const [error] = (result as { errors: readonly unknown[] }).errors;
    expect(error).toBeInstanceOf(GraphQLError);
    expect((error as GraphQLError).message).toMatch(/Int cannot represent/);
    expect((error as GraphQLError).originalError).toBeUndefined();
  });

  test("errors come back as they are, for the REST layer to map, whether answered or thrown", async () => {
    const error = new Error("boom");
    const answered = recordingClient(() => ({ errors: [error as GraphQLError] }));
    expect(await answered.callSofa("Query.vehicle", { id: "1" }, network, operatorKey)).toEqual({ ok: false, errors: [error] });
    const thrown = recordingClient(() => Promise.reject(error));
    expect(await thrown.callSofa("Query.vehicle", { id: "1" }, network, operatorKey)).toEqual({ ok: false, errors: [error] });
  });

  test("the route table names each public route once", () => {
    const routes = restRouteTable.map((route) => `${route.method} ${route.path}`);
    expect(new Set(routes).size).toBe(routes.length);
  });
});
