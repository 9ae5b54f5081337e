// Operators run SQL on the database directly (restores, imports, fixes): whatever such a
// statement changes, the data the database derives from it (kept counts, hour counts, versions of
// kept reports and search totals) stays right, and what the API answers afterwards is what a
// fresh count of the stored rows gives. Each test writes with plain SQL, as an operator's shell
// would, and reads through the API (migration *_direct_sql_derived_data, both databases).
import { createClient } from "@libsql/client";
import { shippedMigrations } from "../src/db/migrate";
import { sqliteMigrationTarget } from "../src/db/sqlite/migrations";
import { startService, testProvider, type TestNetwork, type TestService } from "./support/service";
import { freshDatabase, queryRows } from "./support/database";
import { client, type Client } from "./support/http";

let service: TestService;
beforeAll(async () => {
  service = await startService();
});
afterAll(() => service.close());
afterEach(() => service.clock.reset());

const sql = (statement: string) => service.db.prisma.$executeRawUnsafe(statement);
const rows = <Row>(query: string) => service.db.prisma.$queryRawUnsafe<Row[]>(query);

/** A query's rows as the database holds them (Prisma's client would read SQLite's instants as Dates). */
const storedRows = (query: string) => queryRows({ url: service.databaseUrl, provider: testProvider, drop: async () => undefined }, query);

async function networkWithApi(): Promise<{ network: TestNetwork; api: Client }> {
  const network = await service.network();
  return { network, api: client(service.url, network.apiKey) };
}

describe("a row moved to another network by UPDATE ... SET network_id", () => {
  test("vehicles: both networks' meta.total and search totals follow at once", async () => {
    const from = await networkWithApi();
    const to = await networkWithApi();
    const plates = ["MV-1", "MV-2", "MV-3"];
    const ids: number[] = [];
    for (const plate of plates) {
      const created = await from.api.post("/vehicles", { plate, owner: "Moved Lindqvist" });
      expect(created.status).toBe(201);
      ids.push(created.body.data.id);
    }
    expect((await to.api.post("/vehicles", { plate: "STAY-1", owner: "Staying Lindqvist" })).status).toBe(201);
    const totalOf = async (api: Client, query: string) => (await api.get(`/vehicles${query}`)).body.meta.total as number;
    /** A search's total, asked twice: the second answer is the kept total (src/db/vehicles/searchTotals.ts). */
    const searchTotalOf = async (api: Client) => {
      await totalOf(api, "?search=lindqvist");
      return totalOf(api, "?search=lindqvist");
    };
    const totals = async () => ({
      from: await totalOf(from.api, ""),
      to: await totalOf(to.api, ""),
      fromSearch: await searchTotalOf(from.api),
      toSearch: await searchTotalOf(to.api),
    });
    expect(await totals()).toEqual({ from: 3, to: 1, fromSearch: 3, toSearch: 1 });

    await sql(`UPDATE vehicles SET network_id = ${to.network.id} WHERE id = ${ids[0]}`);
    expect(await totals()).toEqual({ from: 2, to: 2, fromSearch: 2, toSearch: 2 });
    expect((await to.api.get(`/vehicles/${ids[0]}`)).status).toBe(200);
    expect((await from.api.get(`/vehicles/${ids[0]}`)).status).toBe(404);

    // Several rows in one statement, one of them to the network it is already in, then back.
    await sql(`UPDATE vehicles SET network_id = ${to.network.id} WHERE id IN (${ids.join(", ")})`);
    expect(await totals()).toEqual({ from: 0, to: 4, fromSearch: 0, toSearch: 4 });
    await sql(`UPDATE vehicles SET network_id = ${from.network.id} WHERE id IN (${ids.join(", ")})`);
    expect(await totals()).toEqual({ from: 3, to: 1, fromSearch: 3, toSearch: 1 });
  });

  test("records: both networks' statistics totals, last 7 days and records per day follow at once", async () => {
    const NOW = "2026-11-21T22:10:00.000Z";
    service.clock.set(NOW);
    const from = await networkWithApi();
    const to = await networkWithApi();
    const records = [
      ["mission_reports", "title"],
      ["patient_files", "patient_name"],
      ["offender_files", "offender_name"],
    ] as const;
    for (const [table, name] of records) {
      await sql(`INSERT INTO ${table} (network_id, ${name}, created_at) VALUES
        (${from.network.id}, 'moved', '2026-11-20 10:00:00'), (${from.network.id}, 'staying', '2026-11-20 10:00:00'),
        (${from.network.id}, 'unknown', NULL)`);
    }
    const counts = async (api: Client) => {
      const response = await api.graphql(`{
        missionsTotal { count } missionsLastSevenDays { count } filesTotal { count } filesLastSevenDays { count }
        missionsPerDay(from: "2026-11-20T00:00:00Z", to: "2026-11-21T00:00:00Z") { days { count } unknown }
        filesPerDay(from: "2026-11-20T00:00:00Z", to: "2026-11-21T00:00:00Z") { days { count } unknown }
      }`);
      expect(response.body.errors).toBeUndefined();
      const data = response.body.data;
      return {
        missions: [data.missionsTotal.count, data.missionsLastSevenDays.count, data.missionsPerDay.days[0].count, data.missionsPerDay.unknown],
        files: [data.filesTotal.count, data.filesLastSevenDays.count, data.filesPerDay.days[0].count, data.filesPerDay.unknown],
      };
    };
    expect(await counts(from.api)).toEqual({ missions: [3, 2, 2, 1], files: [6, 4, 4, 2] });
    expect(await counts(to.api)).toEqual({ missions: [0, 0, 0, 0], files: [0, 0, 0, 0] });

    for (const [table, name] of records) {
      await sql(`UPDATE ${table} SET network_id = ${to.network.id} WHERE network_id = ${from.network.id} AND ${name} IN ('moved', 'unknown')`);
    }
    expect(await counts(from.api)).toEqual({ missions: [1, 1, 1, 0], files: [2, 2, 2, 0] });
    expect(await counts(to.api)).toEqual({ missions: [2, 1, 1, 1], files: [4, 2, 2, 2] });

    // A change of network that is none (the same id written again) changes no count.
    await sql(`UPDATE mission_reports SET network_id = network_id WHERE network_id = ${to.network.id}`);
    expect(await counts(to.api)).toEqual({ missions: [2, 1, 1, 1], files: [4, 2, 2, 2] });
  });
});

