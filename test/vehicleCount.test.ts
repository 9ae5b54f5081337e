// The list's total without a search comes from a count kept by database triggers: it must equal
// the real number of rows after any mix of concurrent creates and deletes.
import { startService, testProvider, type TestService } from "./support/service";
import { client } from "./support/http";
import { knownVehicleTotal } from "../src/db/vehicles/totals";
import { selectSearchPageCounting } from "../src/db/vehicles/reads";
import { likeWhere } from "../src/db/vehicles/where";
import { listVehicles } from "../src/resolvers/vehicles";
import { overPaths } from "../src/db/client";
import { operatorKey, type Context } from "../src/context";
import { countingReads } from "./support/countingReads";

/** A context whose reads are counted (and whose kept totals and seen states start empty). */
function countingContext(network: Context["network"]) {
  const { read, statementsOf } = countingReads(service.db.read);
  const ctx: Context = { db: overPaths(service.db, { read }), network, key: operatorKey, now: () => new Date() };
  return { ctx, statementsOf };
}

let service: TestService;
beforeAll(async () => {
  service = await startService();
});
afterAll(() => service.close());

async function realCount(networkId: number) {
  return service.db.prisma.vehicle.count({ where: { networkId } });
}

test("the kept count equals the rows after concurrent creates and deletes in two networks", async () => {
  const networks = [await service.network(), await service.network()];
  const apis = networks.map((network) => client(service.url, network.apiKey));
  const created = await Promise.all(
    Array.from({ length: 40 }, (_, i) => apis[i % 2].post("/vehicles", { plate: `CNT-${i}` })),
  );
  expect(created.every((response) => response.status === 201)).toBe(true);
  const deletions = created
    .filter((_, i) => i % 4 < 2)
    .map((response, i) => apis[i % 2].delete(`/vehicles/${response.body.data.id}`));
  // A failed create (422) and a delete of another network's vehicle (404) change no count.
  const refused = [apis[0].post("/vehicles", { plate: "" }), apis[1].delete(`/vehicles/${created[0].body.data.id}`)];
  await Promise.all([...deletions, ...refused]);

  for (const [index, network] of networks.entries()) {
    const listed = await apis[index].get("/vehicles");
    expect(listed.body.meta.total).toBe(await realCount(network.id));
    expect(listed.body.meta.total).toBe(10);
  }
});

test("a search counts its matches, not the network", async () => {
  const network = await service.network();
  const api = client(service.url, network.apiKey);
  await Promise.all(["Alpha", "Beta", "Alphabet"].map((owner, i) => api.post("/vehicles", { plate: `S-${i}`, owner })));
  expect((await api.get("/vehicles?search=alpha")).body.meta.total).toBe(2);
  expect((await api.get("/vehicles")).body.meta.total).toBe(3);
});

test("search follows every write: create, update of a searched field, delete", async () => {
  const network = await service.network();
  const api = client(service.url, network.apiKey);
  const totalFor = async (term: string) => (await api.get(`/vehicles?search=${encodeURIComponent(term)}`)).body.meta.total;
  const created = (await api.post("/vehicles", { plate: "FTS-1", owner: "Zacharias Öztürk" })).body.data;
  expect(await totalFor("öztürk")).toBe(1);
  expect(await totalFor("ÖZT")).toBe(1);
  await api.patch(`/vehicles/${created.id}`, { owner: "Jürgen Weiß" });
  expect(await totalFor("öztürk")).toBe(0);
  expect(await totalFor("weiß")).toBe(1);
  await api.patch(`/vehicles/${created.id}`, { comment: "öztürk is not searched" });
  expect(await totalFor("öztürk")).toBe(0);
  await api.delete(`/vehicles/${created.id}`);
  expect(await totalFor("weiß")).toBe(0);
  expect(await totalFor("fts-1")).toBe(0);
});

