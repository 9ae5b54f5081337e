// Mission reports, patient files and offender files, the same SQL on SQLite and PostgreSQL. Added
// through the write path (src/db/adapterWrites.ts), so that each joins the transaction of its
// event (src/events/record.ts).
import { Prisma } from "../generated/prisma/client";
import type { WriteSql } from "./adapterWrites";
import type { RecordStore } from "./store";
import { storedInstant } from "./storedInstant";

interface RecordRow {
  id: number | string;
  network_id: number | string;
  created_at: Date | string | null;
}

/** Inserts a record of the table with its one text column; answers it as stored. */
async function addRecord<Name extends string>(
  write: WriteSql,
  table: string,
  column: { sql: string; name: Name },
  record: { networkId: number; createdAt: Date | null } & { [K in Name]: string | null },
) {
  const [row] = await write.returning<RecordRow & { text: string | null }>(Prisma.sql`
    INSERT INTO ${Prisma.raw(table)} (network_id, ${Prisma.raw(column.sql)}, created_at)
    VALUES (${record.networkId}, ${record[column.name]}, ${record.createdAt})
    RETURNING id, network_id, ${Prisma.raw(column.sql)} AS text, created_at`);
  return {
    id: Number(row.id),
    networkId: Number(row.network_id),
    createdAt: row.created_at === null ? null : storedInstant(row.created_at),
    [column.name]: row.text,
  } as { id: number; networkId: number; createdAt: Date | null } & { [K in Name]: string | null };
}

export function recordStore(write: WriteSql): RecordStore {
  return {
    addMissionReport: (report) => addRecord(write, "mission_reports", { sql: "title", name: "title" }, report),
    addPatientFile: (file) => addRecord(write, "patient_files", { sql: "patient_name", name: "patientName" }, file),
    addOffenderFile: (file) => addRecord(write, "offender_files", { sql: "offender_name", name: "offenderName" }, file),
  };
}
