// GraphQL end to end (CONTRACT: GraphQL): the fixed operation names, error codes, REST and
// GraphQL seeing the same data, GraphiQL offline, and the committed schema.graphql being current.
import fs from "node:fs";
import path from "node:path";
import { GraphQLList, GraphQLNonNull, getIntrospectionQuery, getNamedType, parse, isLeafType, isNonNullType, isObjectType, isScalarType, type GraphQLOutputType } from "graphql";
import { schema } from "../src/schema";
import { introspects, isLeafList, leafListSchemaOf, leafListType } from "../src/server/leafListSchema";
import { startService, type TestService, type TestNetwork } from "./support/service";
import { vehicleResponseFields } from "./support/contract";
import { client, type Client } from "./support/http";
import { printedSchema } from "../scripts/print-schema";

let service: TestService;
beforeAll(async () => {
  service = await startService();
});
afterAll(() => service.close());
afterEach(() => service.clock.reset());

/** The vehicle fields of CONTRACT "Vehicles", in REST and GraphQL alike. */
const vehicleFieldNames: string[] = [...vehicleResponseFields];
const vehicleSelection = vehicleFieldNames.join(" ");

const createVehicleMutation = `mutation Create($input: CreateVehicleInput!) { createVehicle(input: $input) { ${vehicleSelection} } }`;
const updateVehicleMutation = `mutation Update($id: ID!, $input: UpdateVehicleInput!) { updateVehicle(id: $id, input: $input) { ${vehicleSelection} } }`;
const deleteVehicleMutation = `mutation Delete($id: ID!) { deleteVehicle(id: $id) { ${vehicleSelection} } }`;
const vehicleQuery = `query One($id: ID!) { vehicle(id: $id) { ${vehicleSelection} } }`;

const iso = (date: Date) => date.toISOString();

async function setup(): Promise<{ network: TestNetwork; api: Client }> {
  const network = await service.network();
  return { network, api: client(service.url, network.apiKey) };
}

/** The single error of a response: its code, and no data for the failed field. */
function singleError(body: any) {
  expect(body.errors).toHaveLength(1);
  return body.errors[0];
}

