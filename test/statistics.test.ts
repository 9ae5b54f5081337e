// SPEC 4.2 rules 1-5 for the four count endpoints, over REST and GraphQL, with records written
// through the GraphQL mutations and a fixed clock.
import fs from "node:fs";
import path from "node:path";
import { startService, testProvider, type TestNetwork, type TestService } from "./support/service";
import { columnsOf, dropCreatedAt as dropCreatedAtOf } from "./support/database";
import { client, type Client } from "./support/http";
import { filesLastSevenDays, filesTotal, missionsTotal } from "../src/resolvers/statistics";
import { countingReads } from "./support/countingReads";
import { overPaths } from "../src/db/client";
import { operatorKey, type Context } from "../src/context";

const NOW = "2026-11-21T22:10:00.000Z";
const nowMs = Date.parse(NOW);
const day = 24 * 60 * 60 * 1000;
const at = (offsetMs: number) => new Date(nowMs + offsetMs).toISOString();
const SEVEN_DAYS_AGO = at(-7 * day); // exactly the boundary: counts
const JUST_BEFORE = at(-7 * day - 1); // 1 ms before the boundary: does not count

const paths = {
  missionsLast7: "/statistics/missions/last-7-days",
  missionsTotal: "/statistics/missions/total",
  filesLast7: "/statistics/files/last-7-days",
  filesTotal: "/statistics/files/total",
} as const;

type Kind = "mission" | "patient" | "offender";
const mutations: Record<Kind, { field: string; input: string; name: string }> = {
  mission: { field: "createMissionReport", input: "CreateMissionReportInput", name: "title" },
  patient: { field: "createPatientFile", input: "CreatePatientFileInput", name: "patientName" },
  offender: { field: "createOffenderFile", input: "CreateOffenderFileInput", name: "offenderName" },
};

/**
 * Creates a record through its GraphQL mutation. `createdAt`: an ISO string, null (unknown), or
 * "omit" (the field is left out: the creation time is the clock's now).
 */
async function create(api: Client, kind: Kind, createdAt: string | null | "omit") {
  const { field, input, name } = mutations[kind];
  const value: Record<string, unknown> = { [name]: `${kind} record` };
  if (createdAt !== "omit") value.createdAt = createdAt;
  const response = await api.graphql(`mutation ($input: ${input}!) { ${field}(input: $input) { id createdAt } }`, { input: value });
  expect(response.status).toBe(200);
  expect(response.body.errors).toBeUndefined();
  const record = response.body.data[field];
  expect(record).toEqual({ id: expect.any(Number), createdAt: createdAt === "omit" ? NOW : createdAt });
  return record as { id: number; createdAt: string | null };
}

async function restCounts(api: Client) {
  const entries = await Promise.all(
    Object.entries(paths).map(async ([name, path]) => {
      const response = await api.get(path);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toMatch(/^application\/json/);
      return [name, response.body] as const;
    }),
  );
  return Object.fromEntries(entries);
}

const countsQuery = `{
  missionsLastSevenDays { count timestampAvailable }
  missionsTotal { count timestampAvailable }
  filesLastSevenDays { count timestampAvailable }
  filesTotal { count timestampAvailable }
}`;

async function graphqlCounts(api: Client) {
  const response = await api.graphql(countsQuery);
  expect(response.status).toBe(200);
  expect(response.body.errors).toBeUndefined();
  const data = response.body.data;
  return {
    missionsLast7: data.missionsLastSevenDays,
    missionsTotal: data.missionsTotal,
    filesLast7: data.filesLastSevenDays,
    filesTotal: data.filesTotal,
  };
}

const available = (count: number) => ({ count, timestampAvailable: true });
const unavailable = { count: null, timestampAvailable: false };

/** Both REST and GraphQL answer exactly these four counts. */
async function expectCounts(api: Client, expected: Record<keyof typeof paths, unknown>) {
  expect(await restCounts(api)).toEqual(expected);
  expect(await graphqlCounts(api)).toEqual(expected);
}

