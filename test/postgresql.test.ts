// PostgreSQL in production: trigram search, several service processes on one database,
// pool settings, and a database outage survived without a restart.
import { Client } from "pg";
import { PrismaPg } from "@prisma/adapter-pg";
import { openDatabase, overPaths } from "../src/db/client";
import { adapterReads, type QueryableAdapter } from "../src/db/adapterReads";
import { migrate } from "../src/db/migrate";
import { listVehicles } from "../src/resolvers/vehicles";
import { freshDatabase, testProvider, withDatabase, type FreshDatabase } from "./support/database";
import { client } from "./support/http";
import { runAdmin, startServiceProcess, type ServiceProcess } from "./support/process";
import { createPostgresCluster, type PostgresCluster } from "./support/postgresCluster";
import { startService, type TestService } from "./support/service";
import { operatorKey } from "../src/context";

const describePostgres = testProvider === "postgresql" ? describe : describe.skip;

async function withPg<T>(url: string, work: (pg: Client) => Promise<T>): Promise<T> {
  const pg = new Client({ connectionString: url });
  await pg.connect();
  try {
    return await work(pg);
  } finally {
    await pg.end();
  }
}

describePostgres("search on PostgreSQL", () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startService();
  });
  afterAll(() => service.close());

  // A large network, where a scan of the network's rows costs more than the trigram index (with
  // a few thousand rows PostgreSQL rightly prefers the scan).
  test("the planner answers a rare search from the network's trigram keys, counted or kept; totals and pages are exact", async () => {
    const big = await service.network();
    const other = await service.network();
    await withPg(service.databaseUrl, async (pg) => {
      // Bulk load without the per-row count trigger; the count is set once afterwards.
      await pg.query("ALTER TABLE vehicles DISABLE TRIGGER vehicles_count");
      for (const [network, rows] of [[big, 60_000], [other, 5_000]] as const) {
        await pg.query(
          `INSERT INTO vehicles (network_id, plate, owner, search_text, wanted, synced, created_at, updated_at)
           SELECT $1, 'P-' || g, 'Owner ' || g, 'p-' || g || chr(31) || chr(31) || chr(31) || 'owner ' || g || chr(31) || chr(31), false, false, now(), now()
           FROM generate_series(1, $2::int) g`,
          [network.id, rows],
        );
      }
      await pg.query("ALTER TABLE vehicles ENABLE TRIGGER vehicles_count");
      await pg.query(
        "UPDATE networks SET vehicle_count = (SELECT COUNT(*) FROM vehicles WHERE vehicles.network_id = networks.id)",
      );
      await pg.query("ANALYZE vehicles");
    });

    // Record the SQL the service really sends for a search, then ask the planner about it.
    const adapter = await new PrismaPg({ connectionString: service.databaseUrl }).connect();
    const queries: { query: string; params: unknown[] }[] = [];
    const recording: Pick<QueryableAdapter, "queryRaw"> = {
      queryRaw(query) {
        queries.push({ query: query.sql, params: query.args });
        return adapter.queryRaw(query as Parameters<typeof adapter.queryRaw>[0]);
      },
    };
    const ctx = { db: overPaths(service.db, { read: adapterReads("postgresql", async () => recording) }), network: big, key: operatorKey, now: () => new Date() };
    // A rare term: first a page with its total in one pass, then (total kept) the page alone.
    const first = await listVehicles(ctx, { search: "owner 12345" });
    const again = await listVehicles(ctx, { search: "owner 12345" });
    // A common term (owner 1, 10-19, 100-199, ...: 11,111 of 60,000), counted, then kept.
    const common = [await listVehicles(ctx, { search: "owner 1" }), await listVehicles(ctx, { search: "owner 1" })];
    await adapter.dispose();
    for (const page of [first, again]) {
      expect(page.meta.total).toBe(1);
      expect(page.data.map((vehicle) => vehicle.plate)).toEqual(["P-12345"]);
    }
    for (const page of common) {
      expect(page.meta.total).toBe(11_111);
      expect(page.data.map((vehicle) => vehicle.plate)).toEqual(
        ["1", "10", "11", "12", "13", "14", "15", "16", "17", "18", "19", "100", "101", "102", "103"].map((n) => `P-${n}`),
      );
    }

    const searches = queries.filter((entry) => /LIKE|strpos/.test(entry.query));
    expect(searches).toHaveLength(4);
    const plans = await withPg(service.databaseUrl, (pg) =>
      Promise.all(
        searches.map(async ({ query, params }) => {
          const result = await pg.query(`EXPLAIN (FORMAT JSON) ${query}`, params);
          return JSON.stringify(result.rows[0]["QUERY PLAN"]);
        }),
      ),
    );
    // The rare term's page with its window count, and its page alone, both from the network's
    // trigram keys (src/db/postgres/searchPlan.ts gathers its matches), never intersected
    // with the network's entry of the network-wide trigram index; the common term, once its
    // total is kept, read in order without either (a page fills within ~80 rows).
    for (const plan of plans.slice(0, 2)) {
      expect(plan).toContain("vehicles_search_keys_idx");
      expect(plan).not.toContain("vehicles_search_trgm_idx");
    }
    expect(searches[3].query).toContain("strpos");
    expect(plans[3]).not.toMatch(/vehicles_search_(trgm|keys)_idx/);
    console.log("EXPLAIN of the searches:\n" + plans.join("\n"));
  }, 180_000);
});

