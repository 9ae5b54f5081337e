// A write transaction (src/db/transactions.ts; PostgreSQL's src/db/postgres/transactions.ts):
// statements run in the order issued, whether or not the work awaits them, and the transaction
// commits only if every one succeeded. An event's statement is issued without being awaited
// (src/events/record.ts), so this is what keeps a change and its events one to one.
import Database from "libsql";
import { Prisma } from "../src/generated/prisma/client";
import { sqliteFilePath } from "../src/db/sqlite/filePath";
import { changeInOneStatement, changeWithEvents } from "../src/events/record";
import { issued } from "../src/db/transactions";
import { isUniqueViolation } from "../src/db/databaseErrors";
import { statementCacheEnabled } from "../src/db/sqlite/adapter";
import { storedInstant } from "../src/db/storedInstant";
import { operatorKey } from "../src/context";
import { startService, testProvider, type TestNetwork, type TestService } from "./support/service";
import { storeNames } from "../src/db/client";

let service: TestService;
let network: TestNetwork;

beforeAll(async () => {
  service = await startService();
  network = await service.network();
});
afterAll(() => service?.close());

const plates = async (prefix: string) =>
  (await service.db.read<{ plate: string }>(Prisma.sql`SELECT plate FROM vehicles WHERE network_id = ${network.id} AND plate LIKE ${`${prefix}%`} ORDER BY plate`)).map(
    (row) => row.plate,
  );

const insertPlate = (plate: string) =>
  Prisma.sql`INSERT INTO vehicles (network_id, plate, search_text, created_at, updated_at) VALUES (${network.id}, ${plate}, ${plate.toLowerCase()}, ${new Date()}, ${new Date()})`;

const lastSequence = async () =>
  Number((await service.db.read<{ last: number | null }>(Prisma.sql`SELECT max(sequence) AS last FROM events WHERE network_id = ${network.id}`))[0].last ?? 0);

test("statements issued without awaiting them run in order, and the transaction waits for them", async () => {
  const answered = await service.db.transaction(async (write) => {
    void write.execute(insertPlate("ORDER-1"));
    void write.execute(insertPlate("ORDER-2"));
    // Sees both rows: the statements before it ran first, on the transaction's connection.
    return write.returning<{ n: number | string }>(
      Prisma.sql`SELECT count(*) AS n FROM vehicles WHERE network_id = ${network.id} AND plate LIKE ${"ORDER-%"}`,
    );
  });
  expect(Number(answered[0].n)).toBe(2);
  expect(await plates("ORDER-")).toEqual(["ORDER-1", "ORDER-2"]);
});

test("a statement that fails unawaited fails the transaction with its error, and nothing before it is kept", async () => {
  const outcome = service.db.transaction(async (write) => {
    await write.execute(insertPlate("FAILED-1"));
    // Nobody awaits it, as nobody awaits an event's.
    void write.execute(Prisma.sql`INSERT INTO no_such_table (x) VALUES (1)`);
    return "done";
  });
  await expect(outcome).rejects.toThrow(/no_such_table/);
  expect(await plates("FAILED-")).toEqual([]);
});

test("a work that throws after issuing statements rolls them back", async () => {
  const outcome = service.db.transaction(async (write) => {
    void write.execute(insertPlate("THROWN-1"));
    throw new Error("the rule refused");
  });
  await expect(outcome).rejects.toThrow("the rule refused");
  expect(await plates("THROWN-")).toEqual([]);
});

test("after a failed transaction the connections still serve writes", async () => {
  for (let i = 0; i < 12; i++) {
    await expect(service.db.transaction((write) => write.execute(Prisma.sql`INSERT INTO no_such_table (x) VALUES (1)`))).rejects.toThrow();
  }
  const written = await Promise.all(Array.from({ length: 12 }, (_, i) => service.db.transaction((write) => write.execute(insertPlate(`AFTER-${String(i).padStart(2, "0")}`)))));
  expect(written).toEqual(Array(12).fill(1));
  expect(await plates("AFTER-")).toHaveLength(12);
});

