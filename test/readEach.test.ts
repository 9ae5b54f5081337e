// ReadSql.each visits a read's rows one at a time (a report's entries): SQLite steps its
// statement, PostgreSQL takes pg's rows as they are parsed. Whatever the database, `each` must
// visit the rows `read` answers, in order, and a visit that throws must leave the connection
// usable (the statement run to its end, the pool's connection given back).
import { Prisma } from "../src/generated/prisma/client";
import { openDatabase, type Database } from "../src/db/client";
import { migrate } from "../src/db/migrate";
import { freshDatabase, type FreshDatabase } from "./support/database";

let fresh: FreshDatabase;
let db: Database;
let networkId: number;

beforeAll(async () => {
  fresh = await freshDatabase();
  await migrate(fresh.url);
  db = await openDatabase(fresh.url);
  networkId = (await db.prisma.network.create({ data: { name: "Each", identifierType: "steam", createdAt: new Date() } })).id;
  const officer = await db.prisma.officer.create({ data: { networkId, identifier: "steam:1", name: "One", createdAt: new Date() } });
  for (let i = 0; i < 25; i++) {
    await db.prisma.dutytimeEntry.create({
      data: { networkId, officerId: officer.id, startedAt: new Date(Date.UTC(2026, 10, 1, i)), endedAt: i === 24 ? null : new Date(Date.UTC(2026, 10, 1, i, 30)) },
    });
  }
});
afterAll(async () => {
  await db?.close();
  await fresh?.drop();
});

const entries = () => Prisma.sql`SELECT d.id, d.started_at, d.ended_at FROM dutytime_entries d WHERE d.network_id = ${networkId} ORDER BY d.id`;

test("visits the rows the read answers, in order, with the same values", async () => {
  const visited: unknown[] = [];
  await db.read.each(entries(), (row) => visited.push(row));
  const read = await db.read(entries());
  expect(visited).toHaveLength(25);
  expect(visited).toEqual(read);
});

test("a visit that throws rejects with its first error; the connection serves the next reads", async () => {
  // More rounds than a pool has connections: one not given back would make a round wait forever.
  for (let round = 0; round < 40; round++) {
    let visits = 0;
    await expect(
      db.read.each(entries(), () => {
        visits++;
        throw new Error(`visit ${visits}`);
      }),
    ).rejects.toThrow("visit 1");
    expect(visits).toBe(1);
  }
  expect(await db.read(entries())).toHaveLength(25);
});

test("a statement the database refuses rejects with the database's error; the next reads are answered", async () => {
  for (let round = 0; round < 40; round++) {
    await expect(db.read.each(Prisma.sql`SELECT no_such_column FROM dutytime_entries`, () => undefined)).rejects.toThrow(/no_such_column/);
  }
  let count = 0;
  await db.read.each(entries(), () => count++);
  expect(count).toBe(25);
});