describe("count endpoints (SPEC 4.2 rules 1-3, 5)", () => {
  let service: TestService;
  let api: Client;
  let otherApi: Client;
  let emptyApi: Client;
  let networkA: TestNetwork;

  beforeAll(async () => {
    service = await startService();
    service.clock.set(NOW);
    networkA = await service.network();
    api = client(service.url, networkA.apiKey);
    otherApi = client(service.url, (await service.network()).apiKey);
    emptyApi = client(service.url, (await service.network()).apiKey);

    // Network A, mission reports: 3 within seven days, 6 in total.
    await create(api, "mission", SEVEN_DAYS_AGO); // boundary: counts
    await create(api, "mission", JUST_BEFORE); // 1 ms too old
    await create(api, "mission", at(3 * 60 * 60 * 1000)); // in the future: counts
    await create(api, "mission", "omit"); // now: counts
    await create(api, "mission", null); // unknown: total only
    await create(api, "mission", at(-30 * day)); // old: total only

    // Network A, files: patient 2 of 3 and offender 2 of 5 within seven days.
    await create(api, "patient", SEVEN_DAYS_AGO);
    await create(api, "patient", at(-1 * day));
    await create(api, "patient", null);
    await create(api, "offender", JUST_BEFORE);
    await create(api, "offender", at(2 * day));
    await create(api, "offender", "omit");
    await create(api, "offender", null);
    await create(api, "offender", null);

    // Network B: its own records, some of each kind, never counted for A.
    await create(otherApi, "mission", "omit");
    await create(otherApi, "mission", null);
    await create(otherApi, "patient", at(-2 * day));
    await create(otherApi, "offender", at(-10 * day));
    await create(otherApi, "offender", "omit");
  });
  afterAll(() => service.close());
  beforeEach(() => service.clock.set(NOW));

  test("each endpoint answers exactly {count, timestampAvailable}", async () => {
    for (const path of Object.values(paths)) {
      const response = await api.get(path);
      expect(response.status).toBe(200);
      expect(Object.keys(response.body).sort()).toEqual(["count", "timestampAvailable"]);
      expect(Number.isInteger(response.body.count)).toBe(true);
      expect(response.body.timestampAvailable).toBe(true);
    }
  });

  test("the key's network: boundary counts, 1 ms older does not, future counts, unknown only in totals", async () => {
    await expectCounts(api, {
      missionsLast7: available(3),
      missionsTotal: available(6),
      filesLast7: available(4),
      filesTotal: available(8),
    });
  });

  test("both files' tables are counted in one statement: one per endpoint, as for the missions", async () => {
    const { read: counted, statements } = countingReads(service.db.read);
    const ctx: Context = { db: overPaths(service.db, { read: counted }), network: networkA, key: operatorKey, now: () => new Date(NOW) };
    const statementsOf = async (count: (ctx: Context) => Promise<unknown>) => {
      statements.length = 0;
      return { result: await count(ctx), statements: statements.length };
    };
    expect(await statementsOf(filesTotal)).toEqual({ result: available(8), statements: 1 });
    expect(await statementsOf(filesLastSevenDays)).toEqual({ result: available(4), statements: 1 });
    expect(await statementsOf(missionsTotal)).toEqual({ result: available(6), statements: 1 });
  });

  test("another network counts only its own records", async () => {
    await expectCounts(otherApi, {
      missionsLast7: available(1),
      missionsTotal: available(2),
      filesLast7: available(2),
      filesTotal: available(3),
    });
  });

  test("a network without records: zero, with timestampAvailable true (not null)", async () => {
    await expectCounts(emptyApi, {
      missionsLast7: available(0),
      missionsTotal: available(0),
      filesLast7: available(0),
      filesTotal: available(0),
    });
  });

  test("the window is measured from the request's instant: 1 ms later the boundary records drop out", async () => {
    service.clock.set(at(1));
    await expectCounts(api, {
      missionsLast7: available(2),
      missionsTotal: available(6),
      filesLast7: available(3),
      filesTotal: available(8),
    });
  });

  test("1 ms earlier the record 1 ms before the boundary is within the window", async () => {
    service.clock.set(at(-1));
    await expectCounts(api, {
      missionsLast7: available(4),
      missionsTotal: available(6),
      filesLast7: available(5),
      filesTotal: available(8),
    });
  });

  test("much later only the future records remain within seven days; totals are unchanged", async () => {
    service.clock.set(at(8 * day));
    // missions: the one 3 h after NOW is older than 7 days at NOW+8d; files: offender at NOW+2d counts.
    await expectCounts(api, {
      missionsLast7: available(0),
      missionsTotal: available(6),
      filesLast7: available(1),
      filesTotal: available(8),
    });
  });

  test("the counts require a key", async () => {
    const anonymous = client(service.url);
    for (const path of Object.values(paths)) {
      const response = await anonymous.get(path);
      expect({ status: response.status, body: response.body }).toEqual({ status: 401, body: { message: "Unauthenticated." } });
    }
  });
});

