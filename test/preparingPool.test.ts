// The hot reads on PostgreSQL run as named statements, planned once per connection, unless
// their best plan depends on a search term (src/db/postgres/preparingPool.ts); Prisma's own statements
// are never named.
import { PrismaPg } from "@prisma/adapter-pg";
import { Prisma } from "../src/generated/prisma/client";
import { adapterReads } from "../src/db/adapterReads";
import { defaultPoolSettings } from "../src/config/database";
import { openDatabase, type Database } from "../src/db/client";
import { migrate } from "../src/db/migrate";
import { PreparingPool, planIsStable } from "../src/db/postgres/preparingPool";
import { connectionPoolOf } from "../src/db/postgres/connect";
import { freshDatabase, testProvider, type FreshDatabase } from "./support/database";

describe("which statements keep their plan", () => {
  test("point reads, pages and kept counts do", () => {
    expect(planIsStable("SELECT n.id FROM api_keys k JOIN networks n ON n.id = k.network_id WHERE k.hash = $1")).toBe(true);
    expect(planIsStable("SELECT id FROM vehicles WHERE network_id = $1 ORDER BY id LIMIT $2 OFFSET $3")).toBe(true);
    expect(planIsStable("SELECT id FROM vehicles WHERE network_id = $1 AND strpos(search_text, $2) > 0 LIMIT $3")).toBe(true);
  });

  test("a LIKE search and the gathering of a term's matches are planned with their values", () => {
    expect(planIsStable("SELECT id FROM vehicles WHERE network_id = $1 AND search_text LIKE $2")).toBe(false);
    expect(planIsStable("WITH found AS MATERIALIZED (SELECT id FROM vehicles WHERE x like $1) SELECT * FROM found")).toBe(false);
  });
});

describe("the names a pool keeps", () => {
  test("a stable text keeps one name, its own; a LIKE search none", async () => {
    // A pool connects only when it runs a statement: none runs here.
    const pool = new PreparingPool({});
    const page = "SELECT id FROM vehicles WHERE network_id = $1 ORDER BY id LIMIT $2";
    const byId = "SELECT id FROM vehicles WHERE id = $1";
    const name = pool.keep(page);
    expect(name).toMatch(/^vrd_\d+$/);
    expect(pool.keep(page)).toBe(name);
    expect(pool.keep(byId)).not.toBe(name);
    expect(pool.keep("SELECT id FROM vehicles WHERE search_text LIKE $1")).toBeUndefined();
    await pool.end();
  });
});

const describePostgres = testProvider === "postgresql" ? describe : describe.skip;

describePostgres("named statements on a PostgreSQL connection", () => {
  let fresh: FreshDatabase;
  let db: Database;
  // One connection, so every statement below runs in the session whose statements are listed.
  const prepared = async () =>
    (await db.read<{ name: string; statement: string }>(Prisma.sql`SELECT name, statement FROM pg_prepared_statements`)).map(
      (row) => row.statement,
    );

  beforeAll(async () => {
    fresh = await freshDatabase("postgresql");
    await migrate(fresh.url);
    db = await openDatabase(fresh.url, { ...defaultPoolSettings, size: 1 });
    await db.prisma.network.create({ data: { name: "Named", identifierType: "steam", createdAt: new Date() } });
  });
  afterAll(async () => {
    await db.close();
    await fresh.drop();
  });

  test("a hot read is prepared once and answers as before; a LIKE search and Prisma's statements are not prepared", async () => {
    const byId = (id: number) => Prisma.sql`SELECT id, name FROM networks WHERE id > ${id} ORDER BY id`;
    const first = await db.read(byId(0));
    expect(first).toHaveLength(1);
    expect(await db.read(byId(0))).toEqual(first);
    expect(await db.read(byId(1_000_000))).toEqual([]);
    const like = Prisma.sql`SELECT id FROM networks WHERE name LIKE ${"%Nam%"}`;
    expect(await db.read(like)).toHaveLength(1);
    await db.prisma.network.findMany({ where: { name: "Named" } });

    const statements = await prepared();
    expect(statements.filter((text) => text === byId(0).text)).toHaveLength(1);
    expect(statements).not.toContain(like.text);
    expect(statements.some((text) => /"networks"/.test(text))).toBe(false);
  });
});