describe("vehicles", () => {
  test("Vehicle has exactly the REST response fields, with the same values", async () => {
    const { api } = await setup();
    const introspection = await api.graphql(`{ __type(name: "Vehicle") { fields { name } } }`);
    const names = introspection.body.data.__type.fields.map((field: { name: string }) => field.name);
    expect([...names].sort()).toEqual([...vehicleFieldNames].sort());

    const created = await api.post("/vehicles", {
      plate: "GQL-1",
      cartyp: "Vapid",
      car: "Stanier",
      owner: "Max Mustermann",
      tuv: "2027-03-01",
      comment: "Seen near the docks",
      color: "black",
      wanted: true,
      wanted_reason: "Robbery",
      synced: 1,
      sync_id: "ext-7",
    });
    expect(created.status).toBe(201);
    expect(Object.keys(created.body.data).sort()).toEqual([...vehicleFieldNames].sort());

    const gql = await api.graphql(vehicleQuery, { id: String(created.body.data.id) });
    expect(gql.body).toEqual({ data: { vehicle: created.body.data } });
    expect(gql.body.data.vehicle).toMatchObject({
      plate: "GQL-1",
      carType: "Vapid",
      generalInspection: "2027-03-01",
      wanted: true,
      wantedReason: "Robbery",
      synced: true,
      syncId: "ext-7",
    });
  });

  test("createVehicle, updateVehicle and deleteVehicle, each visible over REST", async () => {
    const { api } = await setup();
    const t1 = new Date("2030-06-01T10:00:00.000Z");
    service.clock.set(t1);
    const created = await api.graphql(createVehicleMutation, { input: { plate: "  LS-4711 ", cartyp: "Bravado", tuv: "2028-02-29" } });
    expect(created.body.errors).toBeUndefined();
    const vehicle = created.body.data.createVehicle;
    expect(vehicle).toEqual({
      id: expect.any(Number),
      plate: "LS-4711",
      carType: "Bravado",
      car: null,
      owner: null,
      generalInspection: "2028-02-29",
      comment: null,
      color: null,
      wanted: false,
      wantedReason: null,
      synced: false,
      syncId: null,
      createdAt: iso(t1),
      updatedAt: iso(t1),
    });
    const restRead = await api.get(`/vehicles/${vehicle.id}`);
    expect(restRead.status).toBe(200);
    expect(restRead.body).toEqual({ data: vehicle });

    // Only the fields sent change; explicit null clears a field.
    const t2 = new Date("2030-06-02T11:00:00.000Z");
    service.clock.set(t2);
    const updated = await api.graphql(updateVehicleMutation, {
      id: String(vehicle.id),
      input: { owner: "Franklin", wanted: true, wanted_reason: "Unpaid fines", cartyp: null },
    });
    expect(updated.body.errors).toBeUndefined();
    const afterUpdate = { ...vehicle, owner: "Franklin", wanted: true, wantedReason: "Unpaid fines", carType: null, updatedAt: iso(t2) };
    expect(updated.body.data.updateVehicle).toEqual(afterUpdate);
    expect((await api.get(`/vehicles/${vehicle.id}`)).body).toEqual({ data: afterUpdate });

    // REST writes are visible over GraphQL.
    const t3 = new Date("2030-06-03T12:00:00.000Z");
    service.clock.set(t3);
    const patched = await api.patch(`/vehicles/${vehicle.id}`, { color: "green", synced: true });
    expect(patched.status).toBe(200);
    const afterPatch = { ...afterUpdate, color: "green", synced: true, updatedAt: iso(t3) };
    expect(patched.body).toEqual({ data: afterPatch });
    expect((await api.graphql(vehicleQuery, { id: String(vehicle.id) })).body).toEqual({ data: { vehicle: afterPatch } });

    // deleteVehicle returns the vehicle as it was; afterwards it is gone everywhere.
    const deleted = await api.graphql(deleteVehicleMutation, { id: String(vehicle.id) });
    expect(deleted.body).toEqual({ data: { deleteVehicle: afterPatch } });
    const restGone = await api.get(`/vehicles/${vehicle.id}`);
    expect(restGone.status).toBe(404);
    expect(restGone.body).toEqual({ message: expect.any(String) });
    const gqlGone = await api.graphql(vehicleQuery, { id: String(vehicle.id) });
    expect(singleError(gqlGone.body).extensions.code).toBe("NOT_FOUND");
    expect(gqlGone.body.data).toEqual({ vehicle: null });
    const deleteAgain = await api.graphql(deleteVehicleMutation, { id: String(vehicle.id) });
    expect(singleError(deleteAgain.body).extensions.code).toBe("NOT_FOUND");
  });

  test("a vehicle deleted over REST is gone over GraphQL", async () => {
    const { api } = await setup();
    const created = await api.graphql(createVehicleMutation, { input: { plate: "DEL-1" } });
    const id = created.body.data.createVehicle.id;
    expect((await api.delete(`/vehicles/${id}`)).status).toBe(204);
    const gql = await api.graphql(`{ vehicle(id: ${id}) { id } }`);
    expect(singleError(gql.body).extensions.code).toBe("NOT_FOUND");
    const list = await api.graphql(`{ vehicles { data { id } meta { total } } }`);
    expect(list.body).toEqual({ data: { vehicles: { data: [], meta: { total: 0 } } } });
  });

  test("vehicles(search, sortField, sortOrder, page, perPage) answers {data meta} like GET /vehicles", async () => {
    const { api } = await setup();
    const inputs = [
      { plate: "LS-001", owner: "Anna Apfel", car: "Buffalo" },
      { plate: "LS-002", owner: "Bernd", car: "Banshee" },
      { plate: "ls-003", owner: null, car: "Bison" },
      { plate: "SF-100", owner: "Carla", car: "Adder" },
    ];
    const ids: number[] = [];
    for (const input of inputs) {
      const created = await api.graphql(createVehicleMutation, { input });
      expect(created.body.errors).toBeUndefined();
      ids.push(created.body.data.createVehicle.id);
    }
    const listQuery = `query List($search: String, $sortField: VehicleSortField, $sortOrder: SortOrder, $page: Int, $perPage: Int) {
      vehicles(search: $search, sortField: $sortField, sortOrder: $sortOrder, page: $page, perPage: $perPage) {
        data { id plate owner }
        meta { currentPage perPage total lastPage from to }
      }
    }`;
    const args = { search: "Ls-", sortField: "owner", sortOrder: "desc", perPage: 2 };
    const page1 = await api.graphql(listQuery, { ...args, page: 1 });
    expect(page1.body).toEqual({
      data: {
        vehicles: {
          data: [
            { id: ids[1], plate: "LS-002", owner: "Bernd" },
            { id: ids[0], plate: "LS-001", owner: "Anna Apfel" },
          ],
          meta: { currentPage: 1, perPage: 2, total: 3, lastPage: 2, from: 1, to: 2 },
        },
      },
    });
    const page2 = await api.graphql(listQuery, { ...args, page: 2 });
    expect(page2.body).toEqual({
      data: {
        vehicles: {
          data: [{ id: ids[2], plate: "ls-003", owner: null }],
          meta: { currentPage: 2, perPage: 2, total: 3, lastPage: 2, from: 3, to: 3 },
        },
      },
    });

    // REST gives the same pages.
    const rest1 = await api.get("/vehicles?search=Ls-&sort_field=owner&sort_order=desc&per_page=2&page=1");
    expect(rest1.status).toBe(200);
    expect(rest1.body.data.map((v: { id: number }) => v.id)).toEqual([ids[1], ids[0]]);
    expect(rest1.body.meta).toMatchObject({ current_page: 1, per_page: 2, total: 3, last_page: 2, from: 1, to: 2 });
    const rest2 = await api.get("/vehicles?search=Ls-&sortField=owner&sortOrder=desc&perPage=2&page=2");
    expect(rest2.body.data.map((v: { id: number }) => v.id)).toEqual([ids[2]]);

    // Defaults: everything by id, 15 per page.
    const all = await api.graphql(`{ vehicles { data { id } meta { currentPage perPage total lastPage from to } } }`);
    expect(all.body).toEqual({
      data: {
        vehicles: {
          data: ids.map((id) => ({ id })),
          meta: { currentPage: 1, perPage: 15, total: 4, lastPage: 1, from: 1, to: 4 },
        },
      },
    });

    // Out-of-range paging is BAD_USER_INPUT with the field named.
    const tooMany = await api.graphql(`{ vehicles(perPage: 101) { meta { total } } }`);
    const error = singleError(tooMany.body);
    expect(error.extensions).toEqual({ code: "BAD_USER_INPUT", errors: { perPage: [expect.any(String)] } });
  });

  test("a vehicle of another network, or a missing one, is NOT_FOUND and never revealed or changed", async () => {
    const { api } = await setup();
    const { api: otherApi } = await setup();
    const foreign = await otherApi.post("/vehicles", { plate: "SECRET-99", owner: "Trevor" });
    expect(foreign.status).toBe(201);
    const foreignId = String(foreign.body.data.id);

    for (const [label, id] of [
      ["foreign", foreignId],
      ["missing", "987654"],
      ["not a number", "abc"],
    ]) {
      const read = await api.graphql(vehicleQuery, { id });
      const error = singleError(read.body);
      expect({ label, code: error.extensions.code }).toEqual({ label, code: "NOT_FOUND" });
      expect(read.body.data).toEqual({ vehicle: null });
      expect(JSON.stringify(read.body)).not.toMatch(/SECRET-99|Trevor/);
    }
    const update = await api.graphql(updateVehicleMutation, { id: foreignId, input: { owner: "Hijacked" } });
    expect(singleError(update.body).extensions.code).toBe("NOT_FOUND");
    expect(update.body.data).toBeNull();
    const del = await api.graphql(deleteVehicleMutation, { id: foreignId });
    expect(singleError(del.body).extensions.code).toBe("NOT_FOUND");
    expect(JSON.stringify(del.body)).not.toMatch(/SECRET-99|Trevor/);

    // Untouched in its own network.
    expect(await otherApi.get(`/vehicles/${foreignId}`)).toMatchObject({ status: 200, body: foreign.body });
    // And not listed in ours.
    expect((await api.graphql(`{ vehicles { meta { total } } }`)).body).toEqual({ data: { vehicles: { meta: { total: 0 } } } });
  });

  test("invalid input is BAD_USER_INPUT with per-field messages, and nothing is stored", async () => {
    const { network, api } = await setup();
    const tooLong = await api.graphql(createVehicleMutation, { input: { plate: "X".repeat(33) } });
    const error = singleError(tooLong.body);
    expect(error.extensions).toEqual({ code: "BAD_USER_INPUT", errors: { plate: [expect.any(String)] } });
    expect(error.extensions.errors.plate[0]).toMatch(/32/);
    expect(tooLong.body.data).toBeNull();

    const several = await api.graphql(createVehicleMutation, {
      input: { plate: "   ", tuv: "2026-02-30", comment: "c".repeat(5001), owner: "o".repeat(256) },
    });
    const severalError = singleError(several.body);
    expect(severalError.extensions.code).toBe("BAD_USER_INPUT");
    expect(Object.keys(severalError.extensions.errors).sort()).toEqual(["comment", "owner", "plate", "tuv"]);
    for (const messages of Object.values(severalError.extensions.errors) as string[][]) {
      expect(messages).toEqual([expect.stringMatching(/\S/)]);
    }
    expect(await service.db.prisma.vehicle.count({ where: { networkId: network.id } })).toBe(0);

    // The limits themselves are accepted.
    const atLimit = await api.graphql(createVehicleMutation, { input: { plate: "P".repeat(32), comment: "c".repeat(5000) } });
    expect(atLimit.body.errors).toBeUndefined();
    expect(atLimit.body.data.createVehicle.plate).toBe("P".repeat(32));

    // Updates are validated the same way and change nothing when refused.
    const id = String(atLimit.body.data.createVehicle.id);
    const badUpdate = await api.graphql(updateVehicleMutation, { id, input: { plate: null, tuv: "01.02.2027" } });
    const updateError = singleError(badUpdate.body);
    expect(updateError.extensions.code).toBe("BAD_USER_INPUT");
    expect(Object.keys(updateError.extensions.errors).sort()).toEqual(["plate", "tuv"]);
    expect((await api.get(`/vehicles/${id}`)).body.data).toEqual(atLimit.body.data.createVehicle);
  });
});