describe("rule 4: creation times that cannot be evaluated (destructive, own database)", () => {
  let service: TestService;
  afterEach(() => service.close());

  async function seed() {
    service = await startService();
    service.clock.set(NOW);
    const api = client(service.url, (await service.network()).apiKey);
    const otherApi = client(service.url, (await service.network()).apiKey);
    await create(api, "mission", "omit");
    await create(api, "mission", JUST_BEFORE);
    await create(api, "mission", null);
    await create(api, "patient", "omit");
    await create(api, "patient", null);
    await create(api, "offender", SEVEN_DAYS_AGO);
    await create(api, "offender", JUST_BEFORE);
    await create(api, "offender", null);
    await create(otherApi, "mission", "omit");
    await create(otherApi, "offender", "omit");
    await expectCounts(api, {
      missionsLast7: available(1),
      missionsTotal: available(3),
      filesLast7: available(2),
      filesTotal: available(5),
    });
    return api;
  }

  async function dropCreatedAt(table: string) {
    await dropCreatedAtOf(service.db, table);
    const columns = await columnsOf(service.db.prisma, table);
    expect(columns).toContain("network_id");
    expect(columns).not.toContain("created_at");
  }

  test("mission_reports without created_at: missions/last-7-days is null/false (200), missions/total and files unaffected", async () => {
    const api = await seed();
    await dropCreatedAt("mission_reports");
    const response = await api.get(paths.missionsLast7);
    expect({ status: response.status, body: response.body }).toEqual({ status: 200, body: unavailable });
    await expectCounts(api, {
      missionsLast7: unavailable,
      missionsTotal: available(3),
      filesLast7: available(2),
      filesTotal: available(5),
    });
  });

  test("only offender_files without created_at: files/last-7-days is null/false (200), files/total counts both tables, missions unaffected", async () => {
    const api = await seed();
    await dropCreatedAt("offender_files");
    const response = await api.get(paths.filesLast7);
    expect({ status: response.status, body: response.body }).toEqual({ status: 200, body: unavailable });
    await expectCounts(api, {
      missionsLast7: available(1),
      missionsTotal: available(3),
      filesLast7: unavailable,
      filesTotal: available(5),
    });
  });
});

