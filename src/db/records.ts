// Mission reports, patient files and offender files, added through Prisma's client (not hot):
// the same on SQLite and PostgreSQL.
import type { PrismaClient } from "../generated/prisma/client";
import type { RecordStore } from "./store";

export function recordStore(prisma: PrismaClient): RecordStore {
  return {
    addMissionReport: (report) => prisma.missionReport.create({ data: report }),
    addPatientFile: (file) => prisma.patientFile.create({ data: file }),
    addOffenderFile: (file) => prisma.offenderFile.create({ data: file }),
  };
}
