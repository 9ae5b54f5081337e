// Officers, the same SQL on SQLite and PostgreSQL: looked up and listed on the read path (every
// dutytime call starts with a look-up), changed on the write path, so that each change joins the
// transaction of its event (src/events/record.ts).
import { Prisma, type Officer } from "../generated/prisma/client";
import type { ReadSql } from "./adapterReads";
import type { WriteSql } from "./adapterWrites";
import { fixedStatement } from "./fixedStatement";
import type { OfficerListRequest, OfficerStore } from "./store";
import { storedInstant } from "./storedInstant";

interface OfficerRow {
  id: number | string;
  network_id: number | string;
  identifier: string;
  name: string;
  created_at: Date | string;
  removed_at: Date | string | null;
}

const officerColumns = Prisma.raw("o.id, o.network_id, o.identifier, o.name, o.created_at, o.removed_at");

const officerOf = (row: OfficerRow): Officer => ({
  id: Number(row.id),
  networkId: Number(row.network_id),
  identifier: row.identifier,
  name: row.name,
  createdAt: storedInstant(row.created_at),
  removedAt: row.removed_at === null ? null : storedInstant(row.removed_at),
});

// Every dutytime call looks its officer up: the look-ups' text is made once (./fixedStatement.ts).
const byIdentifier = fixedStatement(
  (networkId: number, identifier: string) => Prisma.sql`SELECT ${officerColumns} FROM officers o WHERE o.network_id = ${networkId} AND o.identifier = ${identifier}`,
);
/** Every officer of the network, as a report names them: removed_at is only compared with null. */
const reportOfficers = fixedStatement((networkId: number) => Prisma.sql`SELECT o.id, o.identifier, o.name, o.removed_at FROM officers o WHERE o.network_id = ${networkId}`);
const byId = fixedStatement((networkId: number, id: number) => Prisma.sql`SELECT ${officerColumns} FROM officers o WHERE o.id = ${id} AND o.network_id = ${networkId}`);

async function officerByIdentifier(read: ReadSql, networkId: number, identifier: string): Promise<Officer | null> {
  const row = await read.byKey<OfficerRow>(byIdentifier(networkId, identifier));
  return row ? officerOf(row) : null;
}

async function officerById(read: ReadSql, networkId: number, id: number): Promise<Officer | null> {
  const row = await read.byKey<OfficerRow>(byId(networkId, id));
  return row ? officerOf(row) : null;
}

/** The network's officers (not removed) of the request, without a search: by name, then id. */
function listedWhere(networkId: number, onDuty: boolean | null): Prisma.Sql {
  const open = Prisma.sql`SELECT 1 FROM dutytime_entries d WHERE d.officer_id = o.id AND d.network_id = o.network_id AND d.ended_at IS NULL`;
  const duty = onDuty === null ? Prisma.empty : onDuty ? Prisma.sql` AND EXISTS (${open})` : Prisma.sql` AND NOT EXISTS (${open})`;
  return Prisma.sql`WHERE o.network_id = ${networkId} AND o.removed_at IS NULL${duty}`;
}

async function officerPage(read: ReadSql, networkId: number, request: OfficerListRequest): Promise<{ data: Officer[]; total: number }> {
  const where = listedWhere(networkId, request.onDuty);
  if (request.matches) {
    // A search is a substring of the name or identifier, compared as JavaScript lower-cases them
    // (one rule on both databases, for every alphabet): the network's officers are read and
    // matched here. A network has hundreds of officers, not the vehicles' hundreds of thousands.
    const rows = await read<OfficerRow>(Prisma.sql`SELECT ${officerColumns} FROM officers o ${where} ORDER BY o.name, o.id`);
    const found = rows.map(officerOf).filter(request.matches);
    return { data: found.slice(request.offset, request.offset + request.limit), total: found.length };
  }
  const [counted, rows] = await Promise.all([
    read.first<{ total: number | string }>(Prisma.sql`SELECT COUNT(*) AS total FROM officers o ${where}`),
    read<OfficerRow>(Prisma.sql`SELECT ${officerColumns} FROM officers o ${where} ORDER BY o.name, o.id LIMIT ${request.limit} OFFSET ${request.offset}`),
  ]);
  return { data: rows.map(officerOf), total: Number(counted?.total ?? 0) };
}

/** The columns an officer's change may set. */
const changeColumns = { name: "name", removedAt: "removed_at" } as const;

export function officerStore(read: ReadSql, write: WriteSql): OfficerStore {
  return {
    byId: (networkId, id) => officerById(read, networkId, id),
    byIdentifier: (networkId, identifier) => officerByIdentifier(read, networkId, identifier),
    byIdentifiers: async (networkId, identifiers) => {
      if (identifiers.length === 0) return [];
      const rows = await read<OfficerRow>(Prisma.sql`
        SELECT ${officerColumns} FROM officers o WHERE o.network_id = ${networkId} AND o.identifier IN (${Prisma.join(identifiers)})`);
      return rows.map(officerOf);
    },
    reportOfficers: async (networkId) =>
      (await read<Pick<OfficerRow, "id" | "identifier" | "name" | "removed_at">>(reportOfficers(networkId))).map((row) => ({
        id: Number(row.id),
        identifier: row.identifier,
        name: row.name,
        removed: row.removed_at !== null,
      })),
    page: (networkId, request) => officerPage(read, networkId, request),
    add: async (officer) => {
      const [row] = await write.returning<OfficerRow>(Prisma.sql`
        INSERT INTO officers (network_id, identifier, name, created_at, removed_at)
        VALUES (${officer.networkId}, ${officer.identifier}, ${officer.name}, ${officer.createdAt}, ${officer.removedAt})
        RETURNING id, network_id, identifier, name, created_at, removed_at`);
      return officerOf(row);
    },
    update: async (networkId, id, changes) => {
      const sets = (Object.keys(changes) as (keyof typeof changeColumns)[]).map(
        (field) => Prisma.sql`${Prisma.raw(changeColumns[field])} = ${changes[field] ?? null}`,
      );
      return (await write.execute(Prisma.sql`UPDATE officers SET ${Prisma.join(sets)} WHERE id = ${id} AND network_id = ${networkId}`)) > 0;
    },
    rename: async (networkId, id, from, to) =>
      (await write.execute(Prisma.sql`UPDATE officers SET name = ${to} WHERE id = ${id} AND network_id = ${networkId} AND name = ${from}`)) > 0,
    remove: async (networkId, id, removedAt) =>
      (await write.execute(Prisma.sql`
        UPDATE officers SET removed_at = ${removedAt} WHERE id = ${id} AND network_id = ${networkId} AND removed_at IS NULL`)) > 0,
  };
}
