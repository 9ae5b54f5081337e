// On SQLite the counts kept on a network's row (vehicles and their version, records) and who is on
// duty are read again only after a commit: the WAL index header's epoch tells
// (src/db/betweenCommits.ts). The answers must still follow every commit by any connection, a
// direct SQL write raced by reads.
import Database from "libsql";
import { startService, testProvider, type TestService } from "./support/service";
import { client } from "./support/http";
import { knownVehicleTotal } from "../src/db/vehicles/totals";
import type { CommitEpoch } from "../src/db/betweenCommits";
import { countingReads } from "./support/countingReads";
import { sqliteFilePath } from "../src/db/sqlite/filePath";
import { recordCountStore } from "../src/db/recordCounts";

let service: TestService;
beforeAll(async () => {
  service = await startService();
});
afterAll(() => service.close());

/** A connection of its own, as an operator's shell would open (SQLite), or Prisma's (PostgreSQL). */
function directSql(): { run(sql: string): Promise<void>; close(): void } {
  if (testProvider === "sqlite") {
    const connection = new Database(sqliteFilePath(service.databaseUrl));
    connection.prepare("PRAGMA busy_timeout = 5000").all();
    return { run: async (sql) => void connection.exec(sql), close: () => connection.close() };
  }
  return { run: async (sql) => void (await service.db.prisma.$executeRawUnsafe(sql)), close: () => {} };
}

const insertSql = (networkId: number, plate: string) =>
  `INSERT INTO vehicles (network_id, plate, search_text, created_at, updated_at)
   VALUES (${networkId}, '${plate}', '${plate.toLowerCase()}', '2026-12-02T06:00:00.000+00:00', '2026-12-02T06:00:00.000+00:00')`;

/** An instant as the service stores it. */
const storedText = (instant: Date) => instant.toISOString().replace("Z", "+00:00");

/** A mission report inserted by direct SQL, its creation time unknown (null) or `createdAt`. */
const missionSql = (networkId: number, title: string, createdAt?: Date) =>
  createdAt === undefined
    ? `INSERT INTO mission_reports (network_id, title) VALUES (${networkId}, '${title}')`
    : `INSERT INTO mission_reports (network_id, title, created_at) VALUES (${networkId}, '${title}', '${storedText(createdAt)}')`;

type Api = ReturnType<typeof client>;

/** A direct SQL write and what the checked answer must be once it returned. */
interface Step {
  sql: string;
  expected: number;
}

/**
 * Runs `steps` one after another through a connection of its own while three clients keep asking
 * `racedPath`, so that what is kept is read between the writes; after each write returned,
 * `answer` must count it.
 */
async function raceWrites(api: Api, racedPath: string, steps: Step[], answer: () => Promise<number>): Promise<void> {
  const writer = directSql();
  let racing = true;
  const racers = Array.from({ length: 3 }, async () => {
    while (racing) expect((await api.get(racedPath)).status).toBe(200);
  });
  try {
    for (const { sql, expected } of steps) {
      await writer.run(sql);
      expect(await answer()).toBe(expected);
    }
  } finally {
    racing = false;
    await Promise.all(racers);
    writer.close();
  }
}

/** 1..n */
const counting = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

test("the list's total follows each direct SQL insert while other lists keep the network's state read", async () => {
  const network = await service.network();
  const api = client(service.url, network.apiKey);
  const steps = counting(25).map((inserted) => ({ sql: insertSql(network.id, `RACE-${inserted}`), expected: inserted }));
  await raceWrites(api, "/vehicles", steps, async () => (await api.get("/vehicles?per_page=1")).body.meta.total);
});

test("the missions' total follows each direct SQL insert while other requests keep it read", async () => {
  const network = await service.network();
  const api = client(service.url, network.apiKey);
  const steps = counting(25).map((inserted) => ({
    sql: missionSql(network.id, `race ${inserted}`),
    expected: inserted,
  }));
  await raceWrites(api, "/statistics/missions/total", steps, async () => (await api.get("/statistics/missions/total")).body.count);
});

