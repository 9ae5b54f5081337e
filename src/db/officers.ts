// Officers, the same on SQLite and PostgreSQL: looked up on the read path (every dutytime call
// starts there), added through Prisma's client (not hot).
import { Prisma, type Officer, type PrismaClient } from "../generated/prisma/client";
import type { ReadSql } from "./adapterReads";
import type { OfficerStore } from "./store";
import { storedInstant } from "./storedInstant";

async function officerOf(read: ReadSql, networkId: number, identifier: string): Promise<Officer | null> {
  // On the read path (src/db/adapterReads.ts): every dutytime call starts here.
  const row = await read.byKey<{ id: number; network_id: number; identifier: string; name: string; created_at: Date | string }>(Prisma.sql`
    SELECT id, network_id, identifier, name, created_at FROM officers
    WHERE network_id = ${networkId} AND identifier = ${identifier}`);
  if (!row) return null;
  return { id: Number(row.id), networkId: Number(row.network_id), identifier: row.identifier, name: row.name, createdAt: storedInstant(row.created_at) };
}

export function officerStore(read: ReadSql, prisma: PrismaClient): OfficerStore {
  return {
    byIdentifier: (networkId, identifier) => officerOf(read, networkId, identifier),
    add: (officer) => prisma.officer.create({ data: officer }),
  };
}
