// End-to-end tests of the vehicle REST interface (SPEC 4.1 and the vehicle decisions of CONTRACT.md).
import { startService, type TestService } from "./support/service";
import { vehicleResponseFields } from "./support/contract";
import { client, type ApiResponse, type Client } from "./support/http";
import { pageLinks, splitPageJson } from "../src/rest/laravelPage";

let service: TestService;
beforeAll(async () => {
  service = await startService();
});
afterAll(() => service.close());
afterEach(() => service.clock.reset());

const isoUtc = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const vehicleFields = [...vehicleResponseFields].sort();

async function newApi(): Promise<Client> {
  const network = await service.network();
  return client(service.url, network.apiKey);
}

function expectJson(response: ApiResponse) {
  expect(response.headers.get("content-type")).toMatch(/^application\/json/);
  expect(response.body).toBeDefined();
}

function expectNotFound(response: ApiResponse) {
  expect(response.status).toBe(404);
  expectJson(response);
  expect(Object.keys(response.body)).toEqual(["message"]);
  expect(typeof response.body.message).toBe("string");
  expect(response.body.message.length).toBeGreaterThan(0);
}

function expectValidation(response: ApiResponse, fields: string[]) {
  expect(response.status).toBe(422);
  expectJson(response);
  expect(Object.keys(response.body).sort()).toEqual(["errors", "message"]);
  expect(typeof response.body.message).toBe("string");
  expect(Object.keys(response.body.errors).sort()).toEqual([...fields].sort());
  for (const field of fields) {
    expect(Array.isArray(response.body.errors[field])).toBe(true);
    expect(response.body.errors[field].length).toBeGreaterThan(0);
    for (const message of response.body.errors[field]) expect(typeof message).toBe("string");
  }
}

async function create(api: Client, body: Record<string, unknown>) {
  const response = await api.post("/vehicles", body);
  expect(response.status).toBe(201);
  return response.body.data as Record<string, any>;
}

const ids = (response: ApiResponse) => (response.body.data as Array<{ id: number }>).map((vehicle) => vehicle.id);

/** A link as {path, query} so the order of query parameters does not matter. */
function parseLink(link: string | null) {
  if (link === null) return null;
  const url = new URL(link);
  return { path: `${url.origin}${url.pathname}`, query: Object.fromEntries(url.searchParams) };
}

describe("POST /vehicles", () => {
  test("creates a vehicle with every field and answers 201 {data} with all 14 response fields renamed", async () => {
    const api = await newApi();
    service.clock.set("2026-03-04T05:06:07.089Z");
    const response = await api.post("/vehicles", {
      plate: "LS-4711",
      cartyp: "Vapid",
      car: "Dominator",
      owner: "Franklin Clinton",
      tuv: "2027-02-28",
      comment: "Seen near the docks",
      color: "Schwarz",
      wanted: true,
      wanted_reason: "Hit and run",
      synced: true,
      sync_id: "ext-77",
    });
    expect(response.status).toBe(201);
    expectJson(response);
    expect(Object.keys(response.body)).toEqual(["data"]);
    const vehicle = response.body.data;
    expect(Object.keys(vehicle).sort()).toEqual(vehicleFields);
    expect(vehicle).toEqual({
      id: expect.any(Number),
      plate: "LS-4711",
      carType: "Vapid",
      car: "Dominator",
      owner: "Franklin Clinton",
      generalInspection: "2027-02-28",
      comment: "Seen near the docks",
      color: "Schwarz",
      wanted: true,
      wantedReason: "Hit and run",
      synced: true,
      syncId: "ext-77",
      createdAt: "2026-03-04T05:06:07.089Z",
      updatedAt: "2026-03-04T05:06:07.089Z",
    });
    expect(Number.isInteger(vehicle.id)).toBe(true);
    expect(vehicle.id).toBeGreaterThan(0);
  });

  test("a vehicle with only a plate has null for absent values and wanted/synced false", async () => {
    const api = await newApi();
    const response = await api.post("/vehicles", { plate: "MIN-1" });
    expect(response.status).toBe(201);
    expectJson(response);
    const vehicle = response.body.data;
    expect(vehicle).toEqual({
      id: expect.any(Number),
      plate: "MIN-1",
      carType: null,
      car: null,
      owner: null,
      generalInspection: null,
      comment: null,
      color: null,
      wanted: false,
      wantedReason: null,
      synced: false,
      syncId: null,
      createdAt: expect.stringMatching(isoUtc),
      updatedAt: expect.stringMatching(isoUtc),
    });
    expect(vehicle.updatedAt).toBe(vehicle.createdAt);
    // Created "now" (real clock): within a minute of the test's own clock.
    expect(Math.abs(Date.parse(vehicle.createdAt) - Date.now())).toBeLessThan(60_000);
  });

  test("explicit nulls for optional fields are stored as null; 0/1 are accepted as booleans", async () => {
    const api = await newApi();
    const vehicle = await create(api, {
      plate: "NUL-1",
      cartyp: null,
      car: null,
      owner: null,
      tuv: null,
      comment: null,
      color: null,
      wanted: 1,
      wanted_reason: null,
      synced: 0,
      sync_id: null,
    });
    expect(vehicle).toMatchObject({
      plate: "NUL-1",
      carType: null,
      car: null,
      owner: null,
      generalInspection: null,
      comment: null,
      color: null,
      wanted: true,
      wantedReason: null,
      synced: false,
      syncId: null,
    });
  });

  test("values exactly at the maximum lengths are accepted, counted in characters", async () => {
    const api = await newApi();
    const body = {
      plate: "Ä".repeat(32),
      cartyp: "c".repeat(255),
      car: "ö".repeat(255),
      owner: "o".repeat(255),
      color: "ü".repeat(255),
      sync_id: "s".repeat(255),
      comment: "ß".repeat(5000),
      wanted_reason: "w".repeat(1000),
    };
    const vehicle = await create(api, body);
    expect(vehicle).toMatchObject({
      plate: body.plate,
      carType: body.cartyp,
      car: body.car,
      owner: body.owner,
      color: body.color,
      syncId: body.sync_id,
      comment: body.comment,
      wantedReason: body.wanted_reason,
    });
  });

  test("unknown fields are ignored and do not appear in the response", async () => {
    const api = await newApi();
    const vehicle = await create(api, { plate: "UNK-1", flavour: "vanilla", id: 999999, createdAt: "2000-01-01T00:00:00.000Z" });
    expect(Object.keys(vehicle).sort()).toEqual(vehicleFields);
    expect(vehicle.id).not.toBe(999999);
    expect(vehicle.createdAt).not.toBe("2000-01-01T00:00:00.000Z");
  });
});