test("the missions of the last 7 days follow each direct SQL insert while other requests keep them read", async () => {
  const network = await service.network();
  const api = client(service.url, network.apiKey);
  const steps = counting(25).map((inserted) => ({
    sql: missionSql(network.id, `race ${inserted}`, new Date()),
    expected: inserted,
  }));
  await raceWrites(api, "/statistics/missions/last-7-days", steps, async () => (await api.get("/statistics/missions/last-7-days")).body.count);
});

test("a record leaves the last 7 days when the clock passes it, with no commit between", async () => {
  const network = await service.network();
  const api = client(service.url, network.apiKey);
  const now = new Date("2026-11-27T12:00:00.000Z");
  const week = 7 * 24 * 60 * 60 * 1000;
  const writer = directSql();
  try {
    await writer.run(missionSql(network.id, "leaving", new Date(now.getTime() - week + 1000)));
    await writer.run(missionSql(network.id, "staying", now));
  } finally {
    writer.close();
  }
  try {
    service.clock.set(now);
    expect((await api.get("/statistics/missions/last-7-days")).body.count).toBe(2);
    service.clock.set(new Date(now.getTime() + 1000));
    expect((await api.get("/statistics/missions/last-7-days")).body.count).toBe(2);
    service.clock.set(new Date(now.getTime() + 1001));
    expect((await api.get("/statistics/missions/last-7-days")).body.count).toBe(1);
  } finally {
    service.clock.reset();
  }
});

test("who is on duty follows each direct SQL start and stop while other requests keep it read", async () => {
  const network = await service.network();
  const api = client(service.url, network.apiKey);
  const officers = await Promise.all(Array.from({ length: 12 }, (_, i) => network.officer(`7656119800000${String(i).padStart(4, "0")}`)));
  const starts = officers.map((officer, started) => ({
    sql: `INSERT INTO dutytime_entries (network_id, officer_id, started_at) VALUES (${network.id}, ${officer.id}, '2026-12-02T06:00:00.000+00:00')`,
    expected: started + 1,
  }));
  const stops = officers.map((officer, stopped) => ({
    sql: `UPDATE dutytime_entries SET ended_at = '2026-12-02T07:00:00.000+00:00' WHERE officer_id = ${officer.id} AND ended_at IS NULL`,
    expected: officers.length - stopped - 1,
  }));
  await raceWrites(api, "/statistics/active-users", [...starts, ...stops], async () => (await api.get("/statistics/active-users")).body.count);
});