describe("kept search totals", () => {
  const totalOf = async (api: ReturnType<typeof client>, query: string) => {
    const response = await api.get(`/vehicles?${query}`);
    expect(response.status).toBe(200);
    return response.body;
  };

  test("writes the service did not make itself (another process, plain SQL) are counted at once", async () => {
    const network = await service.network();
    const api = client(service.url, network.apiKey);
    await Promise.all([1, 2, 3].map((i) => api.post("/vehicles", { plate: `KEPT-${i}`, owner: "Kept Halvorsen" })));
    // Asked twice: the second answer comes from the kept total.
    expect((await totalOf(api, "search=halvorsen")).meta.total).toBe(3);
    expect((await totalOf(api, "search=halvorsen")).meta.total).toBe(3);

    const now = new Date();
    await service.db.prisma.vehicle.create({
      data: { networkId: network.id, plate: "SQL-1", owner: "Sven Halvorsen", searchText: "sql-1\u001f\u001f\u001fsven halvorsen\u001f\u001f", createdAt: now, updatedAt: now },
    });
    expect((await totalOf(api, "search=halvorsen")).meta.total).toBe(4);
    await service.db.prisma.vehicle.updateMany({ where: { networkId: network.id, plate: "SQL-1" }, data: { searchText: "sql-1" } });
    expect((await totalOf(api, "search=halvorsen")).meta.total).toBe(3);
    await service.db.prisma.vehicle.deleteMany({ where: { networkId: network.id, plate: "KEPT-1" } });
    expect((await totalOf(api, "search=halvorsen")).meta.total).toBe(2);
    // Writes in another network leave this network's total alone, and the reverse.
    const other = client(service.url, (await service.network()).apiKey);
    await other.post("/vehicles", { plate: "OTHER-1", owner: "Halvorsen" });
    expect((await totalOf(api, "search=halvorsen")).meta.total).toBe(2);
    expect((await totalOf(other, "search=halvorsen")).meta.total).toBe(1);
  });

  test("a total once counted needs no count until the network's vehicles change", async () => {
    const network = await service.network();
    const api = client(service.url, network.apiKey);
    await api.post("/vehicles", { plate: "K-1", owner: "Known Ekdahl" });
    const filter = { networkId: network.id, needle: "ekdahl" };
    const read = service.db.read;
    // The network's rows in order, LIKE deciding: the same on both databases.
    const rows = { where: likeWhere(filter.networkId, filter.needle), gather: false };
    const count = async () => {
      const { version } = await knownVehicleTotal(read, filter);
      return (await selectSearchPageCounting(read, filter, rows, { order: null, limit: 15, offset: 0 }, version)).total;
    };
    expect((await knownVehicleTotal(read, filter)).total).toBeNull();
    expect(await count()).toBe(1);
    expect((await knownVehicleTotal(read, filter)).total).toBe(1);
    expect((await knownVehicleTotal(read, { ...filter, needle: "ekdah" })).total).toBeNull();
    await api.patch(`/vehicles/${(await api.get("/vehicles")).body.data[0].id}`, { color: "Blau" });
    expect((await knownVehicleTotal(read, filter)).total).toBeNull();
    expect(await count()).toBe(1);
    expect((await knownVehicleTotal(read, filter)).total).toBe(1);
    // Without a search the total is the network's kept count.
    expect((await knownVehicleTotal(read, { ...filter, needle: null })).total).toBe(1);
  });

  test("the first search of a term past its last page still learns the total", async () => {
    const network = await service.network();
    const api = client(service.url, network.apiKey);
    for (let i = 0; i < 4; i++) expect((await api.post("/vehicles", { plate: `FAR-${i}`, owner: "Far Page" })).status).toBe(201);
    const far = await api.get("/vehicles?search=far%20page&per_page=2&page=5");
    expect(far.body.meta).toMatchObject({ total: 4, last_page: 2, from: null });
    expect(far.body.data).toEqual([]);
    const sorted = await api.get("/vehicles?search=FAR-&per_page=3&sort_field=plate&sort_order=desc");
    expect(sorted.body.meta.total).toBe(4);
    expect(sorted.body.data.map((vehicle: { plate: string }) => vehicle.plate)).toEqual(["FAR-3", "FAR-2", "FAR-1"]);
  });

  test("paging through a search: the same total on every page, empty pages past the end", async () => {
    const network = await service.network();
    const api = client(service.url, network.apiKey);
    for (let i = 0; i < 7; i++) expect((await api.post("/vehicles", { plate: `PG-${i}`, owner: "Paged Quist" })).status).toBe(201);
    const pages = [];
    for (const page of [1, 2, 3, 4]) pages.push(await totalOf(api, `search=quist&per_page=3&page=${page}`));
    expect(pages.map((body) => body.meta.total)).toEqual([7, 7, 7, 7]);
    expect(pages.map((body) => body.data.length)).toEqual([3, 3, 1, 0]);
    expect(pages[3].meta).toMatchObject({ current_page: 4, last_page: 3, from: null, to: null });
    expect(pages.flatMap((body) => body.data.map((vehicle: { plate: string }) => vehicle.plate))).toEqual(
      Array.from({ length: 7 }, (_, i) => `PG-${i}`),
    );
    // A term nobody has: no matches, no page, whichever page is asked for.
    expect((await totalOf(api, "search=nobody-has-this&page=2")).meta).toMatchObject({ total: 0, from: null });
  });

  test("concurrent creates, deletes and searches: every search ends up at the real count", async () => {
    const network = await service.network();
    const api = client(service.url, network.apiKey);
    const writes = Array.from({ length: 30 }, (_, i) => api.post("/vehicles", { plate: `RACE-${i}`, owner: "Racy Lindqvist" }));
    const searches = Array.from({ length: 30 }, () => api.get("/vehicles?search=lindqvist"));
    const created = await Promise.all(writes);
    await Promise.all(searches);
    await Promise.all(created.slice(0, 10).map((response) => api.delete(`/vehicles/${response.body.data.id}`)));
    const real = await service.db.prisma.vehicle.count({ where: { networkId: network.id, owner: "Racy Lindqvist" } });
    expect(real).toBe(20);
    expect((await totalOf(api, "search=lindqvist")).meta.total).toBe(20);
  });
});