describe("officers and dutytime", () => {
  test("toggleDutytime and stopDutytime follow SPEC 3.1 and agree with REST", async () => {
    const { network, api } = await setup();
    const officer = await network.officer("76561198000000042", "Jane Doe");
    const t1 = new Date("2030-07-01T08:00:00.000Z");
    service.clock.set(t1);
    const status = "identifier onDuty startedAt stoppedEntries";
    const toggle = (identifier: string) => api.graphql(`mutation($i: String!) { toggleDutytime(identifier: $i) { ${status} } }`, { i: identifier });
    const stop = (identifier: string) => api.graphql(`mutation($i: String!) { stopDutytime(identifier: $i) { ${status} } }`, { i: identifier });

    expect((await toggle(officer.identifier)).body).toEqual({
      data: { toggleDutytime: { identifier: officer.identifier, onDuty: true, startedAt: iso(t1), stoppedEntries: 0 } },
    });
    expect((await api.get("/statistics/active-users")).body).toEqual({
      data: [{ identifier: officer.identifier, name: "Jane Doe", startedAt: iso(t1) }],
      count: 1,
    });
    expect((await api.graphql(`{ activeUsers { count data { identifier name startedAt } } }`)).body).toEqual({
      data: { activeUsers: { count: 1, data: [{ identifier: officer.identifier, name: "Jane Doe", startedAt: iso(t1) }] } },
    });

    service.clock.set(new Date("2030-07-01T09:00:00.000Z"));
    expect((await stop(officer.identifier)).body).toEqual({
      data: { stopDutytime: { identifier: officer.identifier, onDuty: false, startedAt: null, stoppedEntries: 1 } },
    });
    expect((await stop(officer.identifier)).body).toEqual({
      data: { stopDutytime: { identifier: officer.identifier, onDuty: false, startedAt: null, stoppedEntries: 0 } },
    });

    // On duty over REST, off over GraphQL.
    const t2 = new Date("2030-07-02T08:00:00.000Z");
    service.clock.set(t2);
    const rest = await api.post(`/dutytime/${encodeURIComponent(officer.identifier)}/toggle`);
    expect(rest.body).toEqual({ data: { identifier: officer.identifier, onDuty: true, startedAt: iso(t2), stoppedEntries: 0 } });
    expect((await toggle(officer.identifier)).body).toEqual({
      data: { toggleDutytime: { identifier: officer.identifier, onDuty: false, startedAt: null, stoppedEntries: 1 } },
    });
    expect((await api.get("/statistics/active-users")).body).toEqual({ data: [], count: 0 });

    const entries = await service.db.prisma.dutytimeEntry.findMany({ where: { officerId: officer.id }, orderBy: { id: "asc" } });
    expect(entries.map((entry) => [entry.startedAt.toISOString(), entry.endedAt?.toISOString() ?? null])).toEqual([
      [iso(t1), "2030-07-01T09:00:00.000Z"],
      [iso(t2), iso(t2)],
    ]);
  });

  test("dutytime errors: unknown officer NOT_FOUND, wrong identifier type BAD_USER_INPUT on identifier", async () => {
    const { network, api } = await setup();
    await network.officer("1");
    const unknown = await api.graphql(`mutation { toggleDutytime(identifier: "steam:2") { onDuty } }`);
    expect(singleError(unknown.body).extensions.code).toBe("NOT_FOUND");
    const wrongType = await api.graphql(`mutation { stopDutytime(identifier: "license:1") { onDuty } }`);
    expect(singleError(wrongType.body).extensions).toEqual({ code: "BAD_USER_INPUT", errors: { identifier: [expect.any(String)] } });
    const noType = await api.graphql(`mutation { toggleDutytime(identifier: "1") { onDuty } }`);
    expect(singleError(noType.body).extensions).toEqual({ code: "BAD_USER_INPUT", errors: { identifier: [expect.any(String)] } });
    expect(await service.db.prisma.dutytimeEntry.count({ where: { networkId: network.id } })).toBe(0);
  });

  test("createOfficer adds an officer; a taken identifier is CONFLICT, a wrong type BAD_USER_INPUT", async () => {
    const { network, api } = await setup();
    const t = new Date("2030-08-01T00:00:00.000Z");
    service.clock.set(t);
    const mutation = `mutation($input: CreateOfficerInput!) { createOfficer(input: $input) { id identifier name createdAt } }`;
    const created = await api.graphql(mutation, { input: { identifier: "steam:555", name: "  John Smith " } });
    expect(created.body).toEqual({
      data: { createOfficer: { id: expect.any(Number), identifier: "steam:555", name: "John Smith", createdAt: iso(t) } },
    });

    const duplicate = await api.graphql(mutation, { input: { identifier: "steam:555", name: "Someone Else" } });
    expect(singleError(duplicate.body).extensions.code).toBe("CONFLICT");
    expect(duplicate.body.data).toBeNull();

    const wrongType = await api.graphql(mutation, { input: { identifier: "license:555", name: "Wrong Type" } });
    expect(singleError(wrongType.body).extensions).toEqual({ code: "BAD_USER_INPUT", errors: { identifier: [expect.any(String)] } });

    // The same identifier in another network is no conflict.
    const { api: otherApi } = await setup();
    const elsewhere = await otherApi.graphql(mutation, { input: { identifier: "steam:555", name: "Other Network" } });
    expect(elsewhere.body.errors).toBeUndefined();
    expect(elsewhere.body.data.createOfficer).toMatchObject({ identifier: "steam:555", name: "Other Network" });

    const officers = await service.db.prisma.officer.findMany({ where: { networkId: network.id } });
    expect(officers.map((o) => [o.identifier, o.name])).toEqual([["steam:555", "John Smith"]]);
    // The officer created over GraphQL is usable over REST.
    const toggled = await api.post(`/dutytime/${encodeURIComponent("steam:555")}/toggle`);
    expect(toggled.status).toBe(200);
    expect(toggled.body.data).toMatchObject({ identifier: "steam:555", onDuty: true });
  });
});