describe("GET /vehicles/{vehicle}", () => {
  test("returns {data: vehicle} equal to what POST returned", async () => {
    const api = await newApi();
    const created = await api.post("/vehicles", { plate: "GET-1", car: "Sultan", tuv: "2028-12-31", wanted: true, wanted_reason: "x" });
    const read = await api.get(`/vehicles/${created.body.data.id}`);
    expect(read.status).toBe(200);
    expectJson(read);
    expect(read.body).toEqual(created.body);
  });

  test("an id that does not exist is 404 JSON", async () => {
    const api = await newApi();
    expectNotFound(await api.get("/vehicles/987654321"));
  });
});

describe("PUT and PATCH /vehicles/{vehicle}", () => {
  const full = {
    plate: "UPD-1",
    cartyp: "Karin",
    car: "Futo",
    owner: "Trevor",
    tuv: "2027-06-30",
    comment: "original comment",
    color: "Rot",
    wanted: true,
    wanted_reason: "Speeding",
    synced: true,
    sync_id: "sync-1",
  };

  for (const method of ["PUT", "PATCH"] as const) {
    test(`${method} updates only the fields sent; the others stay unchanged`, async () => {
      const api = await newApi();
      service.clock.set("2026-05-01T10:00:00.000Z");
      const before = await create(api, full);
      service.clock.set("2026-05-02T11:30:00.000Z");
      const response = await api.request(method, `/vehicles/${before.id}`, { body: { owner: "Michael", tuv: "2029-01-15", wanted: false } });
      expect(response.status).toBe(200);
      expectJson(response);
      expect(Object.keys(response.body)).toEqual(["data"]);
      expect(response.body.data).toEqual({
        ...before,
        owner: "Michael",
        generalInspection: "2029-01-15",
        wanted: false,
        createdAt: "2026-05-01T10:00:00.000Z",
        updatedAt: "2026-05-02T11:30:00.000Z",
      });
      const read = await api.get(`/vehicles/${before.id}`);
      expect(read.status).toBe(200);
      expect(read.body).toEqual(response.body);
    });

    test(`${method} with every request field renames them in the response`, async () => {
      const api = await newApi();
      const before = await create(api, { plate: "REN-1" });
      const response = await api.request(method, `/vehicles/${before.id}`, {
        body: {
          plate: "REN-2",
          cartyp: "Bravado",
          car: "Buffalo",
          owner: "Lamar",
          tuv: "2030-01-01",
          comment: "c",
          color: "Blau",
          wanted: 1,
          wanted_reason: "Reason",
          synced: true,
          sync_id: "s-2",
        },
      });
      expect(response.status).toBe(200);
      expect(response.body.data).toEqual({
        ...before,
        plate: "REN-2",
        carType: "Bravado",
        car: "Buffalo",
        owner: "Lamar",
        generalInspection: "2030-01-01",
        comment: "c",
        color: "Blau",
        wanted: true,
        wantedReason: "Reason",
        synced: true,
        syncId: "s-2",
        updatedAt: expect.stringMatching(isoUtc),
      });
    });

    test(`${method} with explicit nulls clears optional fields and leaves the rest`, async () => {
      const api = await newApi();
      const before = await create(api, full);
      const response = await api.request(method, `/vehicles/${before.id}`, {
        body: { cartyp: null, car: null, owner: null, tuv: null, comment: null, color: null, wanted_reason: null, sync_id: null },
      });
      expect(response.status).toBe(200);
      expect(response.body.data).toEqual({
        ...before,
        carType: null,
        car: null,
        owner: null,
        generalInspection: null,
        comment: null,
        color: null,
        wantedReason: null,
        syncId: null,
        updatedAt: expect.stringMatching(isoUtc),
      });
      expect((await api.get(`/vehicles/${before.id}`)).body.data).toEqual(response.body.data);
    });

    test(`${method} with an empty object changes no field`, async () => {
      const api = await newApi();
      const before = await create(api, full);
      const response = await api.request(method, `/vehicles/${before.id}`, { body: {} });
      expect(response.status).toBe(200);
      expect(response.body.data).toEqual({ ...before, updatedAt: expect.stringMatching(isoUtc) });
    });

    test(`${method} of an unknown id is 404 and creates nothing`, async () => {
      const api = await newApi();
      expectNotFound(await api.request(method, "/vehicles/123456789", { body: { plate: "NEW" } }));
      expect((await api.get("/vehicles")).body.meta.total).toBe(0);
    });
  }

  test("an update moves the vehicle into search results for its new values", async () => {
    const api = await newApi();
    const vehicle = await create(api, { plate: "SRCH-1", owner: "Old Owner" });
    expect((await api.get("/vehicles?search=newowner")).body.data).toEqual([]);
    await api.patch(`/vehicles/${vehicle.id}`, { owner: "NewOwner" });
    expect(ids(await api.get("/vehicles?search=newowner"))).toEqual([vehicle.id]);
    expect((await api.get("/vehicles?search=old owner")).body.data).toEqual([]);
    // Fields not sent still count for search after a partial update.
    expect(ids(await api.get("/vehicles?search=srch-1"))).toEqual([vehicle.id]);
  });

  test("a vehicle whose updated_at another tool wrote in another spelling (...Z) can be updated", async () => {
    const api = await newApi();
    const vehicle = await create(api, { plate: "SPELL-1" });
    await service.db.prisma.$executeRawUnsafe(`UPDATE vehicles SET updated_at = '2026-01-02T03:04:05.678Z' WHERE id = ${Number(vehicle.id)}`);
    const patched = await api.patch(`/vehicles/${vehicle.id}`, { color: "Grün" });
    expect(patched.status).toBe(200);
    expect(patched.body.data.color).toBe("Grün");
    expect((await api.get(`/vehicles/${vehicle.id}`)).body.data.color).toBe("Grün");
  });

  test("concurrent PATCHes of different fields of one vehicle all land, and search sees every one", async () => {
    const api = await newApi();
    const vehicle = await create(api, { plate: "RACE-0" });
    const patches: Record<string, unknown>[] = [
      { plate: "RACE-1" }, { cartyp: "Vapid" }, { car: "Stanier" }, { owner: "Wettlauf Owner" }, { tuv: "2030-01-31" },
      { comment: "raced" }, { color: "Smaragd" }, { wanted: true }, { wanted_reason: "Sprint" }, { synced: true }, { sync_id: "race-sync" },
    ];
    const responses = await Promise.all(patches.map((body) => api.patch(`/vehicles/${vehicle.id}`, body)));
    expect(responses.map((response) => response.status)).toEqual(patches.map(() => 200));
    const stored = (await api.get(`/vehicles/${vehicle.id}`)).body.data;
    expect(stored).toMatchObject({
      plate: "RACE-1", carType: "Vapid", car: "Stanier", owner: "Wettlauf Owner", generalInspection: "2030-01-31",
      comment: "raced", color: "Smaragd", wanted: true, wantedReason: "Sprint", synced: true, syncId: "race-sync",
    });
    // The search text was built from the fields as they were when each write landed.
    for (const term of ["race-1", "vapid", "stanier", "wettlauf", "smaragd", "sprint"]) {
      expect(ids(await api.get(`/vehicles?search=${term}`))).toEqual([vehicle.id]);
    }
  });
});

