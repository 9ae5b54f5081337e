// Transactions on a libSQL client's one connection, for Prisma's client. The stock
// @libsql/client hands its connection to each transaction and opens a new one, and the
// handed-over connection stays open until garbage collection (hundreds of open files after a
// few hundred writes). Sharing is safe because Prisma's libSQL adapter holds a lock for the
// whole transaction, so no other query runs on the connection meanwhile.
import type { InStatement, ResultSet, Transaction, TransactionMode } from "@libsql/client";

const beginStatement: Record<TransactionMode, string> = {
  write: "BEGIN IMMEDIATE",
  read: "BEGIN DEFERRED",
  deferred: "BEGIN DEFERRED",
};

/** Begins a transaction on the connection `execute` runs on, and answers it. */
export async function sharedConnectionTransaction(
  execute: (statement: InStatement) => Promise<ResultSet>,
  mode: TransactionMode = "write",
): Promise<Transaction> {
  await execute(beginStatement[mode]);
  let open = true;
  const finish = async (statement: "COMMIT" | "ROLLBACK") => {
    if (!open) return;
    open = false;
    await execute(statement);
  };
  return {
    execute: (statement: InStatement) => execute(statement),
    async batch(statements: InStatement[]) {
      const results = [];
      for (const statement of statements) results.push(await execute(statement));
      return results;
    },
    executeMultiple: () => Promise.reject(new Error("executeMultiple is not used in Prisma transactions")),
    rollback: () => finish("ROLLBACK"),
    commit: () => finish("COMMIT"),
    close: () => void finish("ROLLBACK").catch(() => undefined),
    get closed() {
      return !open;
    },
  };
}
