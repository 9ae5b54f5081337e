// Hot reads on SQLite take libSQL's result rows as they are (src/db/adapterReads.ts): they must
// equal what Prisma's own queryRaw path gives, for every kind of column the service reads.
import { Prisma } from "../src/generated/prisma/client";
import { adapterReads, hasPerformIO, type QueryableAdapter } from "../src/db/adapterReads";
import { openDatabase, type Database } from "../src/db/client";
import { migrate } from "../src/db/migrate";
import { SqliteAdapterFactory } from "../src/db/sqliteAdapter";
import { freshDatabase, testProvider, type FreshDatabase } from "./support/database";

const describeSqlite = testProvider === "sqlite" ? describe : describe.skip;

describeSqlite("SQLite hot reads", () => {
  let fresh: FreshDatabase;
  let db: Database;
  let adapter: QueryableAdapter & object;

  beforeAll(async () => {
    fresh = await freshDatabase("sqlite");
    await migrate(fresh.url);
    db = await openDatabase(fresh.url);
    adapter = (await new SqliteAdapterFactory({ url: fresh.url }).connect()) as unknown as QueryableAdapter & object;
    const network = await db.prisma.network.create({ data: { name: "Reads", identifierType: "steam", createdAt: new Date() } });
    const at = new Date("2026-11-21T22:32:09.003Z");
    await db.prisma.vehicle.create({
      data: { networkId: network.id, plate: "RD-1", searchText: "rd-1", wanted: true, synced: false, createdAt: at, updatedAt: at },
    });
    await db.prisma.vehicle.create({
      data: {
        networkId: network.id, plate: "RD-2", owner: "Jörg Groß", comment: "line\nbreak", generalInspection: "2027-01-31",
        searchText: "rd-2 jörg groß", wanted: false, synced: true, syncId: "s-2", createdAt: at, updatedAt: new Date(at.getTime() + 1),
      },
    });
  });
  afterAll(async () => {
    await db.close();
    await fresh.drop();
  });

  test("Prisma's libSQL adapter still runs its queries through performIO", () => {
    expect(hasPerformIO(adapter)).toBe(true);
  });

  test.each([
    ["vehicles with every column type", Prisma.sql`SELECT * FROM vehicles ORDER BY id`, 2],
    ["a count and a version", Prisma.sql`SELECT COUNT(*) AS total, MAX(vehicle_version) AS version FROM networks`, 1],
    ["a filtered join with parameters", Prisma.sql`SELECT v.id, n.name FROM vehicles v JOIN networks n ON n.id = v.network_id WHERE v.plate = ${"RD-2"} AND v.id > ${0}`, 1],
    ["no rows", Prisma.sql`SELECT id FROM vehicles WHERE id = ${-1}`, 0],
  ])("%s: the rows equal those of Prisma's queryRaw", async (_name, query, count) => {
    const fast = adapterReads("sqlite", async () => adapter);
    const throughQueryRaw = adapterReads("sqlite", async () => ({ queryRaw: (q) => adapter.queryRaw(q) }));
    const plain = (rows: object[]) => rows.map((row) => ({ ...row }));
    const expected = plain(await throughQueryRaw(query));
    expect(expected).toHaveLength(count);
    expect(plain(await fast(query))).toEqual(expected);
  });
});