describe("DELETE /vehicles/{vehicle}", () => {
  test("answers 204 with an empty body; the vehicle is then gone (404) and no longer listed", async () => {
    const api = await newApi();
    const keep = await create(api, { plate: "KEEP-1" });
    const gone = await create(api, { plate: "GONE-1" });
    const response = await api.delete(`/vehicles/${gone.id}`);
    expect(response.status).toBe(204);
    expect(response.text).toBe("");
    expectNotFound(await api.get(`/vehicles/${gone.id}`));
    expectNotFound(await api.delete(`/vehicles/${gone.id}`));
    expectNotFound(await api.patch(`/vehicles/${gone.id}`, { plate: "BACK" }));
    expectNotFound(await api.put(`/vehicles/${gone.id}`, { plate: "BACK" }));
    const list = await api.get("/vehicles");
    expect(ids(list)).toEqual([keep.id]);
    expect(list.body.meta.total).toBe(1);
    expect((await api.get(`/vehicles/${keep.id}`)).body.data).toEqual(keep);
  });
});

describe("GET /vehicles pagination", () => {
  let api: Client;
  let created: number[];
  const base = () => `${service.url}/vehicles`;

  beforeAll(async () => {
    api = await newApi();
    created = [];
    for (let index = 1; index <= 35; index++) {
      created.push((await create(api, { plate: `PG-${String(index).padStart(2, "0")}` })).id);
    }
  });

  test("default: page 1 of 15, ordered by id, with the exact envelope", async () => {
    const response = await api.get("/vehicles");
    expect(response.status).toBe(200);
    expectJson(response);
    expect(Object.keys(response.body).sort()).toEqual(["data", "links", "meta"]);
    expect(ids(response)).toEqual(created.slice(0, 15));
    expect(response.body.data[0]).toEqual({
      id: created[0],
      plate: "PG-01",
      carType: null,
      car: null,
      owner: null,
      generalInspection: null,
      comment: null,
      color: null,
      wanted: false,
      wantedReason: null,
      synced: false,
      syncId: null,
      createdAt: expect.stringMatching(isoUtc),
      updatedAt: expect.stringMatching(isoUtc),
    });
    expect(response.body.meta).toEqual({
      current_page: 1,
      from: 1,
      last_page: 3,
      path: base(),
      per_page: 15,
      to: 15,
      total: 35,
    });
    expect(Object.keys(response.body.links).sort()).toEqual(["first", "last", "next", "prev"]);
    expect(parseLink(response.body.links.first)).toEqual({ path: base(), query: { page: "1" } });
    expect(parseLink(response.body.links.last)).toEqual({ path: base(), query: { page: "3" } });
    expect(response.body.links.prev).toBeNull();
    expect(parseLink(response.body.links.next)).toEqual({ path: base(), query: { page: "2" } });
  });

  test("middle page", async () => {
    const response = await api.get("/vehicles?page=2");
    expect(response.status).toBe(200);
    expect(ids(response)).toEqual(created.slice(15, 30));
    expect(response.body.meta).toEqual({ current_page: 2, from: 16, last_page: 3, path: base(), per_page: 15, to: 30, total: 35 });
    expect(parseLink(response.body.links.prev)).toEqual({ path: base(), query: { page: "1" } });
    expect(parseLink(response.body.links.next)).toEqual({ path: base(), query: { page: "3" } });
  });

  test("last page is partial", async () => {
    const response = await api.get("/vehicles?page=3");
    expect(response.status).toBe(200);
    expect(ids(response)).toEqual(created.slice(30));
    expect(response.body.meta).toEqual({ current_page: 3, from: 31, last_page: 3, path: base(), per_page: 15, to: 35, total: 35 });
    expect(parseLink(response.body.links.prev)).toEqual({ path: base(), query: { page: "2" } });
    expect(response.body.links.next).toBeNull();
  });

  test("a page past the end answers 200 with empty data and from/to null", async () => {
    const response = await api.get("/vehicles?page=4");
    expect(response.status).toBe(200);
    expectJson(response);
    expect(response.body.data).toEqual([]);
    expect(response.body.meta).toEqual({ current_page: 4, from: null, last_page: 3, path: base(), per_page: 15, to: null, total: 35 });
    expect(parseLink(response.body.links.first)).toEqual({ path: base(), query: { page: "1" } });
    expect(parseLink(response.body.links.last)).toEqual({ path: base(), query: { page: "3" } });
    expect(parseLink(response.body.links.prev)).toEqual({ path: base(), query: { page: "3" } });
    expect(response.body.links.next).toBeNull();
    const far = await api.get("/vehicles?page=1000");
    expect(far.status).toBe(200);
    expect(far.body.data).toEqual([]);
    expect(far.body.meta).toMatchObject({ current_page: 1000, from: null, to: null, total: 35, last_page: 3 });
  });

  test("per_page sets the page size; links keep the other query parameters", async () => {
    const response = await api.get("/vehicles?per_page=10&page=2&search=pg-&sort_field=plate&sort_order=asc");
    expect(response.status).toBe(200);
    expect(ids(response)).toEqual(created.slice(10, 20));
    expect(response.body.meta).toEqual({ current_page: 2, from: 11, last_page: 4, path: base(), per_page: 10, to: 20, total: 35 });
    const others = { per_page: "10", search: "pg-", sort_field: "plate", sort_order: "asc" };
    expect(parseLink(response.body.links.first)).toEqual({ path: base(), query: { ...others, page: "1" } });
    expect(parseLink(response.body.links.last)).toEqual({ path: base(), query: { ...others, page: "4" } });
    expect(parseLink(response.body.links.prev)).toEqual({ path: base(), query: { ...others, page: "1" } });
    expect(parseLink(response.body.links.next)).toEqual({ path: base(), query: { ...others, page: "3" } });
  });

  test("per_page bounds 1 and 100 are accepted", async () => {
    const one = await api.get("/vehicles?per_page=1&page=35");
    expect(one.status).toBe(200);
    expect(ids(one)).toEqual([created[34]]);
    expect(one.body.meta).toEqual({ current_page: 35, from: 35, last_page: 35, path: base(), per_page: 1, to: 35, total: 35 });
    const hundred = await api.get("/vehicles?per_page=100");
    expect(hundred.status).toBe(200);
    expect(ids(hundred)).toEqual(created);
    expect(hundred.body.meta).toEqual({ current_page: 1, from: 1, last_page: 1, path: base(), per_page: 100, to: 35, total: 35 });
    expect(hundred.body.links.prev).toBeNull();
    expect(hundred.body.links.next).toBeNull();
  });

  test("an empty network lists nothing, with last_page 1", async () => {
    const empty = await newApi();
    const response = await empty.get("/vehicles");
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual([]);
    expect(response.body.meta).toEqual({ current_page: 1, from: null, last_page: 1, path: base(), per_page: 15, to: null, total: 0 });
    expect(response.body.links.prev).toBeNull();
    expect(response.body.links.next).toBeNull();
  });

  test.each(["0", "101", "abc", "-1", "1.5", "1000000000000000000000"])("per_page=%p is 422 with errors.per_page", async (value) => {
    expectValidation(await api.get(`/vehicles?per_page=${value}`), ["per_page"]);
  });

  test.each(["0", "-1", "abc"])("page=%p is 422 with errors.page", async (value) => {
    expectValidation(await api.get(`/vehicles?page=${value}`), ["page"]);
  });

  test("perPage alias works; per_page wins when both are sent", async () => {
    const alias = await api.get("/vehicles?perPage=4");
    expect(alias.status).toBe(200);
    expect(ids(alias)).toEqual(created.slice(0, 4));
    expect(alias.body.meta).toMatchObject({ per_page: 4, last_page: 9, to: 4 });
    const both = await api.get("/vehicles?per_page=3&perPage=7");
    expect(both.status).toBe(200);
    expect(ids(both)).toEqual(created.slice(0, 3));
    expect(both.body.meta.per_page).toBe(3);
    // The alias is not even validated when the snake_case name is present.
    const ignoredAlias = await api.get("/vehicles?per_page=5&perPage=0");
    expect(ignoredAlias.status).toBe(200);
    expect(ignoredAlias.body.meta.per_page).toBe(5);
    expect((await api.get("/vehicles?perPage=101")).status).toBe(422);
  });
});

