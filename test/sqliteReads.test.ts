// Hot reads on SQLite run on their own libsql connection (src/db/sqlite/reads.ts): their rows must
// equal those of the same SQL on Prisma's libSQL adapter for every kind of column and parameter
// the service reads, they must see every committed write at once, and they can never write.
import { Prisma } from "../src/generated/prisma/client";
import { openDatabase, sqliteFilePath, type Database } from "../src/db/client";
import { migrate } from "../src/db/migrate";
import { openSqliteReads, readCacheKib, type SqliteReads } from "../src/db/sqlite/reads";
import { adapterReads, type ReadSql } from "../src/db/adapterReads";
import { SqliteAdapterFactory } from "../src/db/sqlite/adapter";
import { freshDatabase, testProvider, type FreshDatabase } from "./support/database";

const describeSqlite = testProvider === "sqlite" ? describe : describe.skip;

describeSqlite("SQLite hot reads", () => {
  let fresh: FreshDatabase;
  let db: Database;
  let reads: SqliteReads;
  let readOnAdapter: ReadSql;
  let networkId: number;
  const at = new Date("2026-11-21T22:32:09.003Z");

  beforeAll(async () => {
    fresh = await freshDatabase("sqlite");
    await migrate(fresh.url);
    db = await openDatabase(fresh.url);
    reads = openSqliteReads(sqliteFilePath(fresh.url));
    const adapter = new SqliteAdapterFactory({ url: fresh.url }).connect();
    readOnAdapter = adapterReads("sqlite", () => adapter);
    networkId = (await db.prisma.network.create({ data: { name: "Reads", identifierType: "steam", createdAt: at } })).id;
    await db.prisma.vehicle.create({
      data: { networkId, plate: "RD-1", searchText: "rd-1", wanted: true, synced: false, createdAt: at, updatedAt: at },
    });
    await db.prisma.vehicle.create({
      data: {
        networkId, plate: "RD-2", owner: "Jörg Groß", comment: "line\nbreak", generalInspection: "2027-01-31",
        searchText: "rd-2 jörg groß", wanted: false, synced: true, syncId: "s-2", createdAt: at, updatedAt: new Date(at.getTime() + 1),
      },
    });
  });
  afterAll(async () => {
    reads.close();
    await db.close();
    await fresh.drop();
  });

  test.each([
    ["vehicles with every column type", () => Prisma.sql`SELECT * FROM vehicles ORDER BY id`, 2],
    ["a count and a version", () => Prisma.sql`SELECT COUNT(*) AS total, MAX(vehicle_version) AS version FROM networks`, 1],
    ["a join with text and number parameters", () => Prisma.sql`SELECT v.id, n.name FROM vehicles v JOIN networks n ON n.id = v.network_id WHERE v.plate = ${"RD-2"} AND v.id > ${0}`, 1],
    ["an instant parameter", () => Prisma.sql`SELECT id FROM vehicles WHERE updated_at >= ${at} AND network_id = ${networkId}`, 2],
    ["a boolean parameter", () => Prisma.sql`SELECT plate FROM vehicles WHERE wanted = ${true}`, 1],
    ["no rows", () => Prisma.sql`SELECT id FROM vehicles WHERE id = ${-1}`, 0],
  ])("%s: the rows equal those read on Prisma's adapter", async (_name, query, count) => {
    const expected = await readOnAdapter<object>(query());
    expect(expected).toHaveLength(count);
    expect(await reads.read(query())).toEqual(expected);
    expect(await reads.read.first(query())).toEqual(expected[0]);
  });

  test("first() of a statement with more rows leaves no snapshot behind: the next read sees a later write", async () => {
    const count = async () => (await reads.read.first<{ n: number }>(Prisma.sql`SELECT COUNT(*) AS n FROM vehicles`))!.n;
    const before = await count();
    // Two rows match; first() steps once and must reset the statement all the same.
    expect(await reads.read.first(Prisma.sql`SELECT id FROM vehicles WHERE network_id = ${networkId} ORDER BY id`)).toBeDefined();
    await db.prisma.vehicle.create({ data: { networkId, plate: "RD-4", searchText: "rd-4", createdAt: at, updatedAt: at } });
    expect(await count()).toBe(before + 1);
  });

  test("a committed write is seen by the next read", async () => {
    const before = await reads.read<{ n: number }>(Prisma.sql`SELECT COUNT(*) AS n FROM vehicles`);
    await db.prisma.vehicle.create({ data: { networkId, plate: "RD-3", searchText: "rd-3", createdAt: at, updatedAt: at } });
    expect(await reads.read(Prisma.sql`SELECT COUNT(*) AS n FROM vehicles`)).toEqual([{ n: before[0].n + 1 }]);
  });

  test("the read connection refuses to write", async () => {
    await expect(reads.read(Prisma.sql`DELETE FROM vehicles`)).rejects.toThrow(/not a read/);
    // A write that answers rows gets as far as SQLite, which refuses it on this connection.
    await expect(reads.read(Prisma.sql`DELETE FROM vehicles RETURNING id`)).rejects.toThrow(/readonly|read-only|query_only/i);
    expect((await db.prisma.vehicle.count())).toBeGreaterThan(0);
  });

  test("the read connection keeps a page cache larger than SQLite's default (a new search term reads pages no request read before)", async () => {
    expect(readCacheKib).toBeGreaterThan(2000);
    expect(await reads.read(Prisma.sql`PRAGMA cache_size`)).toEqual([{ cache_size: -readCacheKib }]);
  });
});