describePostgres("two service processes on one database", () => {
  let database: FreshDatabase;
  let processes: ServiceProcess[];
  beforeAll(async () => {
    database = await freshDatabase();
    // Both start at once: the migration lock lets one migrate while the other waits.
    processes = await Promise.all([1, 2].map(() => startServiceProcess({ DATABASE_URL: database.url })));
  });
  afterAll(async () => {
    await Promise.all(processes.map((service) => service.stop()));
    await database.drop();
  });

  test("both started; the migrations were applied once", async () => {
    const applied = await withPg(database.url, (pg) => pg.query(`SELECT migration_name FROM "_prisma_migrations"`));
    expect(applied.rowCount).toBeGreaterThan(0);
    expect(new Set(applied.rows.map((row) => row.migration_name)).size).toBe(applied.rowCount);
    for (const service of processes) expect((await fetch(`${service.url}/readyz`)).status).toBe(200);
  });

  test("concurrent toggles and stops spread over both never open two entries and never fail", async () => {
    const env = { DATABASE_URL: database.url };
    const created = runAdmin(["network", "create", "--name", "Shared", "--identifier-type", "steam"], env);
    expect(created.status).toBe(0);
    const { network, apiKey } = JSON.parse(created.stdout);
    expect(runAdmin(["officer", "add", "--network", String(network.id), "--identifier", "steam:42", "--name", "Alex"], env).status).toBe(0);

    const apis = processes.map((service) => client(service.url, apiKey));
    const calls = Array.from({ length: 30 }, (_, i) =>
      apis[i % 2].post(`/dutytime/steam%3A42/${i % 3 === 2 ? "stop" : "toggle"}`),
    );
    const responses = await Promise.all(calls);
    expect(responses.map((response) => response.status)).toEqual(responses.map(() => 200));
    const open = await withPg(database.url, (pg) =>
      pg.query(`SELECT count(*)::int AS open FROM dutytime_entries WHERE ended_at IS NULL`),
    );
    expect(open.rows[0].open).toBeLessThanOrEqual(1);

    const stops = await Promise.all(Array.from({ length: 10 }, (_, i) => apis[i % 2].post("/dutytime/steam%3A42/stop")));
    expect(stops.map((response) => response.status)).toEqual(stops.map(() => 200));
    expect(stops.every((response) => response.body.data.onDuty === false)).toBe(true);
    const after = await withPg(database.url, (pg) =>
      pg.query(`SELECT count(*)::int AS open FROM dutytime_entries WHERE ended_at IS NULL`),
    );
    expect(after.rows[0].open).toBe(0);
  });

  test("a regenerated key is refused by both processes at once", async () => {
    const env = { DATABASE_URL: database.url };
    const { network, apiKey: oldKey } = JSON.parse(
      runAdmin(["network", "create", "--name", "Rolling", "--identifier-type", "steam"], env).stdout,
    );
    for (const service of processes) expect((await client(service.url, oldKey).get("/vehicles")).status).toBe(200);
    const regenerated = runAdmin(["network", "regenerate-key", "--network", String(network.id)], env);
    expect(regenerated.status).toBe(0);
    const { apiKey: newKey } = JSON.parse(regenerated.stdout);
    for (const service of processes) {
      expect((await client(service.url, oldKey).get("/vehicles")).status).toBe(401);
      expect((await client(service.url, newKey).get("/vehicles")).status).toBe(200);
    }
  });
});