describe("GET /vehicles page JSON", () => {
  test("vehicle texts that look like the page's own keys are listed exactly as stored", async () => {
    const api = await newApi();
    const tricky = { plate: "JS-1", owner: '{"data":[1]}', comment: ',"meta":{"total":99}}', color: '\\","meta":' };
    const created = await create(api, tricky);
    const response = await api.get("/vehicles?search=js-1");
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual([expect.objectContaining({ id: created.id, ...tricky })]);
    expect(response.body.meta).toEqual(expect.objectContaining({ total: 1, from: 1, to: 1, last_page: 1 }));
    expect(Object.keys(response.body)).toEqual(["data", "links", "meta"]);
  });

  test("a page serialized in another key order is parsed whole", () => {
    const meta = { currentPage: 1, perPage: 15, total: 1, lastPage: 1, from: 1, to: 1 };
    const data = [{ id: 1, comment: ',"meta":{}' }];
    expect(splitPageJson(JSON.stringify({ meta, data }))).toEqual({ dataJson: JSON.stringify(data), meta });
    expect(splitPageJson(JSON.stringify({ data, meta }))).toEqual({ dataJson: JSON.stringify(data), meta });
  });

  test.each([
    "",
    "?page=2",
    "?per_page=10&page=2&search=pg-",
    "?search=a%26page%3D1&page=3&sort_field=plate",
    "?page=1&mypage=1&page=4",
    "?xpage=1&search=caf%C3%A9+%2B",
    "?page",
    "?search=&per_page=5",
  ])("the links of %s are its query with page set, as URLSearchParams spells it", (search) => {
    const params = new URL(`http://service/vehicles${search}`).searchParams;
    const linkTo = pageLinks("http://service/vehicles", params);
    for (const pageNumber of [1, 2, 17, 1000]) {
      const query = new URLSearchParams(params);
      query.set("page", String(pageNumber));
      expect(linkTo(pageNumber)).toBe(`http://service/vehicles?${query}`);
    }
  });
});