describePostgres("the hot reads on PostgreSQL", () => {
  let fresh: FreshDatabase;
  let db: Database;

  beforeAll(async () => {
    fresh = await freshDatabase("postgresql");
    db = await openDatabase(fresh.url, { ...defaultPoolSettings, size: 4 });
  });
  afterAll(async () => {
    await db.close();
    await fresh.drop();
  });

  // src/db/postgres/reads.ts reads on pg with its own query and result objects; the callers
  // convert values as Prisma's adapter gives them, so both paths must answer the same.
  test("named and unnamed statements answer what Prisma's adapter answers, type by type, rows in order", async () => {
    const adapter = await new PrismaPg({ connectionString: fresh.url }).connect();
    try {
      const viaAdapter = adapterReads("postgresql", async () => adapter);
      const values = (since: Date) => Prisma.sql`
        SELECT n, n::bigint * 10000000000 AS big, n / 3.0 AS ratio, n % 2 = 0 AS even, 'plate ' || n AS text,
               ${since}::timestamp(3) + n * interval '1 day' AS at, (${since}::timestamp(3) + n * interval '1 day') AT TIME ZONE 'UTC' AS at_zone,
               DATE '2026-11-25' + n AS day, json_build_object('n', n) AS doc, NULLIF(n, 2) AS maybe
        FROM generate_series(1, 3) AS n ORDER BY n`;
      const since = new Date("2026-11-21T22:32:09.003Z");
      const named = values(since);
      const unnamed = Prisma.sql`${named} -- LIKE`;
      expect(named.text).not.toMatch(/LIKE/);
      const expected = await viaAdapter(named);
      expect(expected).toHaveLength(3);
      expect(expected[1]).toMatchObject({ n: 2, big: "20000000000", even: true, text: "plate 2", at: "2026-11-23T22:32:09.003+00:00", maybe: null });
      for (const query of [named, named, unnamed, unnamed]) expect(await db.read(query)).toEqual(expected);
      expect(await db.read.first(named)).toEqual(expected[0]);
      expect(await db.read(Prisma.sql`${named} LIMIT 0`)).toEqual([]);
      await expect(db.read(Prisma.sql`SELECT 1 / ${0}::int AS broken`)).rejects.toMatchObject({ code: "22012" });
    } finally {
      await adapter.dispose();
    }
  });

  // src/db/postgres/pipelinedConnection.ts: concurrent reads by key share one pipelined connection.
  test("share one connection while in flight together, each answered with its own row; a failing read fails alone", async () => {
    const reads = Array.from({ length: 60 }, (_, n) =>
      n === 30
        ? db.read.byKey(Prisma.sql`SELECT 1 / ${0}::int AS n, pg_backend_pid() AS pid`)
        : db.read.byKey<{ n: number; pid: number }>(Prisma.sql`SELECT ${n}::int AS n, pg_backend_pid() AS pid`),
    );
    const settled = await Promise.allSettled(reads);
    expect(settled[30]).toMatchObject({ status: "rejected", reason: { code: "22012" } });
    const answered = settled.filter((_, n) => n !== 30).map((result) => (result as PromiseFulfilledResult<{ n: number; pid: number }>).value);
    expect(answered.map((row) => row.n)).toEqual(Array.from({ length: 60 }, (_, n) => n).filter((n) => n !== 30));
    expect(new Set(answered.map((row) => row.pid)).size).toBe(1);
    // The pool's reads are other connections.
    const pooled = await Promise.all(Array.from({ length: 8 }, () => db.read<{ pid: number }>(Prisma.sql`SELECT pg_backend_pid() AS pid, pg_sleep(0.05)`)));
    expect(pooled.map((rows) => rows[0].pid)).not.toContain(answered[0].pid);
  });
});