describe("records and statistics", () => {
  test("createMissionReport/createPatientFile/createOffenderFile: createdAt omitted is now, explicit null is null", async () => {
    const { api } = await setup();
    const now = new Date("2030-09-10T12:00:00.000Z");
    service.clock.set(now);
    const explicit = "2030-09-09T08:30:00.000Z";
    const old = "2020-01-01T00:00:00Z";

    const kinds = [
      ["createMissionReport", "CreateMissionReportInput", "title", "Traffic stop"],
      ["createPatientFile", "CreatePatientFileInput", "patientName", "P. Atient"],
      ["createOffenderFile", "CreateOffenderFileInput", "offenderName", "O. Ffender"],
    ] as const;
    for (const [mutation, inputType, textField, text] of kinds) {
      const run = (input: Record<string, unknown>) =>
        api.graphql(`mutation($input: ${inputType}!) { ${mutation}(input: $input) { id ${textField} createdAt } }`, { input });
      const omitted = await run({ [textField]: text });
      expect(omitted.body).toEqual({ data: { [mutation]: { id: expect.any(Number), [textField]: text, createdAt: iso(now) } } });
      const unknown = await run({ createdAt: null });
      expect(unknown.body).toEqual({ data: { [mutation]: { id: expect.any(Number), [textField]: null, createdAt: null } } });
      const given = await run({ createdAt: explicit });
      expect(given.body).toEqual({ data: { [mutation]: { id: expect.any(Number), [textField]: null, createdAt: explicit } } });
      const older = await run({ createdAt: old });
      expect(older.body.data[mutation].createdAt).toBe("2020-01-01T00:00:00.000Z");
      // A literal null in the query text is an explicit null too.
      const literalNull = await api.graphql(`mutation { ${mutation}(input: { createdAt: null }) { createdAt } }`);
      expect(literalNull.body).toEqual({ data: { [mutation]: { createdAt: null } } });
      const bad = await run({ createdAt: "yesterday" });
      expect(bad.body.errors[0].extensions.code).toBe("BAD_USER_INPUT");
      expect(bad.body.data).toBeUndefined();
    }

    // Visible over REST: per kind 5 records, 2 with unknown time, 1 older than seven days.
    expect((await api.get("/statistics/missions/total")).body).toEqual({ count: 5, timestampAvailable: true });
    expect((await api.get("/statistics/missions/last-7-days")).body).toEqual({ count: 2, timestampAvailable: true });
    expect((await api.get("/statistics/files/total")).body).toEqual({ count: 10, timestampAvailable: true });
    expect((await api.get("/statistics/files/last-7-days")).body).toEqual({ count: 4, timestampAvailable: true });
    expect((await api.graphql(`{ missionsTotal { count timestampAvailable } filesLastSevenDays { count timestampAvailable } }`)).body).toEqual({
      data: { missionsTotal: { count: 5, timestampAvailable: true }, filesLastSevenDays: { count: 4, timestampAvailable: true } },
    });
  });
});