describe("GET /vehicles sorting", () => {
  let api: Client;
  let v: number[];

  beforeAll(async () => {
    api = await newApi();
    const rows = [
      { plate: "B-1", car: "Banshee", owner: "Carl", tuv: "2027-01-01", wanted: true },
      { plate: "A-1", car: null, owner: "Anna", tuv: null, wanted: false },
      { plate: "C-1", car: "Adder", owner: null, tuv: "2026-05-05", wanted: true },
      { plate: "A-1", car: "Banshee", owner: "Anna", tuv: "2027-01-01", wanted: false },
      { plate: "D-1", car: null, owner: null, tuv: null, wanted: false },
    ];
    v = [0];
    for (const row of rows) v.push((await create(api, row)).id);
  });

  // Positions (1-based, creation order) of the expected result; ties by id in the sort direction, nulls last.
  const expected: Record<string, { asc: number[]; desc: number[] }> = {
    plate: { asc: [2, 4, 1, 3, 5], desc: [5, 3, 1, 4, 2] },
    car: { asc: [3, 1, 4, 2, 5], desc: [4, 1, 3, 5, 2] },
    owner: { asc: [2, 4, 1, 3, 5], desc: [1, 4, 2, 5, 3] },
    tuv: { asc: [3, 1, 4, 2, 5], desc: [4, 1, 3, 5, 2] },
    wanted: { asc: [2, 4, 5, 1, 3], desc: [3, 1, 5, 4, 2] },
  };

  for (const [field, orders] of Object.entries(expected)) {
    for (const order of ["asc", "desc"] as const) {
      test(`sort_field=${field}&sort_order=${order}: nulls last, ties by id ${order}`, async () => {
        const response = await api.get(`/vehicles?sort_field=${field}&sort_order=${order}`);
        expect(response.status).toBe(200);
        expect(ids(response)).toEqual(orders[order].map((position) => v[position]));
      });
    }
    test(`sort_field=${field} without sort_order sorts ascending`, async () => {
      const response = await api.get(`/vehicles?sort_field=${field}`);
      expect(response.status).toBe(200);
      expect(ids(response)).toEqual(orders.asc.map((position) => v[position]));
    });
  }

  test("without sort_field the order is id ascending (sort_order alone does not change it)", async () => {
    const plain = await api.get("/vehicles");
    expect(ids(plain)).toEqual(v.slice(1));
    const descOnly = await api.get("/vehicles?sort_order=desc");
    expect(descOnly.status).toBe(200);
    expect(ids(descOnly)).toEqual(v.slice(1));
  });

  test("sorting is applied before paging", async () => {
    const page2 = await api.get("/vehicles?sort_field=car&sort_order=desc&per_page=2&page=2");
    expect(page2.status).toBe(200);
    expect(ids(page2)).toEqual([3, 5].map((position) => v[position]));
    expect(page2.body.meta).toMatchObject({ current_page: 2, from: 3, to: 4, total: 5, last_page: 3 });
  });

  test("aliases sortField/sortOrder work", async () => {
    const response = await api.get("/vehicles?sortField=owner&sortOrder=desc");
    expect(response.status).toBe(200);
    expect(ids(response)).toEqual(expected.owner.desc.map((position) => v[position]));
  });

  test("snake_case wins over the alias when both are sent", async () => {
    const field = await api.get("/vehicles?sort_field=car&sortField=plate");
    expect(field.status).toBe(200);
    expect(ids(field)).toEqual(expected.car.asc.map((position) => v[position]));
    const order = await api.get("/vehicles?sort_field=tuv&sort_order=asc&sortOrder=desc");
    expect(order.status).toBe(200);
    expect(ids(order)).toEqual(expected.tuv.asc.map((position) => v[position]));
    const invalidAlias = await api.get("/vehicles?sort_field=wanted&sortField=color&sort_order=desc&sortOrder=sideways");
    expect(invalidAlias.status).toBe(200);
    expect(ids(invalidAlias)).toEqual(expected.wanted.desc.map((position) => v[position]));
    expectValidation(await api.get("/vehicles?sort_field=color&sortField=plate"), ["sort_field"]);
  });

  test.each(["color", "id", "cartyp", "comment", "PLATE", "plate;drop"])("sort_field=%p is 422 with errors.sort_field", async (value) => {
    expectValidation(await api.get(`/vehicles?sort_field=${encodeURIComponent(value)}`), ["sort_field"]);
  });

  test.each(["up", "descending", "1"])("sort_order=%p is 422 with errors.sort_order", async (value) => {
    expectValidation(await api.get(`/vehicles?sort_field=plate&sort_order=${encodeURIComponent(value)}`), ["sort_order"]);
  });

  test("invalid sortField / sortOrder aliases are 422 too", async () => {
    const response = await api.get("/vehicles?sortField=color&sortOrder=up");
    expect(response.status).toBe(422);
    expectJson(response);
    expect([["sort_field", "sort_order"], ["sortField", "sortOrder"]]).toContainEqual(Object.keys(response.body.errors).sort());
  });

  test("several invalid parameters are reported at once", async () => {
    expectValidation(await api.get("/vehicles?per_page=0&page=0"), ["per_page", "page"]);
    expectValidation(await api.get("/vehicles?sort_field=x&sort_order=y"), ["sort_field", "sort_order"]);
  });
});