// On SQLite a transaction that reads first is a reader until its first write: if another
// connection (another process, the admin command) commits in between, that write fails at once
// (SQLITE_BUSY_SNAPSHOT, which no busy timeout waits out). A new vehicle's id is taken first, so
// taking it must make the transaction the writer.
(testProvider === "sqlite" ? test : test.skip)("SQLite: a new vehicle id is taken as the writer, so no other connection commits before its insert", async () => {
  const other = new Database(sqliteFilePath(service.databaseUrl));
  other.prepare("PRAGMA busy_timeout = 0").all();
  try {
    const id = await service.db.inTransaction(async (tx) => {
      const taken = await tx.vehicles.newId();
      expect(() => other.prepare("UPDATE networks SET name = name WHERE id = ?").run(network.id)).toThrow(/locked|busy/i);
      const now = new Date();
      await tx.write.execute(
        Prisma.sql`INSERT INTO vehicles (id, network_id, plate, search_text, created_at, updated_at) VALUES (${taken}, ${network.id}, ${"NEWID-1"}, ${"newid-1"}, ${now}, ${now})`,
      );
      return taken;
    });
    expect(await plates("NEWID-")).toEqual(["NEWID-1"]);
    // The next id is past it.
    expect(await service.db.inTransaction((tx) => tx.vehicles.newId())).toBeGreaterThan(id);
  } finally {
    other.close();
  }
});

/**
 * Four transactions asked together (with the network: on PostgreSQL its group), the second
 * failing unawaited and the third throwing: those two are rolled back alone.
 */
async function askedTogether(prefix: string, networkId?: number) {
  const outcomes = await Promise.allSettled(
    [1, 2, 3, 4].map((n) =>
      service.db.transaction(async (write) => {
        await write.execute(insertPlate(`${prefix}-${n}`));
        if (n === 2) void write.execute(Prisma.sql`INSERT INTO no_such_table (x) VALUES (1)`);
        if (n === 3) throw new Error("the rule refused");
        return n;
      }, networkId),
    ),
  );
  expect(outcomes.map((outcome) => outcome.status)).toEqual(["fulfilled", "rejected", "rejected", "fulfilled"]);
  expect(await plates(`${prefix}-`)).toEqual([`${prefix}-1`, `${prefix}-4`]);
}

test("transactions asked together: one that fails is rolled back alone, the others are kept", () => askedTogether("GROUP"));

