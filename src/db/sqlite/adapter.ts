// The libSQL driver adapter, with every connection waiting for locks instead of failing.
import { createClient, type Client, type Config, type InStatement, type Transaction, type TransactionMode } from "@libsql/client";
import { PrismaLibSQL } from "@prisma/adapter-libsql";
import { keepPreparedStatements } from "./statementCache";

const busyTimeoutMs = 5000;

// Before any connection prepares a statement (src/db/sqlite/statementCache.ts).
keepPreparedStatements();

/**
 * @libsql/client hands its connection to each transaction and lazily opens a fresh one, which
 * starts with busy_timeout 0: a write then fails at once with SQLITE_BUSY whenever another
 * process (the admin command, a second server) holds the lock. Set the timeout on every one
 * (the migration runner's client; Prisma's client keeps one connection, below).
 */
function withBusyTimeout(client: Client): Client {
  const transaction = client.transaction.bind(client);
  client.transaction = async (mode?: TransactionMode) => {
    const tx = await transaction(mode ?? "write");
    await client.execute(`PRAGMA busy_timeout = ${busyTimeoutMs}`);
    return tx;
  };
  return client;
}

const beginStatement: Record<TransactionMode, string> = {
  write: "BEGIN IMMEDIATE",
  read: "BEGIN DEFERRED",
  deferred: "BEGIN DEFERRED",
};

/**
 * For Prisma's client: transactions run on the client's one connection. The stock client hands
 * its connection to each transaction and opens a new one, and the handed-over connection stays
 * open until garbage collection (hundreds of open files after a few hundred writes). Sharing is
 * safe here because Prisma's libSQL adapter holds a lock for the whole transaction, so no other
 * query runs on the connection meanwhile.
 */
function withSharedConnectionTransactions(client: Client): Client {
  client.transaction = async (mode: TransactionMode = "write") => {
    await client.execute(beginStatement[mode]);
    let open = true;
    const finish = async (statement: "COMMIT" | "ROLLBACK") => {
      if (!open) return;
      open = false;
      await client.execute(statement);
    };
    const transaction: Transaction = {
      execute: (statement: InStatement) => client.execute(statement),
      async batch(statements: InStatement[]) {
        const results = [];
        for (const statement of statements) results.push(await client.execute(statement));
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
    return transaction;
  };
  return client;
}

export class SqliteAdapterFactory extends PrismaLibSQL {
  override createClient(config: Config): Client {
    return withSharedConnectionTransactions(createClient(config));
  }
}

/** Opens a plain libSQL client with the same settings, for work outside Prisma (migrations). */
export async function openSqliteClient(url: string): Promise<Client> {
  const client = withBusyTimeout(createClient({ url }));
  await client.execute(`PRAGMA busy_timeout = ${busyTimeoutMs}`);
  return client;
}

/**
 * WAL lets readers go on while one writer writes; the setting is stored in the file. Switching
 * needs the file to itself and fails at once (no busy wait) while another process starting at
 * the same moment holds it, so it is retried for a while.
 */
export async function prepareSqliteFile(client: Client): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      const mode = await client.execute("PRAGMA journal_mode");
      if (String(mode.rows[0]?.[0]).toLowerCase() === "wal") return;
      await client.execute("PRAGMA journal_mode = WAL");
      return;
    } catch (error) {
      const busy = (error as { code?: string }).code === "SQLITE_BUSY";
      if (!busy || attempt >= 100) throw error;
      await new Promise((resolve) => setTimeout(resolve, 20 + Math.random() * 80));
    }
  }
}
