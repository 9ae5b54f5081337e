// Transactions for the write paths: a change and its event commit together or not at all
// (src/events/record.ts). These run on Prisma's adapter (SQLite); PostgreSQL's run on its pool
// (src/db/postgres/transactions.ts), under the same invariants. A transaction hands its work a
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
import type { DatabaseProvider } from "../config/database";
import type { QueryableAdapter } from "./adapterReads";
import { adapterWrites, type WriteSql } from "./adapterWrites";

/** A transaction as Prisma's driver adapters answer it (driver-adapter-utils' Transaction). */
interface AdapterTransaction extends QueryableAdapter {
  /** usePhantomQuery: commit() and rollback() end it themselves (libSQL); else COMMIT is ours to send (pg). */
  readonly options: { usePhantomQuery: boolean };
  commit(): Promise<void>;
  rollback(): Promise<void>;
}

/** The part of Prisma's driver adapter interface (SqlDriverAdapter) transactions need. */
export interface TransactionalAdapter extends QueryableAdapter {
  startTransaction(): Promise<AdapterTransaction>;
}

/** Runs `work` in one transaction: committed when it resolves, rolled back when it throws. */
export type WriteTransaction = <T>(work: (write: WriteSql) => Promise<T>) => Promise<T>;

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

const noArgs = { args: [], argTypes: [] };

async function finish(tx: AdapterTransaction, outcome: "COMMIT" | "ROLLBACK"): Promise<void> {
  if (tx.options.usePhantomQuery) return outcome === "COMMIT" ? tx.commit() : tx.rollback();
  try {
    await tx.executeRaw({ sql: outcome, ...noArgs });
  } finally {
    // Releases the connection to its pool (pg's adapter sends nothing itself).
    await tx.rollback();
  }
}

/**
 * The statements run through `write`, and `settled`: resolves when all have ended, rejects with
 * the first failure. A work may issue a statement without awaiting its answer (an event's,
 * src/events/record.ts); the transaction still fails with it.
 */
function tracked(inner: WriteSql): { write: WriteSql; settled: () => Promise<void> } {
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

/**
 * Transactions on the adapter under Prisma's client. Their statements run at once (on SQLite not
 * taking turns, src/db/sqlite/writeTurns.ts): the transaction holds the writer's lock, and the
 * few statements of one change take microseconds each.
 */
export function adapterTransactions(provider: DatabaseProvider, adapter: () => Promise<TransactionalAdapter>): WriteTransaction {
  return async (work) => {
    const tx = await (await adapter()).startTransaction();
    const { write, settled } = tracked(adapterWrites(provider, () => Promise.resolve(tx)));
    let result;
    try {
      result = await work(write);
      // Statements the work issued without awaiting them (an event's) end before COMMIT.
      await settled();
    } catch (error) {
      await settled().catch(() => undefined);
      await finish(tx, "ROLLBACK").catch(() => undefined);
      throw error;
    }
    await finish(tx, "COMMIT");
    return result;
  };
}
