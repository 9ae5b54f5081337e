// A report's entries are read as one text the database builds (src/db/reportEntriesRead.ts): its
// instants must be the stored ones to the millisecond, on both databases, and only the entries
// of the network, officers and range asked for.
import { openDatabase, type Database } from "../src/db/client";
import { migrate } from "../src/db/migrate";
import { readReportEntries, reportEntriesOf } from "../src/db/reportEntriesRead";
import type { ReportEntries } from "../src/db/store";
import { freshDatabase, type FreshDatabase } from "./support/database";

let fresh: FreshDatabase;
let db: Database;
let networkId: number;
let officerIds: number[];

const from = new Date("2026-11-01T00:00:00.000Z");
const to = new Date("2026-11-08T00:00:00.000Z");
const at = (iso: string) => new Date(iso);

/** [officer index, start, end (null: open)] as stored; the comment says whether the range meets it. */
const stored: Array<[number, string, string | null]> = [
  [0, "2026-10-31T22:00:00.999Z", "2026-11-01T00:00:00.001Z"], // ends just after from: read
  [0, "2026-10-31T20:00:00.000Z", "2026-11-01T00:00:00.000Z"], // ends at from: not read
  [0, "2026-11-03T08:15:30.123Z", "2026-11-03T16:45:59.999Z"], // inside: read
  [0, "2026-11-07T23:59:59.999Z", null], // open, starts before to: read
  [1, "2026-11-02T00:00:00.000Z", "2026-11-09T12:00:00.000Z"], // spans the range's end: read
  [1, "2026-11-08T00:00:00.000Z", "2026-11-08T05:00:00.000Z"], // starts at to: not read
  [2, "2026-11-04T10:00:00.500Z", "2026-11-04T11:00:00.500Z"], // another officer: read unless filtered out
];

beforeAll(async () => {
  fresh = await freshDatabase();
  await migrate(fresh.url);
  db = await openDatabase(fresh.url);
  const network = async (name: string) => (await db.prisma.network.create({ data: { name, identifierType: "steam", createdAt: new Date() } })).id;
  networkId = await network("Read");
  const other = await network("Other");
  officerIds = [];
  for (let i = 0; i < 3; i++) {
    officerIds.push((await db.prisma.officer.create({ data: { networkId, identifier: `steam:${i}`, name: `Officer ${i}`, createdAt: new Date() } })).id);
  }
  for (const [officer, start, end] of stored) {
    await db.prisma.dutytimeEntry.create({ data: { networkId, officerId: officerIds[officer], startedAt: at(start), endedAt: end === null ? null : at(end) } });
  }
  // Another network's entry in the same range is never read.
  const stranger = await db.prisma.officer.create({ data: { networkId: other, identifier: "steam:0", name: "Stranger", createdAt: new Date() } });
  await db.prisma.dutytimeEntry.create({ data: { networkId: other, officerId: stranger.id, startedAt: at("2026-11-03T00:00:00.000Z"), endedAt: at("2026-11-03T01:00:00.000Z") } });
});
afterAll(async () => {
  await db?.close();
  await fresh?.drop();
});

/** What the read must answer: the stored entries that meet [from, to), by officer, sorted by start (order is not part of the contract). */
function expected(officers: number[]): Array<[number, number[]]> {
  const entries: ReportEntries = new Map();
  for (const [officer, start, end] of stored) {
    const startMs = at(start).getTime();
    const endMs = end === null ? Infinity : at(end).getTime();
    if (!officers.includes(officer) || startMs >= to.getTime() || endMs <= from.getTime()) continue;
    entries.set(officerIds[officer], [...(entries.get(officerIds[officer]) ?? []), startMs, endMs]);
  }
  return sorted(entries);
}

function sorted(entries: ReportEntries): Array<[number, number[]]> {
  return [...entries]
    .map(([officer, flat]): [number, number[]] => {
      const pairs: number[][] = [];
      for (let i = 0; i < flat.length; i += 2) pairs.push([flat[i], flat[i + 1]]);
      pairs.sort((a, b) => a[0] - b[0]);
      return [officer, pairs.flat()];
    })
    .sort((a, b) => a[0] - b[0]);
}

test("the entries meeting the range, their instants to the millisecond, open ones ending at Infinity", async () => {
  const read = await readReportEntries(db.read, db.provider, networkId, from, to, null);
  expect(sorted(read)).toEqual(expected([0, 1, 2]));
  // Of the 7 stored: the one ending at `from` and the one starting at `to` are left out.
  expect([...read.values()].reduce((sum, flat) => sum + flat.length / 2, 0)).toBe(5);
});

test("only the officers asked for; none asked for reads none", async () => {
  expect(sorted(await readReportEntries(db.read, db.provider, networkId, from, to, [officerIds[2]]))).toEqual(expected([2]));
  expect((await readReportEntries(db.read, db.provider, networkId, from, to, [])).size).toBe(0);
});

test("a range with no entries reads an empty map", async () => {
  expect((await readReportEntries(db.read, db.provider, networkId, at("2020-01-01T00:00:00Z"), at("2020-02-01T00:00:00Z"), null)).size).toBe(0);
});

test("the text is read as officer, start and end, an empty end open, from one row or several", () => {
  expect(reportEntriesOf([]).size).toBe(0);
  expect(reportEntriesOf([null]).size).toBe(0);
  expect(reportEntriesOf([""]).size).toBe(0);
  const expected = [
    [7, [1000, 2999, 1762000000123, 1762000000999]],
    [8, [5, Infinity]],
  ];
  expect([...reportEntriesOf(["7,1000,2999,8,5,,7,1762000000123,1762000000999"])]).toEqual(expected);
  // PostgreSQL's rows, one per officer.
  expect([...reportEntriesOf(["7,1000,2999,7,1762000000123,1762000000999", null, "8,5,"])]).toEqual(expected);
});

test("the text's bytes (SQLite's BLOB, as libsql's Buffer or @libsql/client's ArrayBuffer) read as the text", () => {
  const text = "7,1000,2999,8,5,,7,1762000000123,1762000000999";
  const bytes = Buffer.from(text, "ascii");
  const arrayBuffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  expect([...reportEntriesOf([bytes])]).toEqual([...reportEntriesOf([text])]);
  expect([...reportEntriesOf([arrayBuffer])]).toEqual([...reportEntriesOf([text])]);
  expect(reportEntriesOf([new Uint8Array(0)]).size).toBe(0);
});