describePostgres("the plans of pages on PostgreSQL", () => {
  let fresh: FreshDatabase;
  let db: Database;
  let pool: PreparingPool;

  beforeAll(async () => {
    fresh = await freshDatabase("postgresql");
    await migrate(fresh.url);
    // One connection, so every statement below runs in the session whose counts are read.
    db = await openDatabase(fresh.url, { ...defaultPoolSettings, size: 1 });
    pool = connectionPoolOf(db.prisma)!;
    const network = await db.prisma.network.create({ data: { name: "Plans", identifierType: "steam", createdAt: new Date() } });
    // Enough rows that a generic plan priced for a tenth of them costs more than a page's. Their
    // indexes' upkeep can outlast the service's statement timeout on a busy machine: this set-up
    // runs without it (SET LOCAL: for its own transaction only).
    await db.prisma.$transaction(
      async (tx) => {
        await tx.$executeRawUnsafe("SET LOCAL statement_timeout = 0");
        await tx.$executeRaw`INSERT INTO vehicles (network_id, plate, search_text, created_at, updated_at)
          SELECT ${network.id}, 'P-' || i, 'p-' || i, now(), now() FROM generate_series(0, 19999) AS i`;
      },
      { timeout: 50_000 },
    );
    await db.prisma.$executeRawUnsafe("ANALYZE vehicles");
  });
  afterAll(async () => {
    await db.close();
    await fresh.drop();
  });

  const page = (offset: number) => Prisma.sql`SELECT id, plate FROM vehicles WHERE network_id > ${0} ORDER BY id LIMIT ${5} OFFSET ${offset}`;
  /** Not a page: the same statement read as any other named statement. */
  const other = (offset: number) => Prisma.sql`SELECT id, plate FROM vehicles WHERE network_id > ${0} ORDER BY id DESC LIMIT ${5} OFFSET ${offset}`;
  const plans = async (text: string) => {
    const rows = await db.prisma.$queryRawUnsafe<{ generic_plans: bigint; custom_plans: bigint }[]>(
      "SELECT generic_plans, custom_plans FROM pg_prepared_statements WHERE statement = $1",
      text,
    );
    return rows.map((row) => ({ generic: Number(row.generic_plans), custom: Number(row.custom_plans) }));
  };
  const planMode = async () => (await db.prisma.$queryRawUnsafe<{ plan_cache_mode: string }[]>("SHOW plan_cache_mode"))[0].plan_cache_mode;

  test("a named page keeps its generic plan; PostgreSQL left to itself plans any other named read again at every run", async () => {
    expect(pool).toBeInstanceOf(PreparingPool);
    for (let offset = 0; offset < 12; offset++) {
      const rows = await db.read.page(page(offset));
      expect(rows.rows.map((row) => row[rows.columns.indexOf("plate")])).toEqual([0, 1, 2, 3, 4].map((i) => `P-${offset + i}`));
      const others = await db.read<{ plate: string }>(other(offset));
      expect(others.map((row) => row.plate)).toEqual([19999, 19998, 19997, 19996, 19995].map((i) => `P-${i - offset}`));
    }
    expect(await plans(page(0).text)).toEqual([{ generic: 12, custom: 0 }]);
    expect(await plans(other(0).text)).toEqual([{ generic: 0, custom: 12 }]);
  });

  test("Prisma's statements, transactions and searches get the connection as configured", async () => {
    await db.read.page(page(0));
    expect(await planMode()).toBe("auto");
    await db.read.page(page(0));
    expect(await db.prisma.$transaction(async (tx) => (await tx.$queryRawUnsafe<{ plan_cache_mode: string }[]>("SHOW plan_cache_mode"))[0].plan_cache_mode)).toBe(
      "auto",
    );
    await db.read.page(page(0));
    const like = Prisma.sql`SELECT current_setting('plan_cache_mode') AS mode FROM vehicles WHERE plate LIKE ${"P-1%"} LIMIT 1`;
    expect(await db.read<{ mode: string }>(like)).toEqual([{ mode: "auto" }]);
    // A page that is not named (a LIKE search's) is planned for its values too.
    expect(await db.read.page(like)).toEqual({ columns: ["mode"], rows: [["auto"]] });
    expect((await plans(page(0).text))[0].custom).toBe(0);
  });

  test("a page that fails fails alone; the next one runs", async () => {
    await expect(db.read.page(Prisma.sql`SELECT 1 / ${0}::int AS broken`)).rejects.toMatchObject({ code: "22012" });
    expect((await db.read.page(page(3))).rows).toHaveLength(5);
  });
});