describe("totals kept by the database (migration *_network_record_counts)", () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startService();
    service.clock.set(NOW);
  });
  afterAll(() => service.close());

  const totals = async (api: Client) => {
    const counts = await restCounts(api);
    return { missions: counts.missionsTotal, files: counts.filesTotal };
  };

  test("records any writer inserts or deletes are counted, in their network only", async () => {
    const network = await service.network();
    const other = await service.network();
    const api = client(service.url, network.apiKey);
    await create(api, "mission", "omit");
    await create(api, "patient", null);
    // Another tool writing to the database directly, several rows in one statement.
    const sql = (statement: string) => service.db.prisma.$executeRawUnsafe(statement);
    await sql(`INSERT INTO mission_reports (network_id, title) VALUES (${network.id}, 'a'), (${network.id}, 'b'), (${other.id}, 'c')`);
    await sql(`INSERT INTO offender_files (network_id, offender_name) VALUES (${network.id}, 'x'), (${network.id}, 'y')`);
    expect(await totals(api)).toEqual({ missions: available(3), files: available(3) });
    await sql(`DELETE FROM mission_reports WHERE network_id = ${network.id} AND title = 'a'`);
    await sql(`DELETE FROM offender_files WHERE network_id = ${network.id}`);
    expect(await totals(api)).toEqual({ missions: available(2), files: available(1) });
    expect(await totals(client(service.url, other.apiKey))).toEqual({ missions: available(1), files: available(0) });
  });

  test("the migration's backfill gives every network the number of records it already has", async () => {
    const network = await service.network();
    const api = client(service.url, network.apiKey);
    for (const kind of ["mission", "mission", "patient", "offender", "offender"] as const) await create(api, kind, "omit");
    await service.db.prisma.$executeRawUnsafe(
      "UPDATE networks SET mission_report_count = 0, patient_file_count = 0, offender_file_count = 0",
    );
    expect(await totals(api)).toEqual({ missions: available(0), files: available(0) });
    const dir = path.join("prisma", testProvider, "migrations");
    const migration = fs.readdirSync(dir).find((name) => name.endsWith("_network_record_counts"))!;
    const backfills = fs
      .readFileSync(path.join(dir, migration, "migration.sql"), "utf8")
      .split(";")
      .map((statement) => statement.replace(/^\s*--.*$/gm, "").trim())
      .filter((statement) => statement.startsWith("UPDATE"));
    expect(backfills).toHaveLength(3);
    for (const statement of backfills) await service.db.prisma.$executeRawUnsafe(statement);
    expect(await totals(api)).toEqual({ missions: available(2), files: available(3) });
  });
});