describe("network", () => {
  test("network is the key's network", async () => {
    const network = await service.network({ name: "Blaine County EMS", identifierType: "license" });
    const api = client(service.url, network.apiKey);
    expect((await api.graphql(`{ network { id name identifierType } }`)).body).toEqual({
      data: { network: { id: network.id, name: "Blaine County EMS", identifierType: "license" } },
    });
  });
});

describe("compiled execution", () => {
  // Operations are compiled at their second run (src/server/compiledExecute.ts): later runs must
  // answer exactly what the first, interpreted, run answered: data, errors, paths and codes.
  test("a repeated operation answers the same on every run, errors included", async () => {
    const { api } = await setup();
    const created = await api.post("/vehicles", { plate: "JIT-1", owner: "Jörg", wanted: true, tuv: "2027-01-31" });
    expect(created.status).toBe(201);
    const operations: [string, Record<string, unknown>][] = [
      [vehicleQuery, { id: created.body.data.id }],
      [vehicleQuery, { id: "999999999" }],
      [vehicleQuery, { id: { not: "an id" } }],
      [`query Page($search: String) { vehicles(search: $search, perPage: 2) { data { plate owner wanted generalInspection } meta { total } } }`, { search: "jörg" }],
      [createVehicleMutation, { input: { plate: "" } }],
      // GraphiQL's schema query: introspection compiled like any other operation.
      [getIntrospectionQuery(), {}],
      [`fragment Plates on VehiclePage { data { plate } } { vehicles(search: "jörg") { ...Plates meta { total } } }`, {}],
    ];
    for (const [query, variables] of operations) {
      const runs = [];
      for (let run = 0; run < 3; run++) {
        const response = await api.graphql(query, variables);
        runs.push({ status: response.status, body: response.body });
      }
      expect(runs[1]).toEqual(runs[0]);
      expect(runs[2]).toEqual(runs[0]);
    }
    const page = await api.graphql(operations[3][0], operations[3][1]);
    expect(page.body.data.vehicles).toEqual({
      data: [{ plate: "JIT-1", owner: "Jörg", wanted: true, generalInspection: "2027-01-31" }],
      meta: { total: 1 },
    });
    const missing = await api.graphql(vehicleQuery, { id: "999999999" });
    expect(singleError(missing.body).extensions.code).toBe("NOT_FOUND");
    const badVariable = await api.graphql(vehicleQuery, { id: { not: "an id" } });
    expect(singleError(badVariable.body).extensions.code).toBe("BAD_USER_INPUT");
  });
});

