// The audit log's rows (the contract's "Events: the audit log"), the same SQL on SQLite and
// PostgreSQL. Written only by src/events/record.ts, inside the transaction of the change.
import { Prisma } from "../generated/prisma/client";
import type { DatabaseProvider } from "../config/database";
import type { ReadSql } from "./adapterReads";
import type { WriteSql } from "./adapterWrites";
import { fixedStatement } from "./fixedStatement";
import type { AppendedEvent, EventFilter, EventStore, NewEvent, StoredEvent } from "./store";
import { storedInstant } from "./storedInstant";
import type { EventType, SubjectType } from "../model/eventTypes";

/** The channel on which PostgreSQL announces a network's new events (src/db/eventNotices.ts). */
export const eventChannel = "vrd_events";

interface EventRow {
  network_id: number | string;
  sequence: number | string;
  type: string;
  occurred_at: Date | string;
  actor_kind: string;
  actor_key_id: number | string | null;
  actor_key_name: string | null;
  subject_type: string;
  subject_id: string;
  data: string;
}

const eventColumns = Prisma.raw(
  "e.network_id, e.sequence, e.type, e.occurred_at, e.actor_kind, e.actor_key_id, e.actor_key_name, e.subject_type, e.subject_id, e.data",
);

const eventOf = (row: EventRow): StoredEvent => ({
  networkId: Number(row.network_id),
  sequence: Number(row.sequence),
  type: row.type as EventType,
  occurredAt: storedInstant(row.occurred_at),
  actor: {
    kind: row.actor_kind as StoredEvent["actor"]["kind"],
    keyId: row.actor_key_id === null ? null : Number(row.actor_key_id),
    keyName: row.actor_key_name,
  },
  subject: { type: row.subject_type as SubjectType, id: row.subject_id },
  data: JSON.parse(row.data) as Record<string, unknown>,
});

/** The columns an event is written in: its network and sequence, then the values append() passes in this order. */
const writtenColumnList = ["network_id", "sequence", "type", "occurred_at", "actor_kind", "actor_key_id", "actor_key_name", "subject_type", "subject_id", "data"];
const writtenColumns = Prisma.raw(writtenColumnList.join(", "));
/** append()'s arguments: the network, then a value per column after the sequence (the statement takes it). */
const appendArity = writtenColumnList.length - 1;

const appendStatement = {
  postgresql: fixedStatement(
    (networkId: number, ...values: unknown[]) => Prisma.sql`
      WITH raised AS (UPDATE networks SET event_sequence = event_sequence + 1 WHERE id = ${networkId} RETURNING id, event_sequence),
        written AS (INSERT INTO events (${writtenColumns}) SELECT id, event_sequence, ${Prisma.join(values)} FROM raised RETURNING network_id, sequence)
      SELECT written.sequence FROM written, pg_notify(${eventChannel}, written.network_id || ':' || written.sequence)`,
    appendArity,
  ),
  sqlite: fixedStatement(
    (networkId: number, ...values: unknown[]) => Prisma.sql`
      INSERT INTO events (${writtenColumns}) SELECT id, event_sequence + 1, ${Prisma.join(values)} FROM networks WHERE id = ${networkId}
      RETURNING sequence`,
    appendArity,
  ),
} satisfies Record<DatabaseProvider, unknown>;

/**
 * Writes the event under the network's next sequence, in the caller's transaction, in one
 * statement. The network's row holds the last sequence (networks.event_sequence) and stays locked
 * until the transaction ends, so a network's events take their sequences in commit order:
 * whatever a reader sees of them is 1..N without a hole.
 * - PostgreSQL: the row is raised and the event written by one statement, which also announces
 *   the sequence at commit (never the event: a NOTIFY payload is small, and is lost while a
 *   listener is away).
 * - SQLite (one writer at a time): the event takes the row's sequence + 1, and a trigger raises
 *   the row to it (migration *_event_log).
 */
async function append(write: WriteSql, provider: DatabaseProvider, event: NewEvent): Promise<AppendedEvent> {
  const { actor, subject } = event;
  const statement = appendStatement[provider](
    event.networkId,
    event.type,
    event.occurredAt,
    actor.kind,
    actor.keyId,
    actor.keyName,
    subject.type,
    subject.id,
    event.dataJson,
  );
  const [row] = await write.returning<{ sequence: number | string }>(statement);
  if (row === undefined) throw new Error(`no network ${event.networkId} to record an event in`);
  return { networkId: event.networkId, sequence: Number(row.sequence) };
}

function filterWhere(networkId: number, filter: EventFilter): Prisma.Sql {
  const parts = [Prisma.sql`e.network_id = ${networkId}`];
  if (filter.types) parts.push(Prisma.sql`e.type IN (${Prisma.join(filter.types)})`);
  if (filter.subjectType !== null) parts.push(Prisma.sql`e.subject_type = ${filter.subjectType}`);
  if (filter.subjectId !== null) parts.push(Prisma.sql`e.subject_id = ${filter.subjectId}`);
  if (filter.keyId !== null) parts.push(Prisma.sql`e.actor_key_id = ${filter.keyId}`);
  if (filter.from !== null) parts.push(Prisma.sql`e.occurred_at >= ${filter.from}`);
  if (filter.to !== null) parts.push(Prisma.sql`e.occurred_at < ${filter.to}`);
  if (filter.after !== null) parts.push(Prisma.sql`e.sequence > ${filter.after}`);
  if (filter.before !== null) parts.push(Prisma.sql`e.sequence < ${filter.before}`);
  return Prisma.join(parts, " AND ");
}

export function eventStore(read: ReadSql, write: WriteSql, provider: DatabaseProvider): EventStore {
  return {
    append: (event) => append(write, provider, event),
    page: async (networkId, filter, { limit, order }) => {
      const direction = Prisma.raw(order === "newest" ? "DESC" : "ASC");
      const rows = await read<EventRow>(Prisma.sql`
        SELECT ${eventColumns} FROM events e WHERE ${filterWhere(networkId, filter)}
        ORDER BY e.sequence ${direction} LIMIT ${limit}`);
      return rows.map(eventOf);
    },
    lastSequences: async (networkIds) => {
      if (networkIds.length === 0) return new Map();
      const rows = await read<{ id: number | string; event_sequence: number | string }>(Prisma.sql`
        SELECT id, event_sequence FROM networks WHERE id IN (${Prisma.join(networkIds)})`);
      return new Map(rows.map((row) => [Number(row.id), Number(row.event_sequence)]));
    },
    removeOlderThan: async (networkId, before, batch) => {
      // A batch at a time (by the primary key), so no statement holds the writer for long.
      return write.execute(Prisma.sql`
        DELETE FROM events WHERE network_id = ${networkId} AND sequence IN (
          SELECT e.sequence FROM events e WHERE e.network_id = ${networkId} AND e.occurred_at < ${before}
          ORDER BY e.sequence LIMIT ${batch})`);
    },
  };
}
