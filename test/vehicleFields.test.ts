// Every field of the field table (src/model/vehicleFields.ts) through every statement that names
// vehicle fields, generated from the table: a distinct value per field is written by each write
// path (REST create, PUT, PATCH; GraphQL create and update) and read back by each read path
// (REST get and list, GraphQL vehicle and vehicles, with and without a search), so a field left
// out of an INSERT, an UPDATE, a SELECT or the row mapping, or two fields swapped, fails here.
// Searchable fields are found by their value and others are not; sortable fields sort.
import { vehicleFields, type VehicleField } from "../src/model/vehicleFields";
import { client, type Client } from "./support/http";
import { startService, type TestService } from "./support/service";

let service: TestService;
let api: Client;
beforeAll(async () => {
  service = await startService();
  api = client(service.url, (await service.network()).apiKey);
});
afterAll(() => service.close());

type Value = string | boolean | null;

/**
 * A value for each field, distinct from every other field's and from other rounds' (`round`),
 * within the field's limits. Flags alternate with the field's place and the round, so a flag
 * left out (false) or two flags swapped fail in some round.
 */
function valuesOf(round: number): Map<VehicleField, Value> {
  return new Map(
    vehicleFields.map((field, place): [VehicleField, Value] => {
      switch (field.kind) {
        case "flag":
          return [field, (place + round) % 2 === 0];
        case "date":
          return [field, `20${String(30 + round).padStart(2, "0")}-0${1 + (place % 9)}-1${place % 10}`];
        default: {
          // Letters only: a search for one value must not match another's digits.
          const word = `${field.response}${"qxzvk"[round % 5]}${"abcdefghij"[place % 10]}`;
          return [field, word.slice(0, field.max)];
        }
      }
    }),
  );
}

const requestBody = (values: Map<VehicleField, Value>) => Object.fromEntries([...values].map(([field, value]) => [field.request, value]));
const responseFields = (values: Map<VehicleField, Value>) => Object.fromEntries([...values].map(([field, value]) => [field.response, value]));
const selection = ["id", ...vehicleFields.map((field) => field.response)].join(" ");

/** The vehicle as every read path answers it. */
async function readsOf(id: number, search: string | null) {
  const rest = await api.get(`/vehicles/${id}`);
  const list = await api.get(`/vehicles?per_page=100${search ? `&search=${encodeURIComponent(search)}` : ""}`);
  const graph = await api.graphql(`query($id: ID!, $search: String) { vehicle(id: $id) { ${selection} } vehicles(search: $search, perPage: 100) { data { ${selection} } } }`, { id, search });
  expect(rest.status).toBe(200);
  expect(list.status).toBe(200);
  expect(graph.body.errors).toBeUndefined();
  return {
    "REST get": rest.body.data,
    "REST list": list.body.data.find((vehicle: { id: number }) => vehicle.id === id),
    "GraphQL vehicle": graph.body.data.vehicle,
    "GraphQL vehicles": graph.body.data.vehicles.data.find((vehicle: { id: number }) => Number(vehicle.id) === id),
  };
}

async function expectStored(id: number, values: Map<VehicleField, Value>) {
  const plate = values.get(vehicleFields[0]) as string;
  const expected = expect.objectContaining(responseFields(values));
  for (const search of [null, plate]) {
    const reads = await readsOf(id, search);
    for (const [path, vehicle] of Object.entries(reads)) {
      expect({ path, search, vehicle }).toEqual({ path, search, vehicle: expected });
    }
  }
}

const writes: Record<string, (values: Map<VehicleField, Value>) => Promise<number>> = {
  "REST create": async (values) => {
    const response = await api.post("/vehicles", requestBody(values));
    expect(response.status).toBe(201);
    return response.body.data.id;
  },
  "REST PUT": async (values) => {
    const id = (await api.post("/vehicles", { plate: "PUT BASE" })).body.data.id;
    expect((await api.put(`/vehicles/${id}`, requestBody(values))).status).toBe(200);
    return id;
  },
  "REST PATCH over other values": async (values) => {
    const id = (await api.post("/vehicles", requestBody(valuesOf(9)))).body.data.id;
    expect((await api.patch(`/vehicles/${id}`, requestBody(values))).status).toBe(200);
    return id;
  },
  "GraphQL create": async (values) => {
    const response = await api.graphql("mutation($input: CreateVehicleInput!) { createVehicle(input: $input) { id } }", { input: requestBody(values) });
    expect(response.body.errors).toBeUndefined();
    return Number(response.body.data.createVehicle.id);
  },
  "GraphQL update over other values": async (values) => {
    const id = (await api.post("/vehicles", requestBody(valuesOf(8)))).body.data.id;
    const response = await api.graphql("mutation($id: ID!, $input: UpdateVehicleInput!) { updateVehicle(id: $id, input: $input) { id } }", { id, input: requestBody(values) });
    expect(response.body.errors).toBeUndefined();
    return id;
  },
};

describe("every field of the field table, written and read on every path", () => {
  Object.entries(writes).forEach(([write, run], round) => {
    test(`${write}: each field reads back as written`, async () => {
      const values = valuesOf(round);
      await expectStored(await run(values), values);
    });
  });

  test("a searchable field's value finds its vehicle, another field's value does not", async () => {
    const values = valuesOf(5);
    const id = (await api.post("/vehicles", requestBody(values))).body.data.id;
    for (const field of vehicleFields.filter((f) => f.kind === "plate" || f.kind === "text")) {
      const term = values.get(field) as string;
      const found = await api.get(`/vehicles?per_page=100&search=${encodeURIComponent(term)}`);
      const ids = found.body.data.map((vehicle: { id: number }) => vehicle.id);
      const searchable = "searchable" in field && field.searchable;
      expect({ field: field.request, found: ids.includes(id) }).toEqual({ field: field.request, found: searchable });
    }
  });

  test("each sortable field sorts by its own value, nulls last", async () => {
    const own = client(service.url, (await service.network()).apiKey);
    const [low, high] = [valuesOf(1), valuesOf(2)];
    // For each field the two vehicles' values in order; flags: false before true.
    const ids: number[] = [];
    for (const values of [low, high]) {
      const body = requestBody(values);
      for (const field of vehicleFields) if (field.kind === "flag") body[field.request] = values === high;
      ids.push((await own.post("/vehicles", body)).body.data.id);
    }
    const bare = (await own.post("/vehicles", { plate: "zzzz" })).body.data.id;
    for (const field of vehicleFields.filter((f) => "sortable" in f && f.sortable)) {
      for (const order of ["asc", "desc"]) {
        const page = await own.get(`/vehicles?sort_field=${field.request}&sort_order=${order}`);
        expect(page.status).toBe(200);
        const seen = page.body.data.map((vehicle: { id: number }) => vehicle.id).filter((id: number) => ids.includes(id));
        expect({ field: field.request, order, seen }).toEqual({ field: field.request, order, seen: order === "asc" ? ids : [...ids].reverse() });
        const nullable = field.kind === "text" || field.kind === "date";
        if (nullable) expect({ field: field.request, order, last: page.body.data.at(-1).id }).toEqual({ field: field.request, order, last: bare });
      }
    }
  });
});
