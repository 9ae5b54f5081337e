// Duty time entries, the same SQL on SQLite and PostgreSQL (a report's entries, read as one text,
// are in src/db/reportEntriesRead.ts). Both writes are plain SQL on Prisma's adapter
// (src/db/adapterWrites.ts): a connector toggles at every shift change, and Prisma's client would
// be most of a toggle's CPU. Who is on duty is read on the read path: a
// dashboard polls it.
import { Prisma } from "../generated/prisma/client";
import type { ReadSql } from "./adapterReads";
import type { WriteSql } from "./adapterWrites";
import { fixedStatement } from "./fixedStatement";
import { readBetweenCommits, type CommitEpoch } from "./betweenCommits";
import type { DatabaseProvider } from "../config/database";
import { readReportEntries } from "./reportEntriesRead";
import type { ActiveOfficer, DutytimeEntry, DutytimeStore, Toggled } from "./store";
import { sameInstantOf, storedInstant } from "./storedInstant";

// A toggle's statements, each sent at every shift change: their text is made once (./fixedStatement.ts).
const stopOpen = fixedStatement(
  (networkId: number, officerId: number, endedAt: Date) => Prisma.sql`
    UPDATE dutytime_entries SET ended_at = ${endedAt}
    WHERE officer_id = ${officerId} AND network_id = ${networkId} AND ended_at IS NULL
    RETURNING id, officer_id, started_at, ended_at, auto_stopped`,
);

const start = fixedStatement(
  (networkId: number, officerId: number, startedAt: Date) => Prisma.sql`
    INSERT INTO dutytime_entries (network_id, officer_id, started_at) VALUES (${networkId}, ${officerId}, ${startedAt}) RETURNING id`,
);

// The INSERT's values are typed as its columns: a parameter in a SELECT list has no type of its own.
const toggleInOne = fixedStatement(
  (networkId: number, officerId: number, at: Date) => Prisma.sql`
    WITH stopped AS (
      UPDATE dutytime_entries SET ended_at = ${at}
      WHERE officer_id = ${officerId} AND network_id = ${networkId} AND ended_at IS NULL
      RETURNING id, officer_id, started_at, ended_at, auto_stopped
    ), started AS (
      INSERT INTO dutytime_entries (network_id, officer_id, started_at)
      SELECT ${networkId}::integer, ${officerId}::integer, ${at}::timestamp(3) WHERE NOT EXISTS (SELECT 1 FROM stopped)
      RETURNING id, officer_id, started_at, ended_at, auto_stopped
    )
    SELECT * FROM stopped UNION ALL SELECT * FROM started`,
);

async function stopOpenEntries(write: WriteSql, networkId: number, officerId: number, endedAt: Date): Promise<DutytimeEntry[]> {
  const rows = await write.returning<EntryRow>(stopOpen(networkId, officerId, endedAt));
  return rows.map(entryOf);
}

async function startEntry(write: WriteSql, networkId: number, officerId: number, startedAt: Date): Promise<number> {
  const [row] = await write.returning<{ id: number | string }>(start(networkId, officerId, startedAt));
  return Number(row.id);
}

/**
 * Stops the officer's open entries, or, when there is none, opens one, all at `at`. On PostgreSQL
 * one statement: a toggle in a group of a network's changes (src/db/postgres/transactions.ts)
 * holds the group, and the network's row, for each round trip it awaits, and a start took two.
 * SQLite's statements make no round trip.
 */
async function toggleEntries(write: WriteSql, provider: DatabaseProvider, networkId: number, officerId: number, at: Date): Promise<Toggled> {
  if (provider === "sqlite") {
    const stopped = await stopOpenEntries(write, networkId, officerId, at);
    if (stopped.length > 0) return { stopped, started: null };
    const id = await startEntry(write, networkId, officerId, at);
    return { stopped, started: { id, officerId, startedAt: at, endedAt: null, autoStopped: false } };
  }
  const rows = await write.returning<EntryRow>(toggleInOne(networkId, officerId, at));
  const entries = rows.map(entryOf);
  // A started entry is the one still open.
  const started = entries.find((entry) => entry.endedAt === null) ?? null;
  return { stopped: started === null ? entries : [], started };
}

async function activeOfficers(read: ReadSql, networkId: number): Promise<ActiveOfficer[]> {
  const rows = await read<{ identifier: string; name: string; started_at: Date | string }>(Prisma.sql`
    SELECT o.identifier, o.name, d.started_at
    FROM dutytime_entries d JOIN officers o ON o.id = d.officer_id AND o.network_id = d.network_id
    WHERE d.network_id = ${networkId} AND d.ended_at IS NULL
    ORDER BY d.started_at ASC, d.id ASC`);
  return rows.map((row) => ({ identifier: row.identifier, name: row.name, startedAt: storedInstant(row.started_at) }));
}

interface EntryRow {
  id: number | string;
  officer_id: number | string;
  started_at: Date | string;
  ended_at: Date | string | null;
  auto_stopped: boolean | number;
}

const entryColumns = Prisma.raw("d.id, d.officer_id, d.started_at, d.ended_at, d.auto_stopped");

const entryOf = (row: EntryRow): DutytimeEntry => ({
  id: Number(row.id),
  officerId: Number(row.officer_id),
  startedAt: storedInstant(row.started_at),
  endedAt: row.ended_at === null ? null : storedInstant(row.ended_at),
  // SQLite answers 0 or 1.
  autoStopped: row.auto_stopped === true || Number(row.auto_stopped) === 1,
});

