// Vehicle pages kept in memory with the network's vehicle_version (src/db/vehicles/keptPages.ts):
// a kept page is given back only at its version, the store stays bounded, and over HTTP every
// writer (REST, GraphQL, an operator's SQL, another service process on the same database) shows
// in the next page, also while pages are read during the writes.
import { cacheCounts } from "../src/config/cacheCounts";
import { openDatabase, type Database } from "../src/db/client";
import { KeptPages } from "../src/db/vehicles/keptPages";
import type { PageWindow } from "../src/db/vehicles/pageSql";
import type { VehicleAsRead } from "../src/model/vehicleFields";
import { createApp } from "../src/server/app";
import { listen } from "../src/server/httpServer";
import { startService, testProvider, type TestService } from "./support/service";
import { client, type Client } from "./support/http";

const firstPage: PageWindow = { order: null, limit: 15, offset: 0 };
const vehicles = (count: number, from = 1) => Array.from({ length: count }, (_, i) => ({ id: from + i }) as VehicleAsRead);
const counted = () => ({ ...cacheCounts.vehiclePages });

describe("KeptPages", () => {
  test("answers a page only at its own version, network, order and window, and counts hits and misses", () => {
    const pages = new KeptPages();
    const page = vehicles(3);
    const before = counted();
    pages.keep(1, firstPage, "7", page);
    expect(pages.answer(1, firstPage, "7")).toEqual(page);
    expect(pages.answer(1, firstPage, "8")).toBeUndefined();
    expect(pages.answer(1, firstPage, null)).toBeUndefined();
    expect(pages.answer(2, firstPage, "7")).toBeUndefined();
    expect(pages.answer(1, { ...firstPage, offset: 15 }, "7")).toBeUndefined();
    expect(pages.answer(1, { ...firstPage, limit: 16 }, "7")).toBeUndefined();
    expect(pages.answer(1, { ...firstPage, order: { field: "owner", direction: "asc" } }, "7")).toBeUndefined();
    pages.keep(1, { ...firstPage, order: { field: "owner", direction: "asc" } }, "7", vehicles(2));
    expect(pages.answer(1, { ...firstPage, order: { field: "owner", direction: "desc" } }, "7")).toBeUndefined();
    const after = counted();
    expect([after.hits - before.hits, after.misses - before.misses]).toEqual([1, 7]);
    // A page read later replaces the one kept for its window.
    pages.keep(1, firstPage, "8", vehicles(3, 10));
    expect(pages.answer(1, firstPage, "7")).toBeUndefined();
    expect(pages.answer(1, firstPage, "8")?.[0].id).toBe(10);
  });

  test("keeps its pages frozen, keeps no empty page, and tells which windows it holds", () => {
    const pages = new KeptPages();
    pages.keep(1, firstPage, "1", []);
    expect(pages.holds(1, firstPage)).toBe(false);
    pages.keep(1, firstPage, "1", vehicles(2));
    expect(pages.holds(1, firstPage)).toBe(true);
    expect(pages.holds(1, { ...firstPage, offset: 15 })).toBe(false);
    expect(Object.isFrozen(pages.answer(1, firstPage, "1"))).toBe(true);
  });

  test("holds at most its vehicles, dropping the least recently used pages first", () => {
    const pages = new KeptPages(10);
    const window = (page: number): PageWindow => ({ ...firstPage, limit: 4, offset: page * 4 });
    for (let page = 0; page < 2; page++) pages.keep(1, window(page), "1", vehicles(4));
    expect(pages.answer(1, window(0), "1")).toBeDefined(); // used: now the most recent
    pages.keep(1, window(2), "1", vehicles(4)); // 12 > 10: page 1 goes
    expect(pages.holds(1, window(1))).toBe(false);
    expect(pages.holds(1, window(0))).toBe(true);
    expect(pages.holds(1, window(2))).toBe(true);
    pages.keep(1, window(3), "1", vehicles(11)); // over the whole bound: not kept, nothing dropped
    expect(pages.holds(1, window(3))).toBe(false);
    expect(pages.holds(1, window(0))).toBe(true);
  });
});

