// SQLite statements run in the process's one thread, so the store gives each write its own turn
// of the event loop (src/db/sqlite/writeTurns.ts): between two writes the loop goes round and serves
// what else came in. A turn is observed with a chain of setImmediate that counts the loop's
// check phases; two writes that ran in one turn would see the same count.
import { Prisma } from "../src/generated/prisma/client";
import type { WriteSql } from "../src/db/adapterWrites";
import { writesTakingTurns } from "../src/db/sqlite/writeTurns";
import { startService, testProvider, type TestService } from "./support/service";

/** Counts the event loop's turns until stopped. */
function loopTurns() {
  let turns = 0;
  let running = true;
  const tick = () => {
    turns += 1;
    if (running) setImmediate(tick);
  };
  setImmediate(tick);
  return {
    now: () => turns,
    stop: () => {
      running = false;
    },
  };
}

/** Runs `count` writes at once; answers the loop turn in which each one ran, in order of asking. */
async function turnsOfWrites(write: WriteSql, count: number, statement: (i: number) => Prisma.Sql) {
  const turns = loopTurns();
  const seen: number[] = [];
  await Promise.all(
    Array.from({ length: count }, (_, i) =>
      write.execute(statement(i)).then(() => {
        seen[i] = turns.now();
      }),
    ),
  );
  turns.stop();
  return seen;
}

describe("writes taking turns", () => {
  test("statements asked for at once run one per turn of the event loop, in the order asked", async () => {
    const ran: number[] = [];
    const immediate: WriteSql = {
      execute: async (statement) => {
        ran.push(Number(statement.values[0]));
        return 1;
      },
      returning: async () => [],
    };
    const seen = await turnsOfWrites(writesTakingTurns(immediate), 6, (i) => Prisma.sql`SELECT ${i}`);
    expect(ran).toEqual([0, 1, 2, 3, 4, 5]);
    expect(new Set(seen).size).toBe(6);
    for (let i = 1; i < seen.length; i++) expect(seen[i]).toBeGreaterThan(seen[i - 1]);

    // Without the turns the same writes all finish in one turn: the check above can fail.
    const together = await turnsOfWrites(immediate, 6, (i) => Prisma.sql`SELECT ${i}`);
    expect(new Set(together).size).toBe(1);
  });

  test("a failing statement gives its turn back and fails to its caller only", async () => {
    const failing: WriteSql = {
      execute: async (statement) => {
        if (statement.values[0] === 1) throw new Error("refused");
        return 1;
      },
      returning: async () => [],
    };
    const write = writesTakingTurns(failing);
    const results = await Promise.allSettled([0, 1, 2].map((i) => write.execute(Prisma.sql`SELECT ${i}`)));
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
  });
});

(testProvider === "sqlite" ? describe : describe.skip)("the SQLite store's writes", () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startService();
  });
  afterAll(() => service.close());

  test("each write of several asked for at once runs in a turn of its own", async () => {
    const network = await service.network();
    const seen = await turnsOfWrites(
      service.db.write,
      5,
      (i) => Prisma.sql`INSERT INTO vehicles (network_id, plate, search_text, created_at, updated_at)
        VALUES (${network.id}, ${`TURN ${i}`}, ${`turn ${i}`}, ${new Date()}, ${new Date()})`,
    );
    expect(new Set(seen).size).toBe(5);
    const stored = await service.db.prisma.vehicle.count({ where: { networkId: network.id } });
    expect(stored).toBe(5);
  });
});
