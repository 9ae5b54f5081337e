// Transactions for the hot write paths: a change and its event commit together or not at all
// (src/events/record.ts). The stores write through one WriteSql (src/db/adapterWrites.ts); inside
// `inTransaction(work)` that WriteSql sends every statement `work` causes to the transaction, by
// the asynchronous context the work runs in, so the stores need no second set of write methods.
//
// Invariants:
// - Inside a transaction only `write` may be used for writes: Prisma's client and its own
//   transactions would wait for the adapter's lock (SQLite) that this transaction holds.
// - Reads on the read path do not see the transaction's uncommitted rows: what a transaction
//   must read back, it reads with RETURNING.
// - A transaction inside another joins it.
import { AsyncLocalStorage } from "node:async_hooks";
import type { Prisma } from "../generated/prisma/client";
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

export interface Transactions {
  /** Writes: in the current transaction when there is one, else on their own. */
  write: WriteSql;
  /** Runs `work` in one transaction: committed when it resolves, rolled back when it throws. */
  inTransaction<T>(work: () => Promise<T>): Promise<T>;
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
 * `alone`: how a write outside any transaction runs (on SQLite, taking its turn:
 * src/db/sqlite/writeTurns.ts). Statements of a transaction run at once: it holds the writer's
 * lock, and the few statements of one change take microseconds each.
 */
export function adapterTransactions(provider: DatabaseProvider, adapter: () => Promise<TransactionalAdapter>, alone: WriteSql): Transactions {
  const current = new AsyncLocalStorage<WriteSql>();
  const write: WriteSql = {
    execute: (statement: Prisma.Sql) => (current.getStore() ?? alone).execute(statement),
    returning: <Row>(statement: Prisma.Sql) => (current.getStore() ?? alone).returning<Row>(statement),
  };
  async function inTransaction<T>(work: () => Promise<T>): Promise<T> {
    if (current.getStore()) return work();
    const tx = await (await adapter()).startTransaction();
    let result: T;
    try {
      result = await current.run(adapterWrites(provider, () => Promise.resolve(tx)), work);
    } catch (error) {
      await finish(tx, "ROLLBACK").catch(() => undefined);
      throw error;
    }
    await finish(tx, "COMMIT");
    return result;
  }
  return { write, inTransaction };
}