describe("instants written in the database's own text format", () => {
  test("a dutytime entry of '2026-11-10 10:00:00' text is in the duty hours report and the officer's history, in order", async () => {
    const { network, api } = await networkWithApi();
    const officer = await network.officer("1", "Text Format");
    // An entry through the API (stored as the app writes instants), then one by plain SQL.
    for (const instant of ["2026-11-10T08:00:00Z", "2026-11-10T09:00:00Z"]) {
      service.clock.set(instant);
      expect((await api.post("/dutytime/steam%3A1/toggle")).status).toBe(200);
    }
    const [inserted] = await rows<{ id: number | bigint }>(`INSERT INTO dutytime_entries (network_id, officer_id, started_at, ended_at)
      VALUES (${network.id}, ${officer.id}, '2026-11-10 10:00:00', '2026-11-10 12:00:00') RETURNING id`);
    service.clock.set("2026-11-17T00:00:00Z");

    const report = async () => {
      const response = await api.graphql(`{
        dutyHours(from: "2026-11-10T00:00:00Z", to: "2026-11-11T00:00:00Z") { officers { identifier totalSeconds shifts } }
      }`);
      expect(response.body.errors).toBeUndefined();
      return response.body.data.dutyHours.officers;
    };
    const history = async (query = "") => {
      const response = await api.get(`/officers/steam%3A1/dutytime${query}`);
      expect(response.status).toBe(200);
      return response.body.data.map((entry: { startedAt: string; endedAt: string | null }) => [entry.startedAt, entry.endedAt]);
    };
    expect(await report()).toEqual([{ identifier: "steam:1", totalSeconds: 3 * 3600, shifts: 2 }]);
    expect(await history()).toEqual([
      ["2026-11-10T10:00:00.000Z", "2026-11-10T12:00:00.000Z"],
      ["2026-11-10T08:00:00.000Z", "2026-11-10T09:00:00.000Z"],
    ]);
    expect(await history(`?from=${encodeURIComponent("2026-11-10T11:00:00Z")}&to=${encodeURIComponent("2026-11-10T11:30:00Z")}`)).toEqual([
      ["2026-11-10T10:00:00.000Z", "2026-11-10T12:00:00.000Z"],
    ]);

    // An UPDATE with the database's own date arithmetic (SQLite's datetime() writes its text format).
    const later = testProvider === "sqlite" ? "datetime(ended_at, '+1 hours')" : "ended_at + interval '1 hour'";
    await sql(`UPDATE dutytime_entries SET ended_at = ${later} WHERE id = ${inserted.id}`);
    expect(await report()).toEqual([{ identifier: "steam:1", totalSeconds: 4 * 3600, shifts: 2 }]);
    expect((await history())[0]).toEqual(["2026-11-10T10:00:00.000Z", "2026-11-10T13:00:00.000Z"]);
  });

  test("a record created at '2026-11-14 22:30:00' text counts where the window cuts its hour", async () => {
    // Seven days before NOW is 22:10 on 14 November: records of 22:10 to 23:00 are compared one by one.
    service.clock.set("2026-11-21T22:10:00.000Z");
    const { network, api } = await networkWithApi();
    await sql(`INSERT INTO mission_reports (network_id, title, created_at) VALUES
      (${network.id}, 'inside', '2026-11-14 22:30:00'), (${network.id}, 'before', '2026-11-14 22:00:00')`);
    const counts = async () => {
      const response = await api.graphql(`{
        missionsLastSevenDays { count }
        cut: missionsPerDay(from: "2026-11-14T22:10:00Z", to: "2026-11-15T00:00:00Z") { days { count } }
        wholeDays: missionsPerDay(from: "2026-11-14T00:00:00Z", to: "2026-11-16T00:00:00Z") { days { count } }
      }`);
      expect(response.body.errors).toBeUndefined();
      const { missionsLastSevenDays, cut, wholeDays } = response.body.data;
      return { lastSevenDays: missionsLastSevenDays.count, cut: cut.days[0].count, wholeDays: wholeDays.days.map((day: { count: number }) => day.count) };
    };
    // Whole days are read from the hour counts alone: each record is in its hour once.
    expect(await counts()).toEqual({ lastSevenDays: 1, cut: 1, wholeDays: [2, 0] });

    const nextDay = testProvider === "sqlite" ? "datetime(created_at, '+1 day')" : "created_at + interval '1 day'";
    await sql(`UPDATE mission_reports SET created_at = ${nextDay} WHERE network_id = ${network.id} AND title = 'before'`);
    expect(await counts()).toEqual({ lastSevenDays: 2, cut: 1, wholeDays: [1, 1] });
  });

  // PostgreSQL's timestamp columns hold instants, not text: only SQLite keeps what was written.
  (testProvider === "sqlite" ? test : test.skip)("SQLite stores every instant as the app writes it; text that is no instant stays as written", async () => {
    const { network } = await networkWithApi();
    const officer = await network.officer("1", "Stored Text");
    await sql(`INSERT INTO dutytime_entries (network_id, officer_id, started_at, ended_at)
      VALUES (${network.id}, ${officer.id}, '2026-11-10T11:00:00.5+01:00', '2026-11-10T10:30:00Z')`);
    await sql(`UPDATE officers SET removed_at = '2026-11-11 08:00' WHERE id = ${officer.id}`);
    await sql(`INSERT INTO patient_files (network_id, created_at) VALUES (${network.id}, '2026-11-10'), (${network.id}, 'unknown'), (${network.id}, 'now')`);
    const stored = async () => ({
      entry: await storedRows(`SELECT started_at, ended_at FROM dutytime_entries WHERE officer_id = ${officer.id}`),
      officer: await storedRows(`SELECT removed_at FROM officers WHERE id = ${officer.id}`),
      files: (await storedRows(`SELECT created_at FROM patient_files WHERE network_id = ${network.id} ORDER BY id`)).map((row) => row.created_at),
    });
    expect(await stored()).toEqual({
      entry: [{ started_at: "2026-11-10T10:00:00.500+00:00", ended_at: "2026-11-10T10:30:00.000+00:00" }],
      officer: [{ removed_at: "2026-11-11T08:00:00.000+00:00" }],
      // 'now' is a time to SQLite's functions, but no instant written down: left alone.
      files: ["2026-11-10T00:00:00.000+00:00", "unknown", "now"],
    });
    await sql(`UPDATE dutytime_entries SET ended_at = 'not an instant' WHERE officer_id = ${officer.id}`);
    expect((await stored()).entry).toEqual([{ started_at: "2026-11-10T10:00:00.500+00:00", ended_at: "not an instant" }]);
  });
});

