// How a search on PostgreSQL reads its page (src/db/postgres/searchPlan.ts): gathering
// the matches first (through either trigram index), or testing rows with strpos, finds exactly
// the rows, in the same order, that LIKE over the network's rows finds, and the plan gathers
// them where reading in order would read far more rows.
import fs from "node:fs";
import path from "node:path";
import { Prisma } from "../src/generated/prisma/client";
import { planPostgresSearch, readRows, type PostgresSearchSource as SearchSource } from "../src/db/postgres/searchPlan";
import { postgresRows } from "../src/db/postgres/pageRows";
import { keyedNeedle, needleKeys } from "../src/db/vehicles/searchKeys";
import pg from "pg";
import { searchTextOf } from "../src/resolvers/vehicleInput";
import { selectSearchPageCounting, selectVehiclePage } from "../src/db/vehicles/reads";
import { vehiclePageSql, type SearchFilter, type VehicleFilter } from "../src/db/vehicles/pageSql";
import type { VehicleOrder } from "../src/db/store";
import { startService, testProvider, type TestService, type TestNetwork } from "./support/service";
import { client, type Client } from "./support/http";
import { awkwardVehicles } from "./support/searchVehicles";

const gatherMatches: SearchSource = { kind: "matches" };
const gatherByKeys: SearchSource = { kind: "keyedMatches" };
const readInOrder: SearchSource = { kind: "rowsInOrder" };

describe("the plan", () => {
  test("without a search the network is read in order", () => {
    expect(planPostgresSearch(null, null, 200_000, 15)).toEqual(readRows);
  });

  test("while the matches are counted they are gathered: the count sees every one anyway", () => {
    expect(planPostgresSearch("braun", null, 200_000, 15)).toEqual(gatherByKeys);
    expect(planPostgresSearch("ab", null, 20, 15)).toEqual(gatherMatches);
    expect(planPostgresSearch("ä-ö", null, 200_000, 15)).toEqual(gatherMatches);
  });

  test("a rare term in a large network is gathered, a common one read in order", () => {
    expect(planPostgresSearch("7411", 22, 200_000, 15)).toEqual(gatherByKeys);
    expect(planPostgresSearch("b-4", 22, 200_000, 15)).toEqual(gatherMatches);
    expect(planPostgresSearch("braun", 14_756, 200_000, 15)).toEqual(readInOrder);
    // Far pages of a common term: reading in order would pass most of the network.
    expect(planPostgresSearch("braun", 14_756, 200_000, 10_000)).toEqual(gatherByKeys);
  });

  test("in a small network reading in order costs less than the network-wide trigram look-up", () => {
    expect(planPostgresSearch("braun", 154, 2000, 15)).toEqual(readInOrder);
    expect(planPostgresSearch("b-4", 1, 2000, 15)).toEqual(readInOrder);
    // The network's own keys name its few matches for less than reading its 2,000 rows.
    expect(planPostgresSearch("7411", 1, 2000, 15)).toEqual(gatherByKeys);
  });

  test("a needle has keys when it holds three ASCII letters or digits in a row", () => {
    expect(["4711", "bn-4711", "müller", "a b c", "b-4", "ä-ö-ü", "ab"].filter(keyedNeedle)).toEqual(["4711", "bn-4711", "müller"]);
  });

  test("a needle shorter than a trigram is never gathered once its total is known", () => {
    expect(planPostgresSearch("74", 3, 200_000, 15)).toEqual(readInOrder);
  });
});