describe("GET /vehicles search", () => {
  let api: Client;
  const v: Record<string, number> = {};

  beforeAll(async () => {
    api = await newApi();
    const rows: Record<string, Record<string, unknown>> = {
      jurgen: {
        plate: "LS-100",
        car: "Sultan",
        cartyp: "Karin",
        owner: "Jürgen Müller",
        color: "Grün",
        comment: "needle-in-comment",
        sync_id: "needle-in-sync",
      },
      umlauts: { plate: "ÄÖÜ-1", car: "Straße Cruiser", owner: "ÖZIL", color: "black", wanted_reason: "Flucht vor Polizei" },
      sharp: { plate: "GR-2", owner: "GROẞMANN", color: "weiß" },
      percent: { plate: "PCT-1", car: "100% Electric", owner: "a_b", color: "red" },
      lookalike: { plate: "PCX-1", car: "100X Electric", owner: "axb", color: "rose" },
      cross: { plate: "X1", car: "Y2", cartyp: "Z3", owner: "Q4", color: "W5", wanted_reason: "R6" },
      plain: { plate: "PLAIN" },
    };
    for (const [name, row] of Object.entries(rows)) v[name] = (await create(api, row)).id;
  });

  const search = async (term: string) => {
    const response = await api.get(`/vehicles?search=${encodeURIComponent(term)}&per_page=100`);
    expect(response.status).toBe(200);
    expect(response.body.meta.total).toBe(response.body.data.length);
    return ids(response).sort((a, b) => a - b);
  };
  const expectIds = (...names: string[]) => names.map((name) => v[name]).sort((a, b) => a - b);

  test.each([
    ["ls-100", ["jurgen"]],
    ["Ls-1", ["jurgen"]],
    ["SULTAN", ["jurgen"]],
    ["ulta", ["jurgen"]],
    ["kARIN", ["jurgen"]],
    ["müller", ["jurgen"]],
    ["MÜLLER", ["jurgen"]],
    ["jürgen", ["jurgen"]],
    ["grün", ["jurgen"]],
    ["GRÜN", ["jurgen"]],
    ["polizei", ["umlauts"]],
    ["FLUCHT", ["umlauts"]],
    ["äöü", ["umlauts"]],
    ["ÄÖÜ", ["umlauts"]],
    ["Äöü-1", ["umlauts"]],
    ["özil", ["umlauts"]],
    ["straße", ["umlauts"]],
    ["STRAẞE", ["umlauts"]],
    ["großmann", ["sharp"]],
    ["GROẞMANN", ["sharp"]],
    ["WEIẞ", ["sharp"]],
    ["weiß", ["sharp"]],
    ["black", ["umlauts"]],
    ["x1", ["cross"]],
    ["w5", ["cross"]],
    ["r6", ["cross"]],
    ["z3", ["cross"]],
    ["q4", ["cross"]],
    ["y2", ["cross"]],
    ["electric", ["percent", "lookalike"]],
    ["r", ["jurgen", "umlauts", "sharp", "percent", "lookalike", "cross"]],
  ])("search=%p finds exactly %p", async (term, expected) => {
    expect(await search(term)).toEqual(expectIds(...expected));
  });

  test.each([
    ["%", ["percent"]],
    ["0%", ["percent"]],
    ["100%", ["percent"]],
    ["% e", ["percent"]],
    ["_", ["percent"]],
    ["a_b", ["percent"]],
    ["A_B", ["percent"]],
  ])("search=%p treats %% and _ literally and finds exactly %p", async (term, expected) => {
    expect(await search(term)).toEqual(expectIds(...expected));
  });

  test.each(["%%", "a%b", "x_", "\\", "needle-in-comment", "needle", "needle-in-sync", "nobody"])("search=%p finds nothing", async (term) => {
    expect(await search(term)).toEqual([]);
  });

  test.each(["1y", "X1Y2", "1 Y", "Z3Q", "4W", "W5R", "2Z", "5r6", "ler gr", "100sul"])(
    "search=%p never matches across two fields",
    async (term) => {
      expect(await search(term)).toEqual([]);
    },
  );

  test("an empty search lists everything", async () => {
    const response = await api.get("/vehicles?search=&per_page=100");
    expect(response.status).toBe(200);
    expect(response.body.meta.total).toBe(Object.keys(v).length);
  });

  test("search combines with sorting and paging, and the meta counts only matches", async () => {
    const response = await api.get("/vehicles?search=electric&sort_field=plate&sort_order=desc&per_page=1");
    expect(response.status).toBe(200);
    expect(ids(response)).toEqual([v.lookalike]);
    expect(response.body.meta).toMatchObject({ total: 2, last_page: 2, from: 1, to: 1, per_page: 1 });
  });

  test("search results come from the key's network only", async () => {
    const other = await newApi();
    await create(other, { plate: "LS-100", owner: "Jürgen Müller" });
    expect(await search("müller")).toEqual(expectIds("jurgen"));
  });
});

