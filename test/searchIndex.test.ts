// SQLite's trigram indexes for searches: the network's own keys (prisma/sqlite/migrations/
// *_vehicle_search_keys) for a needle with three ASCII letters or digits in a row, else the
// trigrams of all networks (*_vehicle_search_trigram). A search through either finds exactly
// the rows a search over the network's rows finds, it is what SQLite really uses, and both
// follow every write.
import Database from "libsql";
import { selectVehiclePage } from "../src/db/vehicles/reads";
import { vehiclePageSql, type VehicleFilter } from "../src/db/vehicles/pageSql";
import { needleKeysQuery } from "../src/db/vehicles/searchKeys";
import { searchCandidates } from "../src/db/sqlite/searchCandidates";
import { sqliteRows } from "../src/db/sqlite/pageRows";
import { indexableNeedle, planSearch, readRows, type SqliteSearchSource as SearchSource } from "../src/db/sqlite/searchPlan";
import { startService, testProvider, type TestService, type TestNetwork } from "./support/service";
import { client, type Client } from "./support/http";
import { awkwardVehicles } from "./support/searchVehicles";

const describeSqlite = testProvider === "sqlite" ? describe : describe.skip;
/** The first page of 15, in id order (the list's default). */
const firstPage = { pageEnd: 15, idOrder: true };

