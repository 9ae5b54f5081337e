// Transactions for the write paths: a change and its event commit together or not at all
// (src/events/record.ts). SQLite's run on Prisma's adapter, committed in groups
// (src/db/sqlite/groupCommit.ts); PostgreSQL's on its pool (src/db/postgres/transactions.ts),
// under the same invariants. A transaction hands its work a
// WriteSql on the transaction's connection; the database builds its stores on it
// (src/db/client.ts, Database.inTransaction), so a change writes through the same store methods
// inside a transaction as outside one.
//
// Invariants:
// - A statement issued in a transaction runs in it, in the order issued, whether or not the work
//   awaits its answer; the transaction commits only if every one succeeded.
// - Inside a transaction only its WriteSql may write: Prisma's client, its own transactions and
//   the database's other writes wait for the adapter's lock (SQLite) that the transaction holds.
// - Reads on the read path do not see the transaction's uncommitted rows: what a transaction
//   must read back, it reads through its WriteSql (RETURNING, or a SELECT on its connection).
// - The transaction is passed, not found in an AsyncLocalStorage: that would turn on promise
//   hooks for the whole process, a cost on every request (docs/performance.md).
import type { QueryableAdapter } from "./adapterReads";
import type { WriteSql } from "./adapterWrites";

/** A transaction as Prisma's libSQL adapter answers it (driver-adapter-utils' Transaction). */
interface AdapterTransaction extends QueryableAdapter {
  /** Sends COMMIT and releases the adapter's lock, also when COMMIT fails. */
  commit(): Promise<void>;
  rollback(): Promise<void>;
}

/** The part of Prisma's driver adapter interface (SqlDriverAdapter) transactions need. */
export interface TransactionalAdapter extends QueryableAdapter {
  startTransaction(): Promise<AdapterTransaction>;
}

/**
 * Runs `work` in one transaction: committed when it resolves, rolled back when it throws. A
 * change of a network names it: the network's changes asked together may share one transaction
 * and one COMMIT, a failing one rolled back alone (SQLite groups every change asked in one turn). A work
 * named with a network may run more than once (PostgreSQL's groups run again the works sent
 * after one that failed): its only effects are its statements and its result.
 */
export type WriteTransaction = <T>(work: GroupedWork<T>, networkId?: number, shape?: WorkShape) => Promise<T>;

/**
 * A work of a transaction. `turn` resolves when the works before it in its group have issued all
 * their statements: a work of one statement (WorkShape) issues the rest after it; any other may
 * ignore it (it has come by the time such a work is called).
 */
export type GroupedWork<T> = (write: WriteSql, turn: Promise<void>) => Promise<T>;

/**
 * What a work promises of its statements, so that its group may send it sooner. `oneStatement`: it
 * issues one statement when called, then, after that statement's answer and its `turn`, only
 * appends events (src/events/record.ts). On PostgreSQL the works of this shape in a group's first
 * pass go out one after the other without waiting for each other's answers: a statement of one and
 * the events of another touch different rows and columns, so the order they run in changes nothing
 * (src/db/postgres/transactions.ts). Undefined: none promised.
 */
export interface WorkShape {
  oneStatement: true;
}

/** The turn of a work whose group is run one work after the other: it has come. */
export const turnCome: Promise<void> = Promise.resolve();

/** Most works one COMMIT ends: a work waits for at most that many others before its own. */
export const maxGroupWorks = 32;

/** Inside a transaction already: work joins it. */
export const joined =
  (write: WriteSql): WriteTransaction =>
  (work) =>
    work(write, turnCome);

/**
 * Issues a statement whose answer the work does not read: the statements after it (and COMMIT)
 * follow without waiting for it, and if it fails, the transaction fails with it.
 */
export function issued(statement: Promise<unknown>): void {
  statement.catch(() => undefined);
}

/**
 * The statements run through `write`, and `settled`: resolves when all have ended, rejects with
 * the first failure. A work may issue a statement without awaiting its answer (an event's,
 * src/events/record.ts); the transaction still fails with it.
 */
export function tracked(inner: WriteSql): { write: WriteSql; settled: () => Promise<void> } {
  const sentStatements: Promise<unknown>[] = [];
  const track = <T>(sent: Promise<T>) => {
    issued(sent);
    sentStatements.push(sent);
    return sent;
  };
  return {
    write: { execute: (statement) => track(inner.execute(statement)), returning: (statement) => track(inner.returning(statement)) },
    settled: async () => {
      await Promise.all(sentStatements);
    },
  };
}