describe(`gathered matches on ${testProvider}`, () => {
  let service: TestService;
  let network: TestNetwork;
  let api: Client;
  const rareOwner = "Qx7 Rarely";
  const networkSize = 2500;

  beforeAll(async () => {
    service = await startService();
    network = await service.network();
    api = client(service.url, network.apiKey);
    // Enough vehicles that a known rare term is gathered (see "the plan"); owners repeat, some
    // are missing, so orders by owner have ties and nulls.
    const now = new Date();
    await service.db.prisma.vehicle.createMany({
      data: Array.from({ length: networkSize }, (_, i) => {
        const owner = i % 800 === 7 ? `${rareOwner} ${i % 3}` : i % 5 === 0 ? null : `Owner ${i % 40}`;
        const plate = `GM-${i}`;
        return { networkId: network.id, plate, owner, searchText: [plate, owner ?? ""].join(" ").toLowerCase(), createdAt: now, updatedAt: now };
      }),
    });
    // Another network's rare vehicle is never found here.
    const other = client(service.url, (await service.network()).apiKey);
    expect((await other.post("/vehicles", { plate: "GM-OTHER", owner: rareOwner })).status).toBe(201);
  });
  afterAll(() => service.close());

  const filterOf = (needle: string): SearchFilter => ({ networkId: network.id, needle });
  const orders: [string, VehicleOrder | null][] = [
    ["id", null],
    ["owner desc, nulls last", { field: "owner", direction: "desc" }],
    ["plate asc", { field: "plate", direction: "asc" }],
  ];

  // strpos is PostgreSQL's: SQLite's own plan never reads rows that way.
  const sources = (needle: string) =>
    testProvider === "postgresql" ? [gatherMatches, readInOrder, ...(keyedNeedle(needle) ? [gatherByKeys] : [])] : [gatherMatches];

  test.each(orders)("the same page and total as with LIKE over the rows in order (order by %s)", async (_, order) => {
    for (const needle of ["qx7", "owner 1", "gm-2", "nothing like it"]) {
      for (const offset of [0, 7, 400]) {
        const page = { order, limit: 15, offset };
        const rowsOf = (source: SearchSource) => postgresRows(filterOf(needle), source);
        const expected = await selectVehiclePage(service.db.read, network.id, rowsOf(readRows), page);
        const countedExpected = await selectSearchPageCounting(service.db.read, filterOf(needle), rowsOf(readRows), page, "test");
        for (const source of sources(needle)) {
          expect(await selectVehiclePage(service.db.read, network.id, rowsOf(source), page)).toEqual(expected);
          expect(await selectSearchPageCounting(service.db.read, filterOf(needle), rowsOf(source), page, "test")).toEqual(countedExpected);
        }
      }
    }
  });

  test("a rare term over HTTP: counted, then read from its kept total, the same page each time", async () => {
    const first = await api.get("/vehicles?search=qx7&sort_field=owner&sort_order=desc");
    const again = await api.get("/vehicles?search=qx7&sort_field=owner&sort_order=desc");
    expect(first.status).toBe(200);
    expect(first.body.meta.total).toBe(Math.ceil(networkSize / 800));
    expect(first.body.data.map((vehicle: { owner: string }) => vehicle.owner)).toEqual(
      [...first.body.data.map((vehicle: { owner: string }) => vehicle.owner)].sort().reverse(),
    );
    expect(first.body.data.every((vehicle: { owner: string }) => vehicle.owner.startsWith(rareOwner))).toBe(true);
    expect(again.body).toEqual(first.body);
  });
});

const describePostgres = testProvider === "postgresql" ? describe : describe.skip;

describePostgres("the service's PostgreSQL connections", () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startService();
  });
  afterAll(() => service.close());

  test("price a random page read for memory and SSDs, so a network is read through its own index", async () => {
    const [setting] = await service.db.read<{ random_page_cost: string }>(Prisma.sql`SHOW random_page_cost`);
    expect(setting.random_page_cost).toBe("1.1");
  });
});