// SQLite commits the transactions asked in one turn of the event loop together
// (src/db/sqlite/groupCommit.ts): none of them may be answered as done unless that COMMIT is.
describe("SQLite: transactions committed in one group", () => {
  const sqliteOnly = testProvider === "sqlite" ? test : test.skip;

  sqliteOnly("when the group's transaction is lost, every transaction of it fails and nothing is kept", async () => {
    const outcomes = await Promise.allSettled([
      service.db.transaction((write) => write.execute(insertPlate("LOST-1"))),
      // Ends the shared transaction under the group, as SQLite does itself on some errors.
      service.db.transaction(async (write) => {
        await write.execute(insertPlate("LOST-2"));
        await write.execute(Prisma.sql`ROLLBACK`);
        throw new Error("the rule refused");
      }),
      service.db.transaction((write) => write.execute(insertPlate("LOST-3"))),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(["rejected", "rejected", "rejected"]);
    // Each of the others fails with the database's error, not with the failed work's own.
    const reasons = outcomes.map((outcome) => String((outcome as PromiseRejectedResult).reason));
    expect(reasons[1]).toMatch(/the rule refused/);
    for (const reason of [reasons[0], reasons[2]]) expect(reason).not.toMatch(/the rule refused/);
    expect(await plates("LOST-")).toEqual([]);
    // The next group commits.
    await expect(service.db.transaction((write) => write.execute(insertPlate("LOST-AFTER")))).resolves.toBe(1);
    expect(await plates("LOST-")).toEqual(["LOST-AFTER"]);
  });

  sqliteOnly("when the group's COMMIT fails, every transaction of it fails, nothing is kept, and the connection writes again", async () => {
    const outcomes = await Promise.allSettled([
      service.db.transaction((write) => write.execute(insertPlate("COMMIT-1"))),
      // A foreign key checked at COMMIT: COMMIT fails and leaves the transaction open.
      service.db.transaction(async (write) => {
        await write.execute(Prisma.sql`PRAGMA defer_foreign_keys = ON`);
        return write.execute(
          Prisma.sql`INSERT INTO vehicles (network_id, plate, search_text, created_at, updated_at) VALUES (${-1}, ${"COMMIT-2"}, ${"commit-2"}, ${new Date()}, ${new Date()})`,
        );
      }),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(["rejected", "rejected"]);
    expect(String((outcomes[0] as PromiseRejectedResult).reason)).toMatch(/foreign key/i);
    expect(await plates("COMMIT-")).toEqual([]);
    await expect(service.db.transaction((write) => write.execute(insertPlate("COMMIT-AFTER")))).resolves.toBe(1);
    expect(await plates("COMMIT-")).toEqual(["COMMIT-AFTER"]);
  });
  // A group's statements run straight on the connection under Prisma's adapter
  // (src/db/sqlite/connectionWrites.ts), and must bind and read values as the adapter does.
  sqliteOnly("a group binds and reads values as Prisma's adapter does", async () => {
    const values = Prisma.sql`SELECT ${new Date("2026-11-29T12:34:56.789Z")} AS at, ${true} AS yes, ${false} AS no, ${7} AS n, ${1.5} AS x, ${"Straße"} AS s, ${null} AS absent, ${2 ** 40} AS big`;
    const throughAdapter = await service.db.write.returning(values);
    const inGroup = await service.db.transaction((write) => write.returning(values));
    expect(inGroup).toEqual(throughAdapter);
    expect(inGroup).toEqual([{ at: "2026-11-29T12:34:56.789+00:00", yes: 1, no: 0, n: 7, x: 1.5, s: "Straße", absent: null, big: 2 ** 40 }]);
  });

  sqliteOnly("a group reads typed columns as the stores read them through the adapter, an instant written as a number too", async () => {
    const at = new Date("2026-11-29T12:34:56.789Z");
    const insert = (plate: string) =>
      Prisma.sql`INSERT INTO vehicles (network_id, plate, search_text, created_at, updated_at) VALUES (${network.id}, ${plate}, ${plate.toLowerCase()}, ${at}, ${at}) RETURNING id, plate, wanted, general_inspection, created_at`;
    const [throughAdapter] = await service.db.write.returning<Record<string, unknown>>(insert("TYPED-A"));
    const [inGroup] = await service.db.transaction((write) => write.returning<Record<string, unknown>>(insert("TYPED-G")));
    expect({ ...inGroup, id: 0, plate: "" }).toEqual({ ...throughAdapter, id: 0, plate: "" });
    expect(typeof inGroup.id).toBe(typeof throughAdapter.id);
    expect(inGroup.created_at).toBe("2026-11-29T12:34:56.789+00:00");
    // An instant another tool stored as milliseconds: the adapter reads a DATETIME column's
    // number as ISO text, a group the number itself; the stores read either as the same instant.
    const asNumber = (plate: string) =>
      Prisma.sql`UPDATE vehicles SET updated_at = ${at.getTime()} WHERE network_id = ${network.id} AND plate = ${plate} RETURNING updated_at`;
    const [numberThroughAdapter] = await service.db.write.returning<{ updated_at: string }>(asNumber("TYPED-A"));
    const [numberInGroup] = await service.db.transaction((write) => write.returning<{ updated_at: string }>(asNumber("TYPED-G")));
    expect(storedInstant(numberThroughAdapter.updated_at).getTime()).toBe(at.getTime());
    expect(storedInstant(numberInGroup.updated_at).getTime()).toBe(at.getTime());
  });

  // Only on our connection client: with SQLITE_STATEMENT_CACHE=off a group runs through the adapter.
  (testProvider === "sqlite" && statementCacheEnabled() ? test : test.skip)("a duplicate refused in a group is libsql's own error, and is recognised as a duplicate", async () => {
    const outcome = service.db.transaction(async (write) => {
      await write.execute(Prisma.sql`CREATE TEMP TABLE group_duplicates (value TEXT UNIQUE)`);
      await write.execute(Prisma.sql`INSERT INTO group_duplicates (value) VALUES (${"twice"})`);
      return write.execute(Prisma.sql`INSERT INTO group_duplicates (value) VALUES (${"twice"})`);
    });
    const refusal = await outcome.then(
      () => undefined,
      (error: unknown) => error,
    );
    // Through the adapter's transaction it would be its DriverAdapterError: the group went straight to the connection.
    expect(refusal).toMatchObject({ code: "SQLITE_CONSTRAINT_UNIQUE" });
    expect(isUniqueViolation(refusal)).toBe(true);
    // Rolled back: the table is gone.
    await expect(service.db.transaction((write) => write.returning(Prisma.sql`SELECT count(*) AS n FROM group_duplicates`))).rejects.toThrow(/no such table/);
  });
});

// PostgreSQL commits a network's changes asked in one turn together (src/db/postgres/transactions.ts).
describe("PostgreSQL: a network's transactions committed in one group", () => {
  const postgresOnly = testProvider === "postgresql" ? test : test.skip;

  postgresOnly("one that fails is rolled back alone, the others are kept", () => askedTogether("PGROUP", network.id));

  // A group is pipelined: each work is sent once the one before has issued its statements. The
  // works after one that fails unawaited were sent into an aborted transaction; they run again.
  // The first pass has no savepoints: work 1's failure rolls it all back, and the savepoint pass
  // runs the four again (then 2 and 3 once more, after work 1 fails in it too).
  postgresOnly("a work starts before the answers of the one before it: those after a failure run again, and are kept once", async () => {
    const runs = [0, 0, 0, 0];
    let firstAnswered = false;
    let firstAnsweredWhenWorkOneStarted: boolean | undefined;
    const outcomes = await Promise.allSettled(
      [0, 1, 2, 3].map((n) =>
        service.db.transaction(async (write) => {
          runs[n]++;
          if (n === 0) {
            void write.returning(Prisma.sql`SELECT pg_sleep(0.2)`).then(() => (firstAnswered = true));
            return n;
          }
          // Its first run's view (the savepoint pass runs it again, after work 0 has answered).
          if (n === 1) firstAnsweredWhenWorkOneStarted ??= firstAnswered;
          await write.execute(insertPlate(`PIPE-${n}`));
          if (n === 1) void write.execute(Prisma.sql`INSERT INTO no_such_table (x) VALUES (1)`);
          return n;
        }, network.id),
      ),
    );
    expect(outcomes.map((outcome) => outcome.status)).toEqual(["fulfilled", "rejected", "fulfilled", "fulfilled"]);
    expect(String((outcomes[1] as PromiseRejectedResult).reason)).toMatch(/no_such_table/);
    // Work 1 started while work 0's sleep was still running.
    expect(firstAnsweredWhenWorkOneStarted).toBe(false);
    expect(runs).toEqual([2, 2, 3, 3]);
    expect(await plates("PIPE-")).toEqual(["PIPE-2", "PIPE-3"]);
  });

  // A row's xmin is the transaction that wrote it: a subtransaction's own (a savepoint's) when the
  // write was made in one, the transaction's when not.
  const writtenByTheTransaction = (plate: string) =>
    Prisma.sql`SELECT (xmin = pg_current_xact_id()::xid) AS top, pg_current_xact_id()::text AS xact FROM vehicles WHERE network_id = ${network.id} AND plate = ${plate}`;

  postgresOnly("a group that succeeds runs once, in one transaction, without savepoints", async () => {
    const runs = [0, 0, 0];
    const answers = await Promise.all(
      [0, 1, 2].map((n) =>
        service.db.transaction(async (write) => {
          runs[n]++;
          await write.execute(insertPlate(`NOSAVE-${n}`));
          return (await write.returning<{ top: boolean; xact: string }>(writtenByTheTransaction(`NOSAVE-${n}`)))[0];
        }, network.id),
      ),
    );
    expect(runs).toEqual([1, 1, 1]);
    expect(answers.map((answer) => answer.top)).toEqual([true, true, true]);
    expect(new Set(answers.map((answer) => answer.xact)).size).toBe(1);
    expect(await plates("NOSAVE-")).toEqual(["NOSAVE-0", "NOSAVE-1", "NOSAVE-2"]);
  });

  postgresOnly("a work that fails alone is answered at once; one refused before any statement leaves the others in the first pass", async () => {
    let runs = 0;
    const alone = service.db.transaction(async (write) => {
      runs++;
      await write.execute(insertPlate("ALONE-1"));
      throw new Error("the rule refused");
    }, network.id);
    await expect(alone).rejects.toThrow("the rule refused");
    expect(runs).toBe(1);
    expect(await plates("ALONE-")).toEqual([]);

    const groupRuns = [0, 0, 0];
    const outcomes = await Promise.allSettled(
      [0, 1, 2].map((n) =>
        service.db.transaction(async (write) => {
          groupRuns[n]++;
          if (n === 1) throw new Error("refused before writing");
          await write.execute(insertPlate(`EARLY-${n}`));
          return (await write.returning<{ top: boolean }>(writtenByTheTransaction(`EARLY-${n}`)))[0].top;
        }, network.id),
      ),
    );
    expect(outcomes.map((outcome) => outcome.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect(outcomes.map((outcome) => (outcome.status === "fulfilled" ? outcome.value : null))).toEqual([true, null, true]);
    expect(groupRuns).toEqual([1, 1, 1]);
    expect(await plates("EARLY-")).toEqual(["EARLY-0", "EARLY-2"]);
  });

  postgresOnly("a failure after a done work: the savepoint pass keeps the others, each in its savepoint", async () => {
    const outcomes = await Promise.allSettled(
      [0, 1, 2].map((n) =>
        service.db.transaction(async (write) => {
          await write.execute(insertPlate(`AGAIN-${n}`));
          if (n === 1) throw new Error("the rule refused");
          return (await write.returning<{ top: boolean }>(writtenByTheTransaction(`AGAIN-${n}`)))[0].top;
        }, network.id),
      ),
    );
    expect(outcomes.map((outcome) => outcome.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    // Written in subtransactions: the savepoint pass's.
    expect(outcomes.map((outcome) => (outcome.status === "fulfilled" ? outcome.value : null))).toEqual([false, null, false]);
    expect(await plates("AGAIN-")).toEqual(["AGAIN-0", "AGAIN-2"]);
  });

  // Works of one statement (WorkShape): in the first pass each is sent once the one before has
  // sent its statement, without waiting for its answer; each issues its events at its turn.
  const oneStatement = { oneStatement: true } as const;

  postgresOnly("works of one statement are sent before the answers of those before them; any other waits for them", async () => {
    let firstAnswered = false;
    const answeredWhenCalled: boolean[] = [];
    const outcomes = await Promise.all([
      service.db.transaction(async (write) => {
        answeredWhenCalled.push(firstAnswered);
        await write.returning(Prisma.sql`SELECT pg_sleep(0.2)`);
        firstAnswered = true;
        return 0;
      }, network.id, oneStatement),
      service.db.transaction(async (write) => {
        answeredWhenCalled.push(firstAnswered);
        await write.execute(insertPlate("SHAPED-1"));
        return 1;
      }, network.id, oneStatement),
      // Not of that shape: called once those before it have ended.
      service.db.transaction(async (write) => {
        answeredWhenCalled.push(firstAnswered);
        await write.execute(insertPlate("SHAPED-2"));
        return 2;
      }, network.id),
    ]);
    expect(outcomes).toEqual([0, 1, 2]);
    expect(answeredWhenCalled).toEqual([false, false, true]);
    expect(await plates("SHAPED-")).toEqual(["SHAPED-1", "SHAPED-2"]);
  });

  postgresOnly("the events of works of one statement follow the works' order, even when one before takes longer to record", async () => {
    const scope = { db: service.db, network: { id: network.id }, key: operatorKey, now: () => new Date() };
    const before = await lastSequence();
    await Promise.all(
      [0, 1, 2].map((n) =>
        changeInOneStatement(scope, async (tx, record) => {
          await tx.write.execute(insertPlate(`TURN-${n}`));
          // The first is slow to record: the others' events wait for its turn.
          if (n === 0) await new Promise((resolve) => setTimeout(resolve, 100));
          record("network.updated", network.id, { changes: { name: { from: "a", to: `turn ${n}` } } });
          return n;
        }),
      ),
    );
    const events = await service.db.read<{ sequence: number; data: string }>(
      Prisma.sql`SELECT sequence, data FROM events WHERE network_id = ${network.id} AND sequence > ${before} ORDER BY sequence`,
    );
    expect(events.map((event) => JSON.parse(event.data).changes.name.to)).toEqual(["turn 0", "turn 1", "turn 2"]);
  });

  postgresOnly("a work that breaks its shape (a second statement before its turn) runs again in a savepoint, and is kept once", async () => {
    const runs = [0, 0];
    const answers = await Promise.all(
      [0, 1].map((n) =>
        service.db.transaction(
          async (write) => {
            runs[n]++;
            await write.execute(insertPlate(`BROKEN-${n}`));
            return (await write.returning<{ top: boolean }>(writtenByTheTransaction(`BROKEN-${n}`)))[0].top;
          },
          network.id,
          oneStatement,
        ),
      ),
    );
    // Written in the savepoint pass's subtransactions.
    expect(answers).toEqual([false, false]);
    expect(runs).toEqual([2, 2]);
    expect(await plates("BROKEN-")).toEqual(["BROKEN-0", "BROKEN-1"]);
  });

  postgresOnly("changes run again after a failure record their events once: sequences without gaps, one per kept change", async () => {
    const scope = { db: service.db, network: { id: network.id }, key: operatorKey, now: () => new Date() };
    const before = await lastSequence();
    const outcomes = await Promise.allSettled(
      [0, 1, 2, 3].map((n) =>
        changeWithEvents(scope, async (tx, record) => {
          issued(tx.write.execute(insertPlate(`EVRUN-${n}`)));
          record("network.updated", network.id, { changes: { name: { from: "a", to: `run ${n}` } } });
          if (n === 1) issued(tx.write.execute(Prisma.sql`INSERT INTO no_such_table (x) VALUES (1)`));
          return n;
        }),
      ),
    );
    expect(outcomes.map((outcome) => outcome.status)).toEqual(["fulfilled", "rejected", "fulfilled", "fulfilled"]);
    expect(await plates("EVRUN-")).toEqual(["EVRUN-0", "EVRUN-2", "EVRUN-3"]);
    const events = await service.db.read<{ sequence: number; data: string }>(
      Prisma.sql`SELECT sequence, data FROM events WHERE network_id = ${network.id} AND sequence > ${before} ORDER BY sequence`,
    );
    expect(events.map((event) => Number(event.sequence))).toEqual([before + 1, before + 2, before + 3]);
    expect(events.map((event) => JSON.parse(event.data).changes.name.to)).toEqual(["run 0", "run 2", "run 3"]);
  });

  postgresOnly("when the group's connection fails, every transaction of it fails and nothing is kept", async () => {
    const outcomes = await Promise.allSettled([
      service.db.transaction((write) => write.execute(insertPlate("PLOST-1")), network.id),
      service.db.transaction(async (write) => {
        await write.execute(insertPlate("PLOST-2"));
        return write.returning(Prisma.sql`SELECT pg_terminate_backend(pg_backend_pid())`);
      }, network.id),
      service.db.transaction((write) => write.execute(insertPlate("PLOST-3")), network.id),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(["rejected", "rejected", "rejected"]);
    expect(await plates("PLOST-")).toEqual([]);
    await expect(service.db.transaction((write) => write.execute(insertPlate("PLOST-AFTER")), network.id)).resolves.toBe(1);
    expect(await plates("PLOST-")).toEqual(["PLOST-AFTER"]);
  });

  postgresOnly("when the group's COMMIT fails, every transaction of it fails and nothing is kept", async () => {
    const outcomes = await Promise.allSettled([
      service.db.transaction((write) => write.execute(insertPlate("PCOMMIT-1")), network.id),
      // A constraint checked at COMMIT.
      service.db.transaction(async (write) => {
        await write.execute(Prisma.sql`CREATE TEMP TABLE commit_parent (id int PRIMARY KEY)`);
        await write.execute(Prisma.sql`CREATE TEMP TABLE commit_child (parent int REFERENCES commit_parent (id) DEFERRABLE INITIALLY DEFERRED)`);
        return write.execute(Prisma.sql`INSERT INTO commit_child (parent) VALUES (1)`);
      }, network.id),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(["rejected", "rejected"]);
    expect(String((outcomes[0] as PromiseRejectedResult).reason)).toMatch(/foreign key/i);
    expect(await plates("PCOMMIT-")).toEqual([]);
    await expect(service.db.transaction((write) => write.execute(insertPlate("PCOMMIT-AFTER")), network.id)).resolves.toBe(1);
    expect(await plates("PCOMMIT-")).toEqual(["PCOMMIT-AFTER"]);
  });
});

test("a transaction has every store of the database, each made once, on the transaction's writes", async () => {
  expect(storeNames.length).toBeGreaterThan(0);
  await service.db.inTransaction(async (tx) => {
    for (const name of storeNames) {
      expect(service.db[name]).toBeDefined();
      expect(tx[name]).toBeDefined();
      // Made for this transaction, and only once in it.
      expect(tx[name]).not.toBe(service.db[name]);
      expect(tx[name]).toBe(tx[name]);
    }
    expect(Object.keys(tx.vehicles).sort()).toEqual(Object.keys(service.db.vehicles).sort());
  }, network.id);
});