/**
 * A document selecting every field of a root field's type that takes no required argument, down
 * to `depth` levels (introspection's own types aside).
 */
function selectionOf(type: GraphQLOutputType, depth: number): string | null {
  const named = getNamedType(type);
  if (isLeafType(named)) return "";
  if (depth === 0 || !isObjectType(named)) return null;
  const fields = Object.values(named.getFields())
    .filter((field) => !field.args.some((arg) => isNonNullType(arg.type)))
    .map((field) => {
      const inner = selectionOf(field.type, depth - 1);
      return inner === null ? null : `${field.name}${inner}`;
    })
    .filter((field): field is string => field !== null);
  return fields.length > 0 ? ` { ${fields.join(" ")} }` : null;
}

describe("compiled execution of every query field", () => {
  // graphql-jit runs with leaf serialization off (src/server/compiledExecute.ts): a leaf value is
  // answered as its resolver returns it, where graphql-js coerces it (a number for an ID, 0/1 for a
  // Boolean, numeric text for an Int). Every root query field, all its fields selected, must
  // answer the same on its first (graphql-js) and later (compiled) runs. Generated from the schema:
  // a new query field is covered, and one with a required argument needs a sample value below.
  test("each answers the same interpreted and compiled, on data with every field set and unset", async () => {
    const { network, api } = await setup();
    const full = await api.post("/vehicles", {
      plate: "ALL-1", cartyp: "Vapid", car: "Stanier", owner: "Jörg", tuv: "2027-03-01", comment: "c", color: "black",
      wanted: true, wanted_reason: "Robbery", synced: 1, sync_id: "ext-7",
    });
    expect(full.status).toBe(201);
    expect((await api.post("/vehicles", { plate: "MIN-1" })).status).toBe(201);
    const officer = await network.officer(`leaves-${Date.now()}`, "Leaf Officer");
    service.clock.set(new Date(Date.now() - 3_600_000));
    expect((await api.post(`/dutytime/${officer.identifier}/toggle`)).status).toBe(200);
    service.clock.set(new Date(Date.now() - 1_800_000));
    expect((await api.post(`/dutytime/${officer.identifier}/toggle`)).status).toBe(200);
    service.clock.reset();
    expect((await api.post(`/dutytime/${officer.identifier}/toggle`)).status).toBe(200);
    const record = await api.graphql(`mutation { createMissionReport(input: { title: "Leaves" }) { id } }`);
    expect(record.body.errors).toBeUndefined();
    // Time stands still while the runs compare: an open entry counts up to now.
    service.clock.set(new Date(Date.now() + 1000));

    const samples: Record<string, string> = {
      from: JSON.stringify(new Date(Date.now() - 30 * 86_400_000).toISOString()),
      identifier: JSON.stringify(officer.identifier),
      id: JSON.stringify(String(full.body.data.id)),
    };
    const queryFields = Object.values(schema.getQueryType()!.getFields());
    expect(queryFields.length).toBeGreaterThan(15);
    for (const field of queryFields) {
      const required = field.args.filter((arg) => isNonNullType(arg.type));
      expect({ field: field.name, missingSamples: required.map((arg) => arg.name).filter((name) => !(name in samples)) }).toEqual({ field: field.name, missingSamples: [] });
      const args = required.length > 0 ? `(${required.map((arg) => `${arg.name}: ${samples[arg.name]}`).join(", ")})` : "";
      const query = `{ ${field.name}${args}${selectionOf(field.type, 4)} }`;
      const runs = [];
      for (let run = 0; run < 3; run++) runs.push((await api.graphql(query)).body);
      expect({ field: field.name, errors: runs[0].errors }).toEqual({ field: field.name, errors: undefined });
      expect({ field: field.name, body: runs[1] }).toEqual({ field: field.name, body: runs[0] });
      expect({ field: field.name, body: runs[2] }).toEqual({ field: field.name, body: runs[0] });
    }
  });
});