describe("pages over HTTP", () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startService();
  });
  afterAll(() => service.close());

  const sql = (statement: string) => service.db.prisma.$executeRawUnsafe(statement);
  const page = async (api: Client, query = "") => {
    const response = await api.get(`/vehicles${query}`);
    expect(response.status).toBe(200);
    return response.body as { data: { id: number; plate: string; owner: string | null; wanted: boolean; comment: string | null }[]; meta: { total: number } };
  };
  /** A page asked twice: the second answer comes from memory (a hit) and is the first's. */
  const twice = async (api: Client, query = "") => {
    const first = await page(api, query);
    const hits = cacheCounts.vehiclePages.hits;
    expect(await page(api, query)).toEqual(first);
    expect(cacheCounts.vehiclePages.hits - hits).toBe(1);
    return first;
  };

  async function networkWithVehicles(count: number) {
    const network = await service.network();
    const api = client(service.url, network.apiKey);
    const ids: number[] = [];
    for (let i = 0; i < count; i++) {
      const created = await api.post("/vehicles", { plate: `KP-${i}`, owner: `Owner ${String.fromCharCode(90 - i)}` });
      expect(created.status).toBe(201);
      ids.push(created.body.data.id);
    }
    return { network, api, ids };
  }

  test("every writer shows in the next page: REST, GraphQL, and an operator's SQL of any column", async () => {
    const { network, api, ids } = await networkWithVehicles(3);
    expect((await twice(api)).data.map((vehicle) => vehicle.id)).toEqual(ids);
    expect((await twice(api, "?sort_field=owner")).data.map((vehicle) => vehicle.id)).toEqual([...ids].reverse());

    expect((await api.patch(`/vehicles/${ids[0]}`, { wanted: true })).status).toBe(200);
    expect((await twice(api)).data[0].wanted).toBe(true);
    expect((await twice(api, "?sort_field=owner")).data[2].wanted).toBe(true);

    const renamed = await api.graphql(`mutation ($id: ID!) { updateVehicle(id: $id, input: { owner: "Aaron First" }) { id } }`, { id: ids[1] });
    expect(renamed.body.errors).toBeUndefined();
    expect((await twice(api, "?sort_field=owner")).data[0].id).toBe(ids[1]);

    // Columns outside the search text, which the service's own updates never write alone.
    await sql(`UPDATE vehicles SET comment = 'set by hand', wanted = ${testProvider === "postgresql" ? "false" : "0"} WHERE id = ${ids[0]}`);
    const byHand = (await twice(api)).data[0];
    expect([byHand.comment, byHand.wanted]).toEqual(["set by hand", false]);

    await sql(`INSERT INTO vehicles (network_id, plate, owner, search_text, created_at, updated_at) VALUES (${network.id}, 'KP-SQL', 'Zz Last', 'kp-sql zz last', '2026-11-10 10:00:00', '2026-11-10 10:00:00')`);
    const inserted = await twice(api, "?sort_field=owner");
    expect([inserted.meta.total, inserted.data[3].plate]).toEqual([4, "KP-SQL"]);

    expect((await api.delete(`/vehicles/${ids[2]}`)).status).toBe(204);
    expect((await twice(api)).data.map((vehicle) => vehicle.id)).not.toContain(ids[2]);
    await sql(`DELETE FROM vehicles WHERE network_id = ${network.id}`);
    expect(await page(api)).toMatchObject({ data: [], meta: { total: 0 } });
  });

  test("a network id reused by an operator never gets the page kept for the network before it, at the same version number", async () => {
    const { network, api, ids } = await networkWithVehicles(2);
    expect((await twice(api)).data[0].comment).toBeNull();
    const [{ version }] = await service.db.prisma.$queryRawUnsafe<{ version: number | bigint }[]>(`SELECT vehicle_version AS version FROM networks WHERE id = ${network.id}`);
    // Another network in the same id, whose vehicles differ and whose version reached the same
    // number: its own creation instant tells it from the one the page was kept for.
    await sql(`UPDATE vehicles SET comment = 'another network' WHERE id = ${ids[0]}`);
    const later = testProvider === "postgresql" ? "2030-01-01 00:00:00" : "2030-01-01T00:00:00.000+00:00";
    await sql(`UPDATE networks SET vehicle_version = ${version}, created_at = '${later}' WHERE id = ${network.id}`);
    expect((await page(api)).data[0].comment).toBe("another network");
  });

  test("networks never share a page: the same window in another network answers its own vehicles", async () => {
    const one = await networkWithVehicles(2);
    const other = await networkWithVehicles(1);
    expect((await twice(one.api)).data.map((vehicle) => vehicle.id)).toEqual(one.ids);
    expect((await twice(other.api)).data.map((vehicle) => vehicle.id)).toEqual(other.ids);
  });

  test("a second service process on the database: each of its writes shows in the next page here, while pages are read throughout", async () => {
    const { network, api, ids } = await networkWithVehicles(2);
    const otherDb: Database = await openDatabase(service.databaseUrl);
    const otherServer = await listen(createApp({ db: otherDb }), 0, "127.0.0.1");
    try {
      const writer = client(otherServer.url, network.apiKey);
      await twice(api);
      let written = 0;
      let stop = false;
      // Readers in the background: a page read after a write finished never shows an older comment.
      const readers = Array.from({ length: 3 }, async () => {
        let reads = 0;
        while (!stop) {
          const before = written;
          const comment = (await page(api)).data[0].comment;
          expect(Number(comment ?? "0")).toBeGreaterThanOrEqual(before);
          reads += 1;
        }
        return reads;
      });
      try {
        for (let round = 1; round <= 20; round++) {
          expect((await writer.patch(`/vehicles/${ids[0]}`, { comment: String(round) })).status).toBe(200);
          written = round;
          expect((await page(api)).data[0].comment).toBe(String(round));
        }
      } finally {
        stop = true;
      }
      expect(Math.min(...(await Promise.all(readers)))).toBeGreaterThan(0);
    } finally {
      await otherServer.close();
      await otherDb.close();
    }
  });

  if (testProvider === "postgresql") {
    test("PostgreSQL: a TRUNCATE empties every network's kept pages and counts", async () => {
      const { api } = await networkWithVehicles(2);
      expect((await twice(api)).meta.total).toBe(2);
      await sql("TRUNCATE vehicles");
      expect(await page(api)).toMatchObject({ data: [], meta: { total: 0 } });
    });
  }
});