/** Entries that meet [from, to): started before its end, not ended by its start (null: unbounded). */
function meetingWhere(from: Date | null, to: Date | null): Prisma.Sql {
  const started = to === null ? Prisma.empty : Prisma.sql` AND d.started_at < ${to}`;
  const ended = from === null ? Prisma.empty : Prisma.sql` AND (d.ended_at IS NULL OR d.ended_at > ${from})`;
  return Prisma.sql`${started}${ended}`;
}

async function openEntries(read: ReadSql, networkId: number, officerIds: readonly number[]): Promise<DutytimeEntry[]> {
  if (officerIds.length === 0) return [];
  const rows = await read<EntryRow>(Prisma.sql`
    SELECT ${entryColumns} FROM dutytime_entries d
    WHERE d.network_id = ${networkId} AND d.ended_at IS NULL AND d.officer_id IN (${Prisma.join(officerIds)})`);
  return rows.map(entryOf);
}

async function entriesOf(
  read: ReadSql,
  networkId: number,
  officerId: number,
  range: { from: Date | null; to: Date | null },
  page: { limit: number; offset: number },
): Promise<{ data: DutytimeEntry[]; total: number }> {
  const where = Prisma.sql`WHERE d.network_id = ${networkId} AND d.officer_id = ${officerId}${meetingWhere(range.from, range.to)}`;
  const [counted, rows] = await Promise.all([
    read.first<{ total: number | string }>(Prisma.sql`SELECT COUNT(*) AS total FROM dutytime_entries d ${where}`),
    read<EntryRow>(Prisma.sql`
      SELECT ${entryColumns} FROM dutytime_entries d ${where}
      ORDER BY d.started_at DESC, d.id DESC LIMIT ${page.limit} OFFSET ${page.offset}`),
  ]);
  return { data: rows.map(entryOf), total: Number(counted?.total ?? 0) };
}

async function openSince(read: ReadSql, networkId: number, startedBefore: Date): Promise<DutytimeEntry[]> {
  const rows = await read<EntryRow>(Prisma.sql`
    SELECT ${entryColumns} FROM dutytime_entries d
    WHERE d.network_id = ${networkId} AND d.ended_at IS NULL AND d.started_at < ${startedBefore}`);
  return rows.map(entryOf);
}

async function entryById(read: ReadSql, networkId: number, id: number): Promise<DutytimeEntry | null> {
  const row = await read.byKey<EntryRow>(Prisma.sql`
    SELECT ${entryColumns} FROM dutytime_entries d WHERE d.id = ${id} AND d.network_id = ${networkId}`);
  return row ? entryOf(row) : null;
}

/** The officer's other entries that meet [startedAt, endedAt) (null: open). */
const othersMeeting = (networkId: number, entry: DutytimeEntry, startedAt: Date, endedAt: Date | null) => Prisma.sql`
  FROM dutytime_entries d
  WHERE d.officer_id = ${entry.officerId} AND d.network_id = ${networkId} AND d.id <> ${entry.id}${meetingWhere(startedAt, endedAt)}`;

/**
 * Who is on duty, read again only after a commit where an epoch is given (./betweenCommits.ts):
 * a dashboard polls it. The list answered is shared by the requests of an epoch: never changed.
 */
const onDutyBetweenCommits = readBetweenCommits(activeOfficers);

/** `commitEpoch`: every commit's (SQLite: ./sqlite/commits.ts), for who is on duty between commits; none in a transaction. */
export function dutytimeStore(read: ReadSql, write: WriteSql, provider: DatabaseProvider, commitEpoch?: CommitEpoch): DutytimeStore {
  return {
    stopOpen: (networkId, officerId, endedAt) => stopOpenEntries(write, networkId, officerId, endedAt),
    toggle: (networkId, officerId, at) => toggleEntries(write, provider, networkId, officerId, at),
    onDuty: (networkId) => onDutyBetweenCommits(read, networkId, commitEpoch),
    openEntries: (networkId, officerIds) => openEntries(read, networkId, officerIds),
    entriesOf: (networkId, officerId, range, page) => entriesOf(read, networkId, officerId, range, page),
    version: async (networkId) => {
      const row = await read.byKey<{ version: number | string }>(Prisma.sql`SELECT dutytime_version AS version FROM networks WHERE id = ${networkId}`);
      return String(row?.version ?? "");
    },
    entriesMeeting: (networkId, from, to, officerIds) => readReportEntries(read, provider, networkId, from, to, officerIds),
    openSince: (networkId, startedBefore) => openSince(read, networkId, startedBefore),
    autoStop: async (networkId, id, endedAt) =>
      (await write.execute(Prisma.sql`
        UPDATE dutytime_entries SET ended_at = ${endedAt}, auto_stopped = TRUE
        WHERE id = ${id} AND network_id = ${networkId} AND ended_at IS NULL`)) > 0,
    byId: (networkId, id) => entryById(read, networkId, id),
    correct: async (networkId, entry, startedAt, endedAt) => {
      const same = sameInstantOf(provider);
      const endedAsRead = entry.endedAt === null ? Prisma.sql`ended_at IS NULL` : same("ended_at", entry.endedAt);
      return (
        (await write.execute(Prisma.sql`
          UPDATE dutytime_entries SET started_at = ${startedAt}, ended_at = ${endedAt}, auto_stopped = FALSE
          WHERE id = ${entry.id} AND network_id = ${networkId} AND ${same("started_at", entry.startedAt)} AND ${endedAsRead}
            AND NOT EXISTS (SELECT 1 ${othersMeeting(networkId, entry, startedAt, endedAt)})`)) > 0
      );
    },
    meeting: async (networkId, entry, startedAt, endedAt) => {
      const row = await read.first<EntryRow>(Prisma.sql`
        SELECT ${entryColumns} ${othersMeeting(networkId, entry, startedAt, endedAt)} ORDER BY d.started_at LIMIT 1`);
      return row ? entryOf(row) : null;
    },
  };
}