describe("network isolation", () => {
  test("with network B's key, network A's vehicle is 404 for GET, PUT, PATCH and DELETE, and stays unchanged", async () => {
    const a = await newApi();
    const b = await newApi();
    const vehicle = await create(a, { plate: "ISO-A", owner: "Alice", wanted: true, wanted_reason: "secret reason" });
    const own = await create(b, { plate: "ISO-B" });
    const missing = await b.get("/vehicles/999999999");
    expectNotFound(missing);

    const responses = [
      await b.get(`/vehicles/${vehicle.id}`),
      await b.put(`/vehicles/${vehicle.id}`, { plate: "HACKED", owner: "Mallory" }),
      await b.patch(`/vehicles/${vehicle.id}`, { wanted: false, wanted_reason: null }),
      await b.delete(`/vehicles/${vehicle.id}`),
    ];
    for (const response of responses) {
      expectNotFound(response);
      // Nothing about A's vehicle leaks: the body is the same as for an id that exists nowhere.
      expect(response.body).toEqual(missing.body);
      expect(response.text).not.toContain("ISO-A");
      expect(response.text).not.toContain("secret reason");
    }

    const read = await a.get(`/vehicles/${vehicle.id}`);
    expect(read.status).toBe(200);
    expect(read.body.data).toEqual(vehicle);

    const listB = await b.get("/vehicles?per_page=100");
    expect(ids(listB)).toEqual([own.id]);
    expect(listB.body.meta.total).toBe(1);
    expect((await b.get("/vehicles?search=iso-a")).body.data).toEqual([]);
    expect((await b.get("/vehicles?search=alice")).body.meta.total).toBe(0);

    const listA = await a.get("/vehicles");
    expect(ids(listA)).toEqual([vehicle.id]);
  });

  test("vehicles created by B never show in A's list, whatever the sort or page", async () => {
    const a = await newApi();
    const b = await newApi();
    const aIds = [(await create(a, { plate: "A-1", car: "zzz" })).id, (await create(a, { plate: "A-2" })).id];
    for (let index = 0; index < 3; index++) await create(b, { plate: `B-${index}`, car: "aaa", owner: "A-1" });
    for (const query of ["", "?sort_field=car", "?sort_field=car&sort_order=desc", "?search=a", "?per_page=1&page=2"]) {
      const response = await a.get(`/vehicles${query}`);
      expect(response.status).toBe(200);
      for (const id of ids(response)) expect(aIds).toContain(id);
      expect(response.body.meta.total).toBeLessThanOrEqual(2);
    }
  });
});

