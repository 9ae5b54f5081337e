// SQLite write transactions committed in groups. The works that ask for a transaction in one turn
// of the event loop run one after the other in one SQLite transaction, each in a savepoint of its
// own, and one COMMIT ends them all. A COMMIT is most of what a small write costs (the WAL's
// fsync with PRAGMA synchronous FULL; figures: docs/performance.md), and a process's transactions
// take turns on its one write connection anyway, so a group changes when they commit, not what
// they see: each runs after the one before, sees its writes, and is answered only after the
// COMMIT that holds it.
//
// Invariants (besides src/db/transactions.ts's):
// - A work that fails is rolled back to its savepoint; the others of its group are kept.
// - When the group's transaction is lost (on some errors SQLite rolls back the whole transaction;
//   the failed work's ROLLBACK TO then fails) or its COMMIT fails, every work of the group fails,
//   with the database's error: none of its writes is kept, so none may be answered as done.
// - A group starts from the event loop's check phase (setImmediate), after the poll phase has
//   read every request that arrived, and holds at most maxGroupWorks works: a work waits for at
//   most that many others before its commit.
import { adapterWrites, type WriteSql } from "../adapterWrites";
import { maxGroupWorks, tracked, type TransactionalAdapter, type WriteTransaction } from "../transactions";

interface Waiting {
  work: (write: WriteSql) => Promise<unknown>;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

const noArgs = { args: [], argTypes: [] };

export function groupCommitTransactions(adapter: () => Promise<TransactionalAdapter>): WriteTransaction {
  const waiting: Waiting[] = [];
  let scheduled = false;

  function schedule() {
    if (scheduled) return;
    scheduled = true;
    setImmediate(() => void runGroup());
  }

  async function runGroup() {
    const group = waiting.splice(0, maxGroupWorks);
    /** The works done in the group, answered when it commits. */
    const done: { value: unknown; waiting: Waiting }[] = [];
    let tx;
    try {
      tx = await (await adapter()).startTransaction();
    } catch (error) {
      for (const work of group) work.reject(error);
      return next();
    }
    const run = (sql: string) => tx.executeRaw({ sql, ...noArgs });
    let lost: unknown = null;
    for (const work of group) {
      if (lost !== null) {
        work.reject(lost);
        continue;
      }
      const { write, settled } = tracked(adapterWrites("sqlite", () => Promise.resolve(tx)));
      try {
        await run("SAVEPOINT work");
        const value = await work.work(write);
        // Statements the work issued without awaiting them (an event's) end before it is done.
        await settled();
        await run("RELEASE work");
        done.push({ value, waiting: work });
      } catch (error) {
        await settled().catch(() => undefined);
        work.reject(error);
        try {
          await run("ROLLBACK TO work");
          await run("RELEASE work");
        } catch (rollbackError) {
          // The others of the group fail with the database's error, never with this work's own.
          lost = rollbackError;
        }
      }
    }
    if (lost !== null) {
      await tx.rollback().catch(() => undefined);
      for (const { waiting } of done) waiting.reject(lost);
      return next();
    }
    try {
      await tx.commit();
    } catch (error) {
      // The adapter's lock is released; a transaction COMMIT left open is ended here.
      await (await adapter()).executeRaw({ sql: "ROLLBACK", ...noArgs }).catch(() => undefined);
      for (const { waiting } of done) waiting.reject(error);
      return next();
    }
    for (const { value, waiting } of done) waiting.resolve(value);
    next();
  }

  function next() {
    scheduled = false;
    if (waiting.length > 0) schedule();
  }

  return <T>(work: (write: WriteSql) => Promise<T>) =>
    new Promise<T>((resolve, reject) => {
      waiting.push({ work, resolve: resolve as (value: unknown) => void, reject });
      schedule();
    });
}
