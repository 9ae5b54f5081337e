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
    sql: `INSERT INTO mission_reports (network_id, title) VALUES (${network.id}, 'race ${inserted}')`,
    expected: inserted,
  }));
  await raceWrites(api, "/statistics/missions/total", steps, async () => (await api.get("/statistics/missions/total")).body.count);
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