describe("vehicle ids that are not numbers", () => {
  const badIds = ["abc", "1.5", "-1", "0", "99999999999999999999", "1e3", "%20", "null"];

  test.each(badIds)("id %p answers 404 JSON for GET, PUT, PATCH and DELETE", async (id) => {
    const api = await newApi();
    const existing = await create(api, { plate: "EXISTS" });
    for (const method of ["GET", "PUT", "PATCH", "DELETE"]) {
      const response = await api.request(method, `/vehicles/${id}`, method === "PUT" || method === "PATCH" ? { body: { owner: "x" } } : {});
      expectNotFound(response);
    }
    expect((await api.get(`/vehicles/${existing.id}`)).body.data).toEqual(existing);
  });

  test("an existing id followed by other characters is not that vehicle", async () => {
    const api = await newApi();
    const existing = await create(api, { plate: "EXISTS" });
    for (const id of [`${existing.id}abc`, `${existing.id}.5`, `${existing.id}e0`]) {
      expectNotFound(await api.get(`/vehicles/${id}`));
      expectNotFound(await api.patch(`/vehicles/${id}`, { owner: "x" }));
      expectNotFound(await api.delete(`/vehicles/${id}`));
    }
    expect((await api.get(`/vehicles/${existing.id}`)).body.data).toEqual(existing);
  });
});