// SQLite only: the migration rewrites the instants stored before it (PostgreSQL's has nothing to rewrite).
(testProvider === "sqlite" ? describe : describe.skip)("migration *_direct_sql_derived_data on a database with text instants", () => {
  test("rewrites every instant stored before it as the app writes them, and leaves the hour counts right", async () => {
    const db = await freshDatabase("sqlite");
    try {
      const migrations = shippedMigrations("sqlite");
      const at = migrations.findIndex((migration) => migration.name.endsWith("_direct_sql_derived_data"));
      expect(at).toBeGreaterThan(0);
      const apply = (list: typeof migrations) =>
        sqliteMigrationTarget(db.url).locked(async (session) => {
          for (const migration of list) await session.apply(migration);
        });
      await apply(migrations.slice(0, at));
      const write = (statement: string) => queryRows(db, statement);
      await write(`INSERT INTO networks (id, name, identifier_type, created_at) VALUES (1, 'Restored', 'steam', '2026-11-01 00:00:00')`);
      await write(`INSERT INTO officers (id, network_id, identifier, name, created_at, removed_at) VALUES
        (1, 1, 'steam:1', 'Restored Officer', '2026-11-01 08:00:00', '2026-11-12T09:00:00Z'), (2, 1, 'steam:2', 'Kept Officer', '2026-11-01T08:00:00.000+00:00', NULL)`);
      await write(`INSERT INTO dutytime_entries (network_id, officer_id, started_at, ended_at) VALUES
        (1, 1, '2026-11-10 10:00:00', '2026-11-10 12:00:00.25'), (1, 2, '2026-11-10T10:00:00.000+00:00', NULL)`);
      await write(`INSERT INTO mission_reports (network_id, created_at) VALUES (1, '2026-11-10 10:30:00'), (1, '2026-11-10T10:45:00.000+00:00'), (1, 'unknown'), (1, NULL)`);
      const hours = async () =>
        (await queryRows(db, `SELECT hour, count FROM record_hour_counts WHERE table_name = 'mission_reports' AND count <> 0`)).map((row) => [row.hour, Number(row.count)]);
      expect(await hours()).toEqual([["2026-11-10T10:00:00.000+00:00", 2]]);

      await apply(migrations.slice(at, at + 1));
      expect(await queryRows(db, "SELECT created_at, removed_at FROM officers ORDER BY id")).toEqual([
        { created_at: "2026-11-01T08:00:00.000+00:00", removed_at: "2026-11-12T09:00:00.000+00:00" },
        { created_at: "2026-11-01T08:00:00.000+00:00", removed_at: null },
      ]);
      expect(await queryRows(db, "SELECT started_at, ended_at FROM dutytime_entries ORDER BY id")).toEqual([
        { started_at: "2026-11-10T10:00:00.000+00:00", ended_at: "2026-11-10T12:00:00.250+00:00" },
        { started_at: "2026-11-10T10:00:00.000+00:00", ended_at: null },
      ]);
      expect((await queryRows(db, "SELECT created_at FROM mission_reports ORDER BY id")).map((row) => row.created_at)).toEqual([
        "2026-11-10T10:30:00.000+00:00",
        "2026-11-10T10:45:00.000+00:00",
        "unknown",
        null,
      ]);
      expect(await hours()).toEqual([["2026-11-10T10:00:00.000+00:00", 2]]);
    } finally {
      await db.drop();
    }
  });
});

