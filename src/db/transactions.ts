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
 * change of a network names it: the network's changes asked together may share one transaction,
 * each in a savepoint, and one COMMIT (SQLite groups every change asked in one turn). A work
 * named with a network may run more than once (PostgreSQL's groups run again the works sent
 * after one that failed): its only effects are its statements and its result.
 */
export type WriteTransaction = <T>(work: (write: WriteSql) => Promise<T>, networkId?: number) => Promise<T>;

/** Most works one COMMIT ends: a work waits for at most that many others before its own. */
export const maxGroupWorks = 32;

/** Inside a transaction already: work joins it. */
export const joined =
  (write: WriteSql): WriteTransaction =>
  (work) =>
    work(write);

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