describePostgres("pool settings", () => {
  let database: FreshDatabase;
  beforeAll(async () => {
    database = await freshDatabase();
    await migrate(database.url);
  });
  afterAll(() => database.drop());

  test("the pool never opens more connections than configured, and the statement timeout applies", async () => {
    const db = await openDatabase(database.url, { size: 2, statementTimeoutMs: 700, connectTimeoutMs: 5000 });
    try {
      const timeout = await db.prisma.$queryRawUnsafe<{ statement_timeout: string }[]>("SHOW statement_timeout");
      expect(timeout[0].statement_timeout).toBe("700ms");

      const name = new URL(database.url).pathname.slice(1);
      let peak = 0;
      const sleepers = Promise.all(Array.from({ length: 6 }, () => db.prisma.$queryRawUnsafe("SELECT 1 AS slept FROM pg_sleep(0.3)")));
      await withPg(withDatabase(database.url, "postgres"), async (pg) => {
        for (let i = 0; i < 8; i++) {
          const { rows } = await pg.query(
            "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND backend_type = 'client backend'",
            [name],
          );
          peak = Math.max(peak, rows[0].n);
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      });
      await sleepers;
      expect(peak).toBeGreaterThan(0);
      expect(peak).toBeLessThanOrEqual(2);

      await expect(db.prisma.$queryRawUnsafe("SELECT 1 AS slept FROM pg_sleep(2)")).rejects.toThrow(/statement timeout/);
    } finally {
      await db.close();
    }
  });
});

describePostgres("a database outage", () => {
  let cluster: PostgresCluster;
  let service: ServiceProcess;
  let apiKey: string;
  beforeAll(async () => {
    cluster = await createPostgresCluster();
    const env = { DATABASE_URL: cluster.url, DATABASE_CONNECT_TIMEOUT_MS: "1500" };
    service = await startServiceProcess(env);
    apiKey = JSON.parse(runAdmin(["network", "create", "--name", "Outage", "--identifier-type", "steam"], env).stdout).apiKey;
  });
  afterAll(async () => {
    await service?.stop();
    cluster?.destroy();
  });

  test("answers 503 while the database is down, recovers without a restart, and loses no acknowledged write", async () => {
    const api = client(service.url, apiKey);
    const acknowledged: number[] = [];
    for (let i = 0; i < 10; i++) {
      const created = await api.post("/vehicles", { plate: `OUT-${i}` });
      expect(created.status).toBe(201);
      acknowledged.push(created.body.data.id);
    }
    // Reads by key run on a connection of their own (src/db/postgres/pipelinedConnection.ts), open by now.
    const byId = `/vehicles/${acknowledged[0]}`;
    expect((await api.get(byId)).status).toBe(200);

    cluster.stop();
    const ready = await api.get("/readyz");
    expect(ready.status).toBe(503);
    expect(ready.body).toEqual({ message: expect.any(String) });
    for (const attempt of [api.get("/vehicles"), api.post("/vehicles", { plate: "LOST" }), api.get("/statistics/missions/total"), api.get(byId)]) {
      const response = await attempt;
      expect(response.status).toBe(503);
      expect(response.headers.get("content-type")).toMatch(/application\/json/);
      expect(Object.keys(response.body)).toEqual(["message"]);
    }
    const graphql = await api.graphql("{ missionsTotal { count } }");
    expect(graphql.status).toBe(503);
    expect(graphql.body.errors[0].extensions.code).toBe("UNAVAILABLE");

    cluster.start();
    let status = 0;
    for (let attempt = 0; attempt < 40 && status !== 200; attempt++) {
      status = (await api.get("/readyz")).status;
      if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(status).toBe(200);
    const list = await api.get("/vehicles?per_page=100");
    expect(list.status).toBe(200);
    expect(list.body.data.map((vehicle: { id: number }) => vehicle.id)).toEqual(acknowledged);
    const again = await api.get(byId);
    expect(again.status).toBe(200);
    expect(again.body.data.plate).toBe("OUT-0");
    expect((await api.post("/vehicles", { plate: "AFTER" })).status).toBe(201);
  });
});