describe("an officer deleted by plain SQL", () => {
  test("with foreign keys off (the sqlite3 shell's default), it leaves the next kept duty hours report", async () => {
    const { network, api } = await networkWithApi();
    await network.officer("1", "Deleted Officer");
    await network.officer("2", "Staying Officer");
    const shift = async (identifier: string, start: string, end: string) => {
      for (const instant of [start, end]) {
        service.clock.set(instant);
        expect((await api.post(`/dutytime/${encodeURIComponent(identifier)}/toggle`)).status).toBe(200);
      }
    };
    await shift("steam:1", "2026-11-10T10:00:00Z", "2026-11-10T12:00:00Z");
    await shift("steam:2", "2026-11-10T13:00:00Z", "2026-11-10T14:00:00Z");
    service.clock.set("2026-11-17T00:00:00Z");
    const report = async () => {
      const response = await api.graphql(`{
        dutyHours(from: "2026-11-10T00:00:00Z", to: "2026-11-11T00:00:00Z") { buckets { seconds } officers { identifier totalSeconds } }
      }`);
      expect(response.body.errors).toBeUndefined();
      return response.body.data.dutyHours;
    };
    // Counted twice: kept (src/resolvers/keptReports.ts).
    const before = { buckets: [{ seconds: 3 * 3600 }], officers: [{ identifier: "steam:1", totalSeconds: 7200 }, { identifier: "steam:2", totalSeconds: 3600 }] };
    expect(await report()).toEqual(before);
    expect(await report()).toEqual(before);

    const deletion = `DELETE FROM officers WHERE network_id = ${network.id} AND identifier = 'steam:1'`;
    if (testProvider === "sqlite") {
      // Another connection, as the shell would open: foreign keys are a per-connection setting.
      const shell = createClient({ url: service.databaseUrl });
      try {
        await shell.executeMultiple(`PRAGMA foreign_keys = OFF; ${deletion};`);
      } finally {
        shell.close();
      }
    } else {
      // PostgreSQL always enforces its foreign keys: the officer's entries go with it.
      await sql(deletion);
    }
    expect(await report()).toEqual({ buckets: [{ seconds: 3600 }], officers: [{ identifier: "steam:2", totalSeconds: 3600 }] });
  });

  test("entries given to another officer, and an officer moved to another network, leave the next kept report", async () => {
    const { network, api } = await networkWithApi();
    const first = await network.officer("1", "First Officer");
    const second = await network.officer("2", "Second Officer");
    const other = await service.network();
    for (const [identifier, start, end] of [["steam:1", "2026-11-10T10:00:00Z", "2026-11-10T12:00:00Z"], ["steam:2", "2026-11-10T13:00:00Z", "2026-11-10T14:00:00Z"]]) {
      for (const instant of [start, end]) {
        service.clock.set(instant);
        expect((await api.post(`/dutytime/${encodeURIComponent(identifier)}/toggle`)).status).toBe(200);
      }
    }
    service.clock.set("2026-11-17T00:00:00Z");
    /** The report, asked twice so that the next write finds it kept. */
    const report = async () => {
      const ask = async () => {
        const response = await api.graphql(`{ dutyHours(from: "2026-11-10T00:00:00Z", to: "2026-11-11T00:00:00Z") { officers { identifier totalSeconds } } }`);
        expect(response.body.errors).toBeUndefined();
        return response.body.data.dutyHours.officers;
      };
      const counted = await ask();
      expect(await ask()).toEqual(counted);
      return counted;
    };
    expect(await report()).toEqual([{ identifier: "steam:1", totalSeconds: 7200 }, { identifier: "steam:2", totalSeconds: 3600 }]);
    await sql(`UPDATE dutytime_entries SET officer_id = ${second.id} WHERE officer_id = ${first.id}`);
    expect(await report()).toEqual([{ identifier: "steam:2", totalSeconds: 3 * 3600 }]);
    // The entries stay the network's; their officer is no longer one of its officers.
    await sql(`UPDATE officers SET network_id = ${other.id} WHERE id = ${second.id}`);
    expect(await report()).toEqual([]);
  });
});