describe("the network's state between commits", () => {
  const sqliteOnly = testProvider === "sqlite" ? test : test.skip;

  // Only SQLite gives the stores an epoch (src/db/client.ts); its kept window is compared as its text.
  sqliteOnly("a count of the last 7 days is kept while no record's creation time falls out of its window", async () => {
    const network = await service.network();
    const hour = 60 * 60 * 1000;
    const start = new Date("2026-11-20T12:00:00.000Z");
    // Through the records' store, whose own columns and instants they are; the epoch below is fixed anyway.
    const at = (offset: number) => new Date(start.getTime() + offset);
    await service.db.inTransaction(async (tx) => {
      await tx.records.addMissionReport({ networkId: network.id, title: "kept", createdAt: at(hour) });
      await tx.records.addPatientFile({ networkId: network.id, patientName: "kept", createdAt: at(2 * hour) });
      await tx.records.addOffenderFile({ networkId: network.id, offenderName: "kept", createdAt: at(3 * hour) });
      await tx.records.addMissionReport({ networkId: network.id, title: "kept", createdAt: at(5 * 24 * hour) });
    }, network.id);
    const { read, statementsOf } = countingReads(service.db.read);
    const counts = recordCountStore(read, () => 1);
    /** The count from `offset` ms after the start, and how many statements it took. */
    const since = async (kind: "missions" | "files", offset: number) => {
      const { result: count, statements } = await statementsOf(() => counts.createdSince(network.id, kind, new Date(start.getTime() + offset)));
      return { count, statements: statements.length };
    };
    expect(await since("missions", 0)).toEqual({ count: 2, statements: 1 });
    expect(await since("missions", hour / 2)).toEqual({ count: 2, statements: 0 });
    // A record created at the window's start is in it.
    expect(await since("missions", hour)).toEqual({ count: 2, statements: 0 });
    expect(await since("missions", hour + 1)).toEqual({ count: 1, statements: 1 });
    // A window that starts earlier again (the clock went back) is read again.
    expect(await since("missions", 0)).toEqual({ count: 2, statements: 1 });
    // The files: two tables, each one's oldest record bounds the window.
    expect(await since("files", 0)).toEqual({ count: 2, statements: 1 });
    expect(await since("files", 2 * hour)).toEqual({ count: 2, statements: 0 });
    expect(await since("files", 2 * hour + 1)).toEqual({ count: 1, statements: 1 });
    expect(await since("files", 3 * hour)).toEqual({ count: 1, statements: 0 });
    expect(await since("files", 3 * hour + 1)).toEqual({ count: 0, statements: 1 });
    expect(await since("files", 10 * 24 * hour)).toEqual({ count: 0, statements: 0 });
  });

  // PostgreSQL and a transaction give no epoch: nothing is kept, so the statement reads no oldest times.
  test("without an epoch a count of the last 7 days is read every time, without the oldest creation times", async () => {
    const network = await service.network();
    const start = new Date("2026-11-20T12:00:00.000Z");
    await service.db.inTransaction(async (tx) => {
      await tx.records.addMissionReport({ networkId: network.id, title: "counted", createdAt: new Date(start.getTime() + 1) });
    }, network.id);
    const { read, statementsOf } = countingReads(service.db.read);
    const counts = recordCountStore(read);
    for (let time = 0; time < 2; time++) {
      const { result: count, statements } = await statementsOf(() => counts.createdSince(network.id, "missions", start));
      expect(count).toBe(1);
      expect(statements).toHaveLength(1);
      expect(statements[0]).not.toMatch(/MIN\(created_at\)/i);
    }
    // With an epoch the same count reads them, for the window it keeps.
    const { statements } = await statementsOf(() => recordCountStore(read, () => 1).createdSince(network.id, "missions", start));
    expect(statements[0]).toMatch(/MIN\(created_at\)/i);
  });

  const filter = (networkId: number) => ({ networkId, needle: null });

  test("is read once per epoch, again when the epoch changes, and every time without one", async () => {
    const network = await service.network();
    const { read, statementsOf } = countingReads(service.db.read);
    let epoch: number | null = 1;
    const commitEpoch: CommitEpoch = () => epoch;
    const reads = async () => (await statementsOf(() => knownVehicleTotal(read, filter(network.id), commitEpoch))).statements.length;
    expect(await reads()).toBe(1);
    expect(await reads()).toBe(0);
    epoch = 2;
    expect(await reads()).toBe(1);
    expect(await reads()).toBe(0);
    epoch = null;
    expect(await reads()).toBe(1);
    expect(await reads()).toBe(1);
  });

  test("a state read at one epoch is not kept under a newer one read while it was being read", async () => {
    const network = await service.network();
    const read = service.db.read;
    let epoch = 1;
    const commitEpoch: CommitEpoch = () => epoch;
    // A request reads epoch 1 and the state; before its read returns, a commit, and a second
    // request that reads epoch 2 and the newer state.
    let first = true;
    const slowRead = Object.assign(async <Row>(query: Parameters<typeof read>[0]) => read<Row>(query), {
      ...read,
      byKey: async <Row>(query: Parameters<typeof read>[0]) => {
        const row = await read.byKey<Row>(query);
        if (first) {
          first = false;
          epoch = 2;
          await service.db.prisma.vehicle.create({
            data: { networkId: network.id, plate: "NEWER", searchText: "newer", createdAt: new Date(), updatedAt: new Date() },
          });
          expect((await knownVehicleTotal(slowRead, filter(network.id), commitEpoch)).total).toBe(1);
        }
        return row;
      },
    });
    expect((await knownVehicleTotal(slowRead, filter(network.id), commitEpoch)).total).toBe(0);
    // Still epoch 2: the first request's older state must not answer for it.
    expect((await knownVehicleTotal(slowRead, filter(network.id), commitEpoch)).total).toBe(1);
  });
});