// PostgreSQL only: on SQLite a page and a count cost less than one statement with both.
const describePostgres = testProvider === "postgresql" ? describe : describe.skip;

describePostgres("a page and its total in one statement", () => {
  test("a list without a search reads its page and the kept count together; an empty page asks the count", async () => {
    const network = await service.network();
    const api = client(service.url, network.apiKey);
    for (let i = 0; i < 3; i++) expect((await api.post("/vehicles", { plate: `ONE-${i}` })).status).toBe(201);
    const { ctx, statementsOf } = countingContext(network);
    const page = await statementsOf(() => listVehicles(ctx, { perPage: 2 }));
    expect(page.statements).toHaveLength(1);
    expect(page.result.meta.total).toBe(3);
    expect(page.result.data.map((vehicle) => vehicle.plate)).toEqual(["ONE-0", "ONE-1"]);
    const past = await statementsOf(() => listVehicles(ctx, { perPage: 2, page: 3 }));
    expect(past.result.meta).toMatchObject({ total: 3, from: null });
    expect(past.statements).toHaveLength(2);
  });

  test("a search whose total is kept is read in one statement until the network changes, then counted again", async () => {
    const network = await service.network();
    const api = client(service.url, network.apiKey);
    for (let i = 0; i < 3; i++) expect((await api.post("/vehicles", { plate: `GUESS-${i}`, owner: "Guessed Lindqvist" })).status).toBe(201);
    const { ctx, statementsOf } = countingContext(network);
    const search = () => listVehicles(ctx, { search: "lindqvist", perPage: 2 });
    expect((await search()).meta.total).toBe(3);
    const kept = await statementsOf(search);
    expect(kept.result.meta.total).toBe(3);
    expect(kept.statements).toHaveLength(1);
    // A write the process did not see (as from another service process) changes the version.
    await service.db.prisma.vehicle.create({
      data: { networkId: network.id, plate: "GUESS-X", owner: "Lindqvist", searchText: "guess-x lindqvist", createdAt: new Date(), updatedAt: new Date() },
    });
    const changed = await statementsOf(search);
    expect(changed.result.meta.total).toBe(4);
    expect(changed.statements.length).toBeGreaterThan(1);
    expect((await statementsOf(search)).statements).toHaveLength(1);
    expect((await search()).data.map((vehicle) => vehicle.plate)).toEqual(["GUESS-0", "GUESS-1"]);
  });

  test("a term not searched before is counted with its page and the network's version in one statement, and kept at that version", async () => {
    const network = await service.network();
    const api = client(service.url, network.apiKey);
    for (let i = 0; i < 3; i++) expect((await api.post("/vehicles", { plate: `NEW-${i}`, owner: "Fresh Lindqvist" })).status).toBe(201);
    // Written without the service (as by another process): the version moves.
    await service.db.prisma.vehicle.create({
      data: { networkId: network.id, plate: "NEW-X", owner: "Lindqvist", searchText: "new-x fresh lindqvist", createdAt: new Date(), updatedAt: new Date() },
    });
    const { ctx, statementsOf } = countingContext(network);
    const search = (page = 1) => listVehicles(ctx, { search: "fresh lindqvist", perPage: 2, page });
    const first = await statementsOf(() => search());
    expect(first.statements).toHaveLength(1);
    expect(first.statements[0]).toMatch(/COUNT\(\*\) OVER/);
    expect(first.result.meta).toMatchObject({ total: 4, lastPage: 2, from: 1, to: 2 });
    expect(first.result.data.map((vehicle) => vehicle.plate)).toEqual(["NEW-0", "NEW-1"]);
    // Kept at the version that statement read: the next page is one statement too.
    const second = await statementsOf(() => search(2));
    expect(second.statements).toHaveLength(1);
    expect(second.statements[0]).not.toMatch(/COUNT\(\*\) OVER/);
    expect(second.result.data.map((vehicle) => vehicle.plate)).toEqual(["NEW-2", "NEW-X"]);
    // No match: a total of 0 from the one statement, and nothing kept to key it by.
    const none = await statementsOf(() => listVehicles(ctx, { search: "nobody by that name" }));
    expect(none.statements).toHaveLength(1);
    expect(none.result.meta).toMatchObject({ total: 0, lastPage: 1, from: null, to: null });
    expect(none.result.data).toEqual([]);
    // A new term's page past its last match carries no count: counted the long way.
    const past = await statementsOf(() => listVehicles(ctx, { search: "new-", perPage: 2, page: 5 }));
    expect(past.result.meta).toMatchObject({ total: 4, from: null });
    expect(past.statements.length).toBeGreaterThan(1);
  });
});