describeSqlite("trigram search index (SQLite)", () => {
  let service: TestService;
  let network: TestNetwork;
  let otherNetwork: TestNetwork;
  let api: Client;
  beforeAll(async () => {
    service = await startService();
    network = await service.network();
    api = client(service.url, network.apiKey);
    for (const vehicle of awkwardVehicles) expect((await api.post("/vehicles", vehicle)).status).toBe(201);
    // Another network's vehicle with the same text is never found here.
    otherNetwork = await service.network();
    const other = client(service.url, otherNetwork.apiKey);
    expect((await other.post("/vehicles", { plate: "B-AB 1234", owner: "Günther Müller" })).status).toBe(201);
  });
  afterAll(() => service.close());

  const filterOf = (needle: string): VehicleFilter => ({ networkId: network.id, needle });
  const plates = async (needle: string, source: SearchSource) => {
    const page = await selectVehiclePage(service.db.read, network.id, sqliteRows(filterOf(needle), source), { order: null, limit: 100, offset: 0 });
    return page.map((vehicle) => vehicle.plate);
  };
  const askIndex: SearchSource = { kind: "index" };
  /** The rows the index names (the network's keys, or trigrams of all networks), as the plan passes them on. */
  const candidates = async (needle: string): Promise<SearchSource> => {
    const rows = await service.db.read<{ rowid: number }>(searchCandidates(network.id, needle));
    return { kind: "candidates", ids: rows.map((row) => Number(row.rowid)) };
  };

  test.each([
    ["1234"], ["123"], ["müller"], ["ünt"], ["zoë"], ["ångström"], ["100%"], ["0% s"], ["straße_"], ["e_t"],
    ["back\\sl"], ["ab_"], ["σίσυφος"], ["öl"], ["b-a"], ["-"], ["vapid"], ["stanier"], ["weiß"], ["only in"], ["nothing like it"],
    ["b-ab 1234"], ["ab 12"], ["r mü"], ["zoë ång"], ["ölfass öz"], ["lfass"], ["sicher"], ["567"], ["k-öl"], ["ß_t"],
    // FTS5 query syntax in a needle is text like any other.
    ['"boss"'], ['ss" k'], ['"'], ["and or"], ["near(x)"], [" *"], ["^de"], ["ab\u0000cd"], ["\u0000bcd"],
  ])("needle %p: the same rows from the index, from its candidates and without it", async (needle) => {
    const lowered = needle.toLowerCase();
    const escaped = lowered.replace(/%/g, "\ue000").replace(/_/g, "\ue001").replace(/\\/g, "\ue002");
    const withoutIndex = await plates(escaped, readRows);
    if (indexableNeedle(escaped)) {
      expect(await plates(escaped, askIndex)).toEqual(withoutIndex);
      expect(await plates(escaped, await candidates(escaped))).toEqual(withoutIndex);
    } else {
      // The plan never takes the index for a needle it cannot look up (short, or with NUL).
      expect(await planSearch(service.db.read, filterOf(escaped), null, 2000, firstPage)).toEqual(readRows);
    }
  });

  test("the searches find what they should (the comparison above compares real answers)", async () => {
    expect(await plates("müller", askIndex)).toEqual(["B-AB 1234", "B-CD 5123"]);
    expect(await plates("123", askIndex)).toEqual(["B-AB 1234", "B-CD 5123", "HH-X 1239"]);
  });

  test("a needle's keys are its substrings of three ASCII letters or digits, keyed by the network", () => {
    expect(needleKeysQuery(7, "b-ab 1234")).toBe('"7x123" "7x234"');
    expect(needleKeysQuery(7, "ölfass 1212")).toBe('"7xlfa" "7xfas" "7xass" "7x121" "7x212"');
  });

  /** How SQLite runs a page of the needle's search through the index. */
  function planDetails(needle: string, source: SearchSource = askIndex): string {
    const filter: VehicleFilter = { networkId: network.id, needle };
    const statement = vehiclePageSql(network.id, sqliteRows(filter, source), { order: null, limit: 15, offset: 0 }, source === askIndex ? "matches" : "none");
    // On a connection of its own: libsql leaves an EXPLAIN statement unfinished, which would
    // pin the service's read connection to the snapshot of its next read.
    const connection = new Database(service.databaseUrl.replace(/^file:/, ""), { readonly: true });
    try {
      const plan = connection.prepare(`EXPLAIN QUERY PLAN ${statement.sql}`).all(statement.values) as { detail: string }[];
      return plan.map((row) => row.detail).join("\n");
    } finally {
      connection.close();
    }
  }

  test("SQLite looks a needle with keys up in the network's keys, and reads only the rows they name", () => {
    const details = planDetails("1234");
    expect(details).toMatch(/SCAN vehicle_search_keys VIRTUAL TABLE INDEX/);
    expect(details).not.toMatch(/vehicles_search/);
    // Each named row is read by id (the table's key or the network's id index).
    expect(details).toMatch(/SEARCH vehicles USING (INTEGER PRIMARY KEY \(rowid=\?\)|INDEX vehicles_network_id_id_search_text_idx \(network_id=\? AND id=\?)/);
    expect(details).not.toMatch(/SCAN vehicles(?!_search)/);
  });

  test("SQLite reads a common term's page in the network's id index, which holds the search text LIKE is tested on", () => {
    // In id order through (network_id, id, search_text): SQLite tests LIKE on the index's copy
    // of the text and reads only matching rows from the table.
    const details = planDetails("müller", readRows);
    expect(details).toMatch(/^SEARCH vehicles USING INDEX vehicles_network_id_id_search_text_idx \(network_id=\?\)$/);
  });

  test("SQLite looks any other needle up in the trigram index, not in every row of the network", () => {
    const details = planDetails("k-ö");
    expect(details).toMatch(/SCAN vehicles_search VIRTUAL TABLE INDEX/);
    // The candidates of all networks are looked up in the network's id index, ...
    expect(details).toMatch(/SEARCH vehicles USING COVERING INDEX vehicles_network_id_id_search_text_idx \(network_id=\? AND id=\?/);
    // ... and only the network's own rows are read, by id (the table's key or that index).
    expect(details).toMatch(/SEARCH vehicles USING (INTEGER PRIMARY KEY \(rowid=\?\)|INDEX vehicles_network_id_id_search_text_idx \(network_id=\? AND id=\?)/);
    expect(details).not.toMatch(/SCAN vehicles(?!_search)/);
  });

  test("the index is taken for needles it names few rows for, against the network's size", async () => {
    const plan = async (needle: string, knownMatches: number | null, networkVehicles: number) =>
      planSearch(service.db.read, filterOf(needle), knownMatches, networkVehicles, firstPage);
    const kind = async (...args: Parameters<typeof plan>) => (await plan(...args)).kind;
    // "müller" has keys, which name the network's 2 rows (not the other network's). 8 vehicles:
    // the index may name at most 1 row (a quarter of 8 is 2, exclusive).
    expect(await kind("müller", null, 8)).toBe("rows");
    // The first look-up of a needle passes its candidates on; later ones ask the index again.
    const first = await plan("müller", null, 2000);
    expect(first.kind === "candidates" && first.ids.length).toBe(2);
    expect(await plates("müller", first)).toEqual(["B-AB 1234", "B-CD 5123"]);
    expect(await kind("müller", null, 2000)).toBe("index");
    expect(await kind("müller", null, 8)).toBe("rows");
    // What a needle's keys name is kept per network: the other network's first look-up fetches its own.
    const elsewhere = await planSearch(service.db.read, { networkId: otherNetwork.id, needle: "müller" }, null, 2000, firstPage);
    expect(elsewhere.kind === "candidates" && elsewhere.ids.length).toBe(1);
    // "zoë" has no keys: the trigram index names its 1 row of all networks.
    expect(await kind("zoë", null, 2000)).toBe("candidates");
    expect(await kind("zoë", null, 8)).toBe("index");
    // A network too small to gain anything, a needle too short (or with a NUL), many known matches.
    expect(await kind("zoë", null, 3)).toBe("rows");
    expect(await kind("zo", null, 2000)).toBe("rows");
    expect(await kind("zo\u0000ë", null, 2000)).toBe("rows");
    // Known matches: the index while reading in order until the page is full costs more.
    expect(await kind("zoë", 25, 2000)).toBe("rows");
    expect(await kind("zoë", 20, 2000)).toBe("index");
    expect(await kind("zoë", 400, 200_000)).toBe("rows");
    expect(await kind("zoë", 300, 200_000)).toBe("index");
    // A later page needs more entries read in order; another order reads a row per entry.
    const planned = (page: { pageEnd: number; idOrder: boolean }) => planSearch(service.db.read, filterOf("zoë"), 25, 2000, page);
    expect((await planned({ pageEnd: 150, idOrder: true })).kind).toBe("index");
    expect((await planned({ pageEnd: 15, idOrder: false })).kind).toBe("index");
  });

  test("a needle with more candidates than the plan fetches is counted, and the index still taken while few", async () => {
    const crowd = await service.network();
    const now = new Date();
    await service.db.prisma.vehicle.createMany({
      data: Array.from({ length: 1100 }, (_, i) => ({
        networkId: crowd.id,
        plate: `CR-${i}`,
        searchText: `cr-${i}\u001fkrähwinkel`,
        createdAt: now,
        updatedAt: now,
      })),
    });
    const plan = (needle: string, networkVehicles: number, networkId = crowd.id) =>
      planSearch(service.db.read, { networkId, needle }, null, networkVehicles, firstPage);
    // 1,100 candidates: fewer than a quarter of 8,000; not fewer than a quarter of 4,400 (counted
    // past the fetched ones) or of 4,000 (told by the fetched ones alone).
    expect(await plan("krähwinkel", 8000)).toEqual({ kind: "index" });
    expect(await plan("ähwink", 4400)).toEqual(readRows);
    expect(await plan("rähwin", 4000)).toEqual(readRows);
    // The keys name the crowd's rows only: none in this network.
    expect(await plan("krähwinkel", 8000, network.id)).toEqual({ kind: "candidates", ids: [] });
    // Through HTTP, with the index: every one of the crowd's vehicles, none of this network's.
    const response = await client(service.url, crowd.apiKey).get("/vehicles?search=krähwinkel&per_page=5");
    expect({ status: response.status, total: response.body.meta.total }).toEqual({ status: 200, total: 1100 });
    expect((await api.get("/vehicles?search=krähwinkel")).body.meta.total).toBe(0);
  });

  test("the index follows creates, changes of searched fields and deletes", async () => {
    const count = async (needle: string) => (await plates(needle, askIndex)).length;
    const created = (await api.post("/vehicles", { plate: "IDX-1", owner: "Indira Quaglia" })).body.data;
    expect(await count("quaglia")).toBe(1);
    await api.patch(`/vehicles/${created.id}`, { owner: "Indira Brandt" });
    expect(await count("quaglia")).toBe(0);
    expect(await count("brandt")).toBe(1);
    await api.delete(`/vehicles/${created.id}`);
    expect(await count("brandt")).toBe(0);
    expect(await count("idx-1")).toBe(0);
    // The same through the trigram index, for needles without keys.
    const umlauts = (await api.post("/vehicles", { plate: "IDX-2", owner: "Üß Ö" })).body.data;
    expect(await count("üß ö")).toBe(1);
    await api.patch(`/vehicles/${umlauts.id}`, { owner: "Öß Ü" });
    expect([await count("üß ö"), await count("öß ü")]).toEqual([0, 1]);
    await api.delete(`/vehicles/${umlauts.id}`);
    expect(await count("öß ü")).toBe(0);
    // The keys' index is whole after its rows were told apart by their keys.
    const connection = new Database(service.databaseUrl.replace(/^file:/, ""));
    try {
      connection.prepare(`INSERT INTO vehicle_search_keys(vehicle_search_keys) VALUES ('integrity-check')`).run();
    } finally {
      connection.close();
    }
  });

  test("a rare term's list answers through HTTP with its exact total", async () => {
    const response = await api.get("/vehicles?search=1234");
    expect(response.status).toBe(200);
    expect(response.body.meta.total).toBe(1);
    expect(response.body.data.map((vehicle: { plate: string }) => vehicle.plate)).toEqual(["B-AB 1234"]);
    // A NUL, which FTS5's query syntax cannot hold, is refused like on PostgreSQL (issue 21).
    const withNul = await api.get("/vehicles?search=12%0034");
    expect({ status: withNul.status, errors: withNul.body.errors }).toEqual({
      status: 422,
      errors: { search: ["The search field must not contain NUL characters."] },
    });
  });
});