describe("the schema graphql-jit compiles against", () => {
  // src/server/leafListSchema.ts: lists of leaves become one value each; nothing else changes.
  // Generated from the served schema: a new field of any type is checked.
  test("every list of leaves, and nothing else, is typed as one value; arguments and other types unchanged", () => {
    const compiled = leafListSchemaOf(schema);
    expect(leafListSchemaOf(schema)).toBe(compiled);
    let leafLists = 0;
    for (const type of Object.values(schema.getTypeMap())) {
      if (!isObjectType(type) || type.name.startsWith("__")) continue;
      const twin = compiled.getType(type.name);
      expect(isObjectType(twin)).toBe(true);
      if (!isObjectType(twin)) continue;
      for (const field of Object.values(type.getFields())) {
        const compiledField = twin.getFields()[field.name];
        const expected = isLeafList(field.type)
          ? `${leafListType.name}${isNonNullType(field.type) ? "!" : ""}`
          : String(field.type);
        if (isLeafList(field.type)) leafLists += 1;
        expect({ field: `${type.name}.${field.name}`, type: String(compiledField.type) }).toEqual({ field: `${type.name}.${field.name}`, type: expected });
        expect(compiledField.args.map((arg) => `${arg.name}: ${String(arg.type)}`)).toEqual(field.args.map((arg) => `${arg.name}: ${String(arg.type)}`));
        expect(compiledField.resolve).toBe(field.resolve);
      }
    }
    // The duty hours report's seconds per period, scopes of keys and events, among others.
    expect(leafLists).toBeGreaterThanOrEqual(2);
    const officerHours = compiled.getType("OfficerDutyHours");
    expect(isObjectType(officerHours) && String(officerHours.getFields().seconds.type)).toBe(`${leafListType.name}!`);
  });

  test("lists of objects and of DateTime keep their type; a document that introspects is told apart", () => {
    // The served schema has no list of DateTime today: one made here stands for the next.
    const dateTime = schema.getType("DateTime");
    expect(isScalarType(dateTime) && isLeafList(new GraphQLList(new GraphQLNonNull(dateTime)))).toBe(false);
    const report = schema.getType("DutyHoursReport");
    expect(isObjectType(report) && isLeafList(report.getFields().officers.type)).toBe(false);
    expect(isObjectType(report) && isLeafList(report.getFields().buckets.type)).toBe(false);
    expect(introspects(parse("{ __schema { types { name } } }"))).toBe(true);
    expect(introspects(parse("query Q { viewer { network { name } } ...F } fragment F on Query { __type(name: \"Vehicle\") { name } }"))).toBe(true);
    expect(introspects(parse("{ __typename vehicles { meta { total } } }"))).toBe(false);
  });
});

