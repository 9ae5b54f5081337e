// SQLite write transactions committed in groups. The works that ask for a transaction in one turn
// of the event loop run one after the other in one SQLite transaction, each in a savepoint of its
// own, and one COMMIT ends them all. A COMMIT is most of what a small write costs (the WAL's
// fsync with PRAGMA synchronous FULL; figures: docs/performance.md), and a process's transactions
// take turns on its one write connection anyway, so a group changes when they commit, not what
// they see: each runs after the one before, sees its writes, and is answered only after the
// COMMIT that holds it. The group's transaction is Prisma's adapter's (its lock held from BEGIN to
// COMMIT); the statements in it go straight to the connection under it (./connectionWrites.ts).
//
// Invariants (besides src/db/transactions.ts's):
// - A work that fails is rolled back to its savepoint; the others of its group are kept.
// - When the group's transaction is lost (on some errors SQLite rolls back the whole transaction;
//   the failed work's ROLLBACK TO then fails) or its COMMIT fails, every work of the group fails,
//   with the database's error: none of its writes is kept, so none may be answered as done.
// - Every transaction is of one group key: the queue (../transactionGroups.ts) starts a group
//   from the check phase, with at most maxGroupWorks works.
import { Prisma } from "../../generated/prisma/client";
import { adapterWrites, type WriteSql } from "../adapterWrites";
import type { SqliteConnectionClient } from "./connectionClient";
import { connectionWrites } from "./connectionWrites";
import { noteCommitInThisProcess } from "./commits";
import { answerDone, groupedTransactions, type WaitingWork } from "../transactionGroups";
import { tracked, turnCome, type TransactionalAdapter, type WriteTransaction } from "../transactions";

const noArgs = { args: [], argTypes: [] };

/** The one group key: a process's transactions take turns on its one write connection anyway. */
const everyTransaction = "every transaction";

/**
 * `connectionOf`: the client of the connection under an adapter (./adapter.ts), if it is ours: a
 * group's statements then run straight on it (./connectionWrites.ts) while the group's adapter
 * transaction holds that adapter's lock; else through that transaction.
 */
export function groupCommitTransactions(
  adapter: () => Promise<TransactionalAdapter>,
  connectionOf: (adapter: TransactionalAdapter) => Pick<SqliteConnectionClient, "runNow"> | undefined = () => undefined,
): WriteTransaction {
  async function runGroup(group: WaitingWork[]): Promise<void> {
    const locked = await adapter();
    const tx = await locked.startTransaction();
    const client = connectionOf(locked);
    const groupWrite: WriteSql = client ? connectionWrites(client) : adapterWrites("sqlite", () => Promise.resolve(tx));
    const run = (sql: string) => groupWrite.execute(Prisma.raw(sql));
    /** The works done in the group, answered when it commits. */
    const done: { value: unknown; work: WaitingWork }[] = [];
    let lost: { error: unknown } | undefined;
    for (const work of group) {
      if (lost) {
        work.reject(lost.error);
        continue;
      }
      const { write, settled } = tracked(groupWrite);
      try {
        await run("SAVEPOINT work");
        const value = await work.work(write, turnCome);
        // Statements the work issued without awaiting them (an event's) end before it is done.
        await settled();
        await run("RELEASE work");
        done.push({ value, work });
      } catch (error) {
        await settled().catch(() => undefined);
        work.reject(error);
        try {
          await run("ROLLBACK TO work");
          await run("RELEASE work");
        } catch (rollbackError) {
          // The others of the group fail with the database's error, never with this work's own.
          lost = { error: rollbackError };
        }
      }
    }
    if (lost) {
      await tx.rollback().catch(() => undefined);
      return answerDone(done, lost);
    }
    try {
      await tx.commit();
      noteCommitInThisProcess();
    } catch (error) {
      // The adapter's lock is released; a transaction COMMIT left open is ended here.
      await (await adapter()).executeRaw({ sql: "ROLLBACK", ...noArgs }).catch(() => undefined);
      return answerDone(done, { error });
    }
    answerDone(done, undefined);
  }

  return groupedTransactions(runGroup, () => everyTransaction);
}