describePostgres("the network's own trigram keys (PostgreSQL)", () => {
  let service: TestService;
  let network: TestNetwork;
  beforeAll(async () => {
    service = await startService();
    network = await service.network();
    const api = client(service.url, network.apiKey);
    for (const vehicle of awkwardVehicles) expect((await api.post("/vehicles", vehicle)).status).toBe(201);
    // Another network's vehicle with the same text is never found here.
    const other = client(service.url, (await service.network()).apiKey);
    expect((await other.post("/vehicles", { plate: "B-AB 1234", owner: "Günther Müller" })).status).toBe(201);
  });
  afterAll(() => service.close());

  const filterOf = (needle: string): VehicleFilter => ({ networkId: network.id, needle });
  const plates = async (needle: string, source: SearchSource) => {
    const page = await selectVehiclePage(service.db.read, network.id, postgresRows(filterOf(needle), source), { order: null, limit: 100, offset: 0 });
    return page.map((vehicle) => vehicle.plate);
  };

  test.each([
    ["1234"], ["123"], ["b-ab 1234"], ["ab 12"], ["müller"], ["r mü"], ["zoë ång"], ["100\ue000 si"], ["straße\ue001t"],
    ["back\ue002sl"], ["stanier"], ["vapid"], ["weiß"], ["ölfass öz"], ["sicher"], ["nothing like it"], ["567"],
    ["öz"], ["ß_"], ["ab"], ['"boss" kow'], ["near(x) *"],
  ])("needle %p: the same rows through the keys as over the network's rows, or no keys", async (needle) => {
    if (keyedNeedle(needle)) expect(await plates(needle, gatherByKeys)).toEqual(await plates(needle, readRows));
    else expect(planPostgresSearch(needle, null, 200_000, 15)).toEqual(gatherMatches);
  });

  test("a needle's keys are its trigrams of ASCII letters and digits, keyed by the network", () => {
    expect(needleKeys(7, "b-ab 1234").split(" ")).toEqual(["7:123", "7:234"]);
    expect(needleKeys(7, "ölfass 1212").split(" ")).toEqual(["7:lfa", "7:fas", "7:ass", "7:121", "7:212"]);
  });

  test("the keys' function answers, for every stored text, the keys its first version wrote (the index was kept)", async () => {
    // The first version (a SQL function), made again from its own migration as a temporary
    // function: *_vehicle_search_keys_plpgsql replaced it without rebuilding the index.
    const migrations = path.join(__dirname, "..", "prisma", "postgresql", "migrations");
    const first = fs.readFileSync(path.join(migrations, "20261123180000_vehicle_search_keys", "migration.sql"), "utf8");
    const definition = /^DO \$\$[\s\S]*?^\$\$;$/m.exec(first)?.[0];
    expect(definition).toContain('CREATE FUNCTION "vehicle_search_keys"');
    const connection = new pg.Client({ connectionString: service.databaseUrl });
    await connection.connect();
    try {
      await connection.query(definition!.replace('CREATE FUNCTION "vehicle_search_keys"', 'CREATE FUNCTION pg_temp."first_search_keys"'));
      const [language] = (await connection.query("SELECT l.lanname FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang WHERE p.proname = 'vehicle_search_keys'")).rows;
      expect(language.lanname).toBe("plpgsql");
      const texts = (await connection.query<{ search_text: string }>("SELECT search_text FROM vehicles WHERE network_id = $1", [network.id])).rows;
      const samples = [...texts.map((row) => row.search_text), "", "a", "ä-ö b-4 xyzzy 0x12", "DD-PX 518 Annis Kuruma Björn Groß"];
      expect(samples.length).toBeGreaterThan(awkwardVehicles.length);
      const { rows } = await connection.query<{ now: string[]; before: string[] }>(
        "SELECT vehicle_search_keys($1, text) AS now, pg_temp.first_search_keys($1, text) AS before FROM unnest($2::text[]) AS text",
        [network.id, samples],
      );
      expect(rows.some((row) => row.now.length > 0)).toBe(true);
      for (const row of rows) expect(row.now).toEqual(row.before);
    } finally {
      await connection.end();
    }
  });

  test("both trigram indexes take writes at once: no pending list that every search reads whole", async () => {
    const indexes = await service.db.read<{ relname: string; reloptions: string[] | null }>(
      Prisma.sql`SELECT relname, reloptions FROM pg_class WHERE relname IN ('vehicles_search_keys_idx', 'vehicles_search_trgm_idx') ORDER BY relname`,
    );
    expect(indexes.map((index) => [index.relname, String(index.reloptions)])).toEqual([
      ["vehicles_search_keys_idx", "fastupdate=off"],
      ["vehicles_search_trgm_idx", "fastupdate=off"],
    ]);
  });

  test("the searches find what they should (the comparison above compares real answers)", async () => {
    expect(await plates("müller", gatherByKeys)).toEqual(["B-AB 1234", "B-CD 5123"]);
    expect(await plates("123", gatherByKeys)).toEqual(["B-AB 1234", "B-CD 5123", "HH-X 1239"]);
    expect(await plates("ölfass öz", gatherByKeys)).toEqual(["K-ÖL 12"]);
  });

  test("PostgreSQL gathers through vehicles_search_keys_idx, which follows every write", async () => {
    const api = client(service.url, network.apiKey);
    const created = await api.post("/vehicles", { plate: "KX-7731", owner: "Erika Muster" });
    expect(await plates("x-773", gatherByKeys)).toEqual(["KX-7731"]);
    expect((await api.patch(`/vehicles/${created.body.data.id}`, { plate: "KY-8842" })).status).toBe(200);
    expect(await plates("x-773", gatherByKeys)).toEqual([]);
    expect(await plates("y-884", gatherByKeys)).toEqual(["KY-8842"]);
    expect((await api.delete(`/vehicles/${created.body.data.id}`)).status).toBe(204);
    expect(await plates("y-884", gatherByKeys)).toEqual([]);

    // In a network of some size, PostgreSQL takes the index for a rare needle (the statement's
    // expression is the index's) rather than testing each of the network's rows.
    const now = new Date();
    await service.db.prisma.vehicle.createMany({
      data: Array.from({ length: 5000 }, (_, i) => {
        const plate = `PX-${i}`;
        return { networkId: network.id, plate, searchText: searchTextOf({ plate }), createdAt: now, updatedAt: now };
      }),
    });
    const page = vehiclePageSql(network.id, postgresRows(filterOf("1234"), gatherByKeys), { order: null, limit: 15, offset: 0 });
    const connection = new pg.Client({ connectionString: service.databaseUrl });
    await connection.connect();
    try {
      await connection.query("ANALYZE vehicles");
      const plan = await connection.query<{ "QUERY PLAN": string }>(`EXPLAIN (COSTS OFF) ${page.text}`, [...page.values]);
      const steps = plan.rows.map((row) => row["QUERY PLAN"]).join("\n");
      expect(steps).toContain("vehicles_search_keys_idx");
      expect(steps).not.toContain("vehicles_search_trgm_idx");
    } finally {
      await connection.end();
    }
  });
});
