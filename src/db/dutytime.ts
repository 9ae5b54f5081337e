// Duty time entries, the same SQL on SQLite and PostgreSQL. Both writes are plain SQL on
// Prisma's adapter (src/db/adapterWrites.ts): a connector toggles at every shift change, and
// Prisma's client would be most of a toggle's CPU. Who is on duty is read on the read path: a
// dashboard polls it.
import { Prisma } from "../generated/prisma/client";
import type { ReadSql } from "./adapterReads";
import type { WriteSql } from "./adapterWrites";
import type { ActiveOfficer, DutytimeStore } from "./store";
import { storedInstant } from "./storedInstant";

async function stopOpenEntries(write: WriteSql, networkId: number, officerId: number, endedAt: Date): Promise<number> {
  return write.execute(Prisma.sql`
    UPDATE dutytime_entries SET ended_at = ${endedAt}
    WHERE officer_id = ${officerId} AND network_id = ${networkId} AND ended_at IS NULL`);
}

async function startEntry(write: WriteSql, networkId: number, officerId: number, startedAt: Date): Promise<void> {
  await write.execute(Prisma.sql`
    INSERT INTO dutytime_entries (network_id, officer_id, started_at) VALUES (${networkId}, ${officerId}, ${startedAt})`);
}

async function activeOfficers(read: ReadSql, networkId: number): Promise<ActiveOfficer[]> {
  const rows = await read<{ identifier: string; name: string; started_at: Date | string }>(Prisma.sql`
    SELECT o.identifier, o.name, d.started_at
    FROM dutytime_entries d JOIN officers o ON o.id = d.officer_id AND o.network_id = d.network_id
    WHERE d.network_id = ${networkId} AND d.ended_at IS NULL
    ORDER BY d.started_at ASC, d.id ASC`);
  return rows.map((row) => ({ identifier: row.identifier, name: row.name, startedAt: storedInstant(row.started_at) }));
}

export function dutytimeStore(read: ReadSql, write: WriteSql): DutytimeStore {
  return {
    stopOpen: (networkId, officerId, endedAt) => stopOpenEntries(write, networkId, officerId, endedAt),
    start: (networkId, officerId, startedAt) => startEntry(write, networkId, officerId, startedAt),
    onDuty: (networkId) => activeOfficers(read, networkId),
  };
}