describe("CORS", () => {
  test("no CORS headers are sent: operations need the key header, which no preflight carries", async () => {
    const { apiKey } = await service.network();
    const response = await fetch(`${service.url}/graphql?query=${encodeURIComponent("{ __typename }")}`, {
      headers: { Origin: "https://dashboard.example", "X-API-Key": apiKey },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("access-control-allow-origin")).toBeNull();
  });
});

describe("GraphiQL and schema", () => {
  test("GET /graphql from a browser answers GraphiQL without a key, with no external CDN", async () => {
    const response = await fetch(`${service.url}/graphql`, { headers: { Accept: "text/html" } });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/html/);
    const html = await response.text();
    expect(html).toMatch(/<html/i);
    expect(html).toMatch(/graphiql/i);
    expect(html).toContain("X-API-Key");

    const cdnHosts = [
      "unpkg.com",
      "cdn.jsdelivr",
      "jsdelivr.net",
      "cdnjs.cloudflare",
      "esm.sh",
      "skypack.dev",
      "jspm.io",
      "fonts.googleapis",
      "fonts.gstatic",
      "cdn.graphql",
    ];
    for (const host of cdnHosts) expect({ host, found: html.includes(host) }).toEqual({ host, found: false });
    // Nothing loaded from another origin: no absolute or protocol-relative src or href, CSS url() or import.
    const external = [
      /<script[^>]*\ssrc\s*=\s*["']?(https?:)?\/\//gi,
      /<link[^>]*\shref\s*=\s*["']?(https?:)?\/\//gi,
      /url\(\s*["']?(https?:)?\/\//gi,
      /@import\s+(url\()?\s*["']?(https?:)?\/\//gi,
      /import\(\s*["'](https?:)?\/\//gi,
    ];
    for (const pattern of external) expect({ pattern: String(pattern), matches: html.match(pattern) }).toEqual({ pattern: String(pattern), matches: null });
  });

  test("schema.graphql in the repository is the printed schema", () => {
    const committed = fs.readFileSync(path.join(__dirname, "..", "schema.graphql"), "utf8");
    expect(committed).toBe(printedSchema());
  });

  test("the contract's fixed operations have the fixed signatures", async () => {
    const { api } = await setup();
    const introspection = await api.graphql(`{
      __schema {
        queryType { fields { name args { name type { ...T } } type { ...T } } }
        mutationType { fields { name args { name type { ...T } } type { ...T } } }
      }
    }
    fragment T on __Type { kind name ofType { kind name ofType { kind name } } }`);
    const show = (type: any): string =>
      type.kind === "NON_NULL" ? `${show(type.ofType)}!` : type.kind === "LIST" ? `[${show(type.ofType)}]` : type.name;
    const signature = (field: any) => `${field.name}(${field.args.map((a: any) => `${a.name}: ${show(a.type)}`).join(", ")})`;
    const fields = (root: any) => new Map<string, any>(root.fields.map((f: any) => [f.name, f]));
    const queries = fields(introspection.body.data.__schema.queryType);
    const mutations = fields(introspection.body.data.__schema.mutationType);

    expect(signature(queries.get("vehicle"))).toBe("vehicle(id: ID!)");
    expect(show(queries.get("vehicle").type)).toBe("Vehicle");
    expect(queries.get("vehicles").args.map((a: any) => a.name).sort()).toEqual(["page", "perPage", "search", "sortField", "sortOrder"]);
    expect(signature(mutations.get("toggleDutytime"))).toBe("toggleDutytime(identifier: String!)");
    expect(signature(mutations.get("stopDutytime"))).toBe("stopDutytime(identifier: String!)");
    expect(signature(mutations.get("createMissionReport"))).toBe("createMissionReport(input: CreateMissionReportInput!)");
    expect(show(mutations.get("createMissionReport").type)).toBe("MissionReport!");
    expect(signature(mutations.get("createPatientFile"))).toBe("createPatientFile(input: CreatePatientFileInput!)");
    expect(show(mutations.get("createPatientFile").type)).toBe("PatientFile!");
    expect(signature(mutations.get("createOffenderFile"))).toBe("createOffenderFile(input: CreateOffenderFileInput!)");
    expect(show(mutations.get("createOffenderFile").type)).toBe("OffenderFile!");
    for (const name of ["createVehicle", "updateVehicle", "deleteVehicle", "createOfficer"]) {
      expect({ name, present: mutations.has(name) }).toEqual({ name, present: true });
    }
  });
});
