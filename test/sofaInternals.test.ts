// The guard of src/rest/sofaHandlers.ts, the one module that relies on sofa-api's internals: an
// upgrade of sofa-api that changes them fails here, in plain `npm test`, not at a client.
import fs from "node:fs";
import path from "node:path";
import type { ExecutionArgs } from "graphql";
import type { Database } from "../src/db/client";
import { createSofaClient } from "../src/rest/sofa";
import { restOperations, restRouteTable } from "../src/rest/routes";
import { schema } from "../src/schema";
import { repoRoot } from "./support/process";

const network = { id: 7, name: "Guard", identifierType: "steam", timeZone: "UTC", autoStopAfterHours: null };

/** A SOFA client whose execute records what it was asked and answers `answer`. */
function recordingClient(answer: (args: ExecutionArgs) => { data?: Record<string, unknown>; errors?: unknown[] }) {
  const calls: ExecutionArgs[] = [];
  const callSofa = createSofaClient(schema, {} as Database, () => new Date(0), (args) => {
    calls.push(args);
    return answer(args) as never;
  }, restOperations);
  return { calls, callSofa };
}

describe("sofa-api internals (src/rest/sofaHandlers.ts)", () => {
  test("sofa-api is pinned to one exact version, the one installed", () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(repoRoot, "package.json"), "utf8"));
    const pinned: string = manifest.dependencies["sofa-api"];
    expect(pinned).toMatch(/^\d+\.\d+\.\d+$/);
    const installed = JSON.parse(fs.readFileSync(path.join(repoRoot, "node_modules", "sofa-api", "package.json"), "utf8")).version;
    expect(installed).toBe(pinned);
  });

  test("every operation of the route table has a SOFA handler, and an unknown one has none", async () => {
    const { callSofa } = recordingClient(() => ({ data: {} }));
    expect(new Set(restOperations).size).toBeGreaterThan(5);
    await expect(callSofa("Query.nothingLikeThis", {}, network)).rejects.toThrow(/no SOFA route/);
  });

  test("typed variables reach execute as they are (an input object is not serialized), and the data comes back as JSON", async () => {
    const { calls, callSofa } = recordingClient((args) => ({ data: { updateVehicle: { id: 5, echoed: args.variableValues } } }));
    const input = { plate: "GUARD 1", wanted: true, tuv: null };
    const result = await callSofa("Mutation.updateVehicle", { id: "5", input }, network);
    expect(calls).toHaveLength(1);
    expect(calls[0].variableValues).toEqual({ id: "5", input });
    expect((calls[0].variableValues as { input: unknown }).input).toBe(input);
    expect((calls[0].contextValue as { network: unknown }).network).toEqual(network);
    expect(calls[0].operationName).toBeTruthy();
    expect(result).toEqual({ ok: true, json: JSON.stringify({ id: 5, echoed: { id: "5", input } }) });
  });

  test("an Int and an enum argument keep their types; absent ones stay absent", async () => {
    const { calls, callSofa } = recordingClient(() => ({ data: { vehicles: { data: [], meta: {} } } }));
    await callSofa("Query.vehicles", { page: 2, sortField: "owner" }, network);
    expect(calls[0].variableValues).toEqual({ page: 2, sortField: "owner" });
  });

  test("errors come back as they are, for the REST layer to map", async () => {
    const error = new Error("boom");
    const { callSofa } = recordingClient(() => ({ errors: [error] }));
    const result = await callSofa("Query.vehicle", { id: "1" }, network);
    expect(result).toEqual({ ok: false, errors: [error] });
  });

  test("the route table names each public route once", () => {
    const routes = restRouteTable.map((route) => `${route.method} ${route.path}`);
    expect(new Set(routes).size).toBe(routes.length);
  });
});
