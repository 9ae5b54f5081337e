// How a search on PostgreSQL reads its page (src/resolvers/postgresSearchPlan.ts): gathering
// the matches first, or testing rows with strpos, finds exactly the rows, in the same order,
// that LIKE over the network's rows finds, and the plan gathers them where reading in order
// would read far more rows.
import { Prisma } from "../src/generated/prisma/client";
import { planPostgresSearch } from "../src/resolvers/postgresSearchPlan";
import { readRows, type SearchSource } from "../src/resolvers/searchPlan";
import { selectSearchPageCounting, selectVehiclePage, type VehicleFilter, type VehicleOrder } from "../src/resolvers/vehicleQueries";
import { startService, testProvider, type TestService, type TestNetwork } from "./support/service";
import { client, type Client } from "./support/http";

const gatherMatches: SearchSource = { kind: "matches" };
const readInOrder: SearchSource = { kind: "rowsInOrder" };

describe("the plan", () => {
  test("without a search the network is read in order", () => {
    expect(planPostgresSearch(null, null, 200_000, 15)).toEqual(readRows);
  });

  test("while the matches are counted they are gathered: the count sees every one anyway", () => {
    expect(planPostgresSearch("braun", null, 200_000, 15)).toEqual(gatherMatches);
    expect(planPostgresSearch("ab", null, 20, 15)).toEqual(gatherMatches);
  });

  test("a rare term in a large network is gathered, a common one read in order", () => {
    expect(planPostgresSearch("7411", 22, 200_000, 15)).toEqual(gatherMatches);
    expect(planPostgresSearch("braun", 14_756, 200_000, 15)).toEqual(readInOrder);
    // Far pages of a common term: reading in order would pass most of the network.
    expect(planPostgresSearch("braun", 14_756, 200_000, 10_000)).toEqual(gatherMatches);
  });

  test("in a small network reading in order costs less than the trigram look-up", () => {
    expect(planPostgresSearch("braun", 154, 2000, 15)).toEqual(readInOrder);
    expect(planPostgresSearch("7411", 1, 2000, 15)).toEqual(readInOrder);
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

  const filterOf = (needle: string): VehicleFilter & { needle: string } => ({ networkId: network.id, needle, trigramIndex: false });
  const orders: [string, VehicleOrder | null][] = [
    ["id", null],
    ["owner desc, nulls last", { column: "owner", direction: "desc", nullsLast: true }],
    ["plate asc", { column: "plate", direction: "asc", nullsLast: false }],
  ];

  // strpos is PostgreSQL's: SQLite's own plan never reads rows that way.
  const sources = testProvider === "postgresql" ? [gatherMatches, readInOrder] : [gatherMatches];

  test.each(orders)("the same page and total as with LIKE over the rows in order (order by %s)", async (_, order) => {
    for (const needle of ["qx7", "owner 1", "gm-2", "nothing like it"]) {
      for (const offset of [0, 7, 400]) {
        const page = { order, limit: 15, offset };
        const expected = await selectVehiclePage(service.db.read, filterOf(needle), { ...page, source: readRows });
        const countedExpected = await selectSearchPageCounting(service.db.read, filterOf(needle), { ...page, source: readRows }, "test");
        for (const source of sources) {
          expect(await selectVehiclePage(service.db.read, filterOf(needle), { ...page, source })).toEqual(expected);
          expect(await selectSearchPageCounting(service.db.read, filterOf(needle), { ...page, source }, "test")).toEqual(countedExpected);
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