describe("last 7 days from hour counts kept by the database (migration *_record_hour_counts)", () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startService();
  });
  afterAll(() => service.close());

  const sql = (statement: string) => service.db.prisma.$executeRawUnsafe(statement);
  /** An instant as a literal in the form each database stores it. */
  const stored = (ms: number) => {
    const iso = new Date(ms).toISOString();
    return `'${service.db.provider === "sqlite" ? iso.replace("Z", "+00:00") : iso.replace("T", " ").replace("Z", "")}'`;
  };
  const hour = 60 * 60 * 1000;
  const base = Date.parse("2026-03-10T00:00:00.000Z");

  /** What the hour counts hold, and what they should hold: the records grouped by hour. */
  async function keptAndRecounted(table: string) {
    const kept = await service.db.prisma.$queryRawUnsafe<{ network_id: number; hour: unknown; count: number }[]>(
      `SELECT network_id, hour, count FROM record_hour_counts WHERE table_name = '${table}' AND count <> 0 ORDER BY 1, 2`,
    );
    const truncated = service.db.provider === "sqlite" ? `strftime('%Y-%m-%dT%H:00:00.000+00:00', created_at)` : `date_trunc('hour', created_at)`;
    const recounted = await service.db.prisma.$queryRawUnsafe<{ network_id: number; hour: unknown; count: number }[]>(
      `SELECT network_id, ${truncated} AS hour, COUNT(*) AS count FROM ${table} WHERE created_at IS NOT NULL GROUP BY 1, 2 ORDER BY 1, 2`,
    );
    const plain = (rows: { network_id: number; hour: unknown; count: number }[]) =>
      rows.map((row) => `${row.network_id} ${new Date(row.hour as string).toISOString()} ${Number(row.count)}`);
    return { kept: plain(kept), recounted: plain(recounted) };
  }

  test("any writer's inserts, deletes and changes keep them exact, and last-7-days equals a count of the records at any instant", async () => {
    const network = await service.network();
    const other = await service.network();
    const api = client(service.url, network.apiKey);
    // Nine days of records at awkward minutes: on the hour, a millisecond either side, mid-hour;
    // some in the future, some of unknown creation time; several rows per statement.
    const offsets = [0, 1, -1, 59 * 60_000, 30 * 60_000 + 7, hour, 7 * 24 * hour, 7 * 24 * hour + 1, 2 * hour - 1];
    const values = (networkId: number, days: number) =>
      Array.from({ length: days * 3 }, (_, i) => `(${networkId}, 'r${i}', ${stored(base + Math.floor(i / 3) * 8 * hour + offsets[i % offsets.length])})`).join(", ");
    await sql(`INSERT INTO patient_files (network_id, patient_name, created_at) VALUES ${values(network.id, 9)}, ${values(other.id, 3)}`);
    await sql(`INSERT INTO patient_files (network_id, patient_name, created_at) VALUES (${network.id}, 'unknown', NULL), (${network.id}, 'future', ${stored(base + 30 * 24 * hour)})`);
    await sql(`INSERT INTO offender_files (network_id, offender_name, created_at) VALUES ${values(network.id, 4)}`);
    await sql(`DELETE FROM patient_files WHERE network_id = ${network.id} AND patient_name IN ('r1', 'r5', 'unknown')`);
    await sql(`UPDATE patient_files SET created_at = ${stored(base + 5 * 24 * hour + 17)} WHERE network_id = ${network.id} AND patient_name = 'r2'`);
    await sql(`UPDATE patient_files SET created_at = NULL WHERE network_id = ${network.id} AND patient_name = 'r3'`);
    await sql(`UPDATE patient_files SET created_at = ${stored(base + 24 * hour)} WHERE network_id = ${network.id} AND patient_name = 'future'`);
    await sql(`UPDATE offender_files SET network_id = ${other.id} WHERE network_id = ${network.id} AND offender_name = 'r4'`);

    for (const table of ["patient_files", "offender_files"]) {
      const { kept, recounted } = await keptAndRecounted(table);
      expect(kept).toEqual(recounted);
      expect(kept.length).toBeGreaterThan(5);
    }

    const counted = async (since: number) => {
      const [row] = await service.db.prisma.$queryRawUnsafe<{ n: number }[]>(
        `SELECT (SELECT COUNT(*) FROM patient_files WHERE network_id = ${network.id} AND created_at >= ${stored(since)})
              + (SELECT COUNT(*) FROM offender_files WHERE network_id = ${network.id} AND created_at >= ${stored(since)}) AS n`,
      );
      return Number(row.n);
    };
    const seen = new Set<number>();
    for (const nowOffset of [8 * 24 * hour, 8 * 24 * hour + 1, 8 * 24 * hour - 1, 9 * 24 * hour + 30 * 60_000, 10 * 24 * hour + 8 * hour, 12 * 24 * hour]) {
      service.clock.set(new Date(base + nowOffset));
      const expected = await counted(base + nowOffset - 7 * 24 * hour);
      seen.add(expected);
      expect({ nowOffset, body: (await api.get("/statistics/files/last-7-days")).body }).toEqual({
        nowOffset,
        body: available(expected),
      });
    }
    // The instants cut the records differently (the test would not notice a constant).
    expect(seen.size).toBeGreaterThan(3);
    service.clock.reset();
  });

  test("the migration's backfill gives every network and hour the records it already has", async () => {
    const network = await service.network();
    await sql(`INSERT INTO mission_reports (network_id, title, created_at) VALUES (${network.id}, 'a', ${stored(base)}), (${network.id}, 'b', ${stored(base + 1)}), (${network.id}, 'c', ${stored(base + 3 * hour)}), (${network.id}, 'd', NULL)`);
    await sql("DELETE FROM record_hour_counts");
    expect((await keptAndRecounted("mission_reports")).kept).toEqual([]);
    const dir = path.join("prisma", testProvider, "migrations");
    const migration = fs.readdirSync(dir).find((name) => name.endsWith("_record_hour_counts"))!;
    const backfills = fs
      .readFileSync(path.join(dir, migration, "migration.sql"), "utf8")
      .split(";")
      .map((statement) => statement.replace(/^\s*--.*$/gm, "").trim())
      .filter((statement) => statement.startsWith('INSERT INTO "record_hour_counts"') && statement.includes("GROUP BY"));
    expect(backfills).toHaveLength(3);
    for (const statement of backfills) await sql(statement);
    for (const table of ["mission_reports", "patient_files", "offender_files"]) {
      const { kept, recounted } = await keptAndRecounted(table);
      expect(kept).toEqual(recounted);
    }
    expect((await keptAndRecounted("mission_reports")).kept).toEqual([
      `${network.id} 2026-03-10T00:00:00.000Z 2`,
      `${network.id} 2026-03-10T03:00:00.000Z 1`,
    ]);
  });
});
