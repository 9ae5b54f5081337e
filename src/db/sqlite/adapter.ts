// The libSQL driver adapter, with every connection waiting for locks instead of failing, and
// the connection under Prisma's client keeping the statements it prepared.
import { createClient, type Client, type Config, type TransactionMode } from "@libsql/client";
import { PrismaLibSQL } from "@prisma/adapter-libsql";
import { openConnectionClient, type SqliteConnectionClient } from "./connectionClient";
import { sharedConnectionTransaction } from "./sharedTransaction";

const busyTimeoutMs = 5000;

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

/** For Prisma's client on the stock @libsql/client: transactions run on the client's one connection (./sharedTransaction.ts). */
function withSharedConnectionTransactions(client: Client): Client {
  client.transaction = (mode?: TransactionMode) => sharedConnectionTransaction((statement) => client.execute(statement), mode);
  return client;
}

/**
 * Whether Prisma's client runs on our client that keeps prepared statements
 * (./connectionClient.ts); SQLITE_STATEMENT_CACHE=off gives @libsql/client's own, which prepares
 * every statement anew.
 */
export const statementCacheEnabled = () => process.env.SQLITE_STATEMENT_CACHE !== "off";

export class SqliteAdapterFactory extends PrismaLibSQL {
  /** The client each adapter this factory connected runs on, when it is ours (statement cache on). */
  readonly #clients = new WeakMap<object, SqliteConnectionClient>();
  #created: SqliteConnectionClient | undefined;

  /** The client of each connection Prisma's adapter opens: PrismaLibSQL's public seam. */
  override createClient(config: Config): Client {
    if (!statementCacheEnabled()) return withSharedConnectionTransactions(createClient(config));
    return (this.#created = openConnectionClient(config));
  }

  /** Connects as PrismaLibSQL does, and notes which client the new adapter runs on. */
  override async connect(): ReturnType<PrismaLibSQL["connect"]> {
    this.#created = undefined;
    const adapter = await super.connect();
    if (this.#created) this.#clients.set(adapter, this.#created);
    return adapter;
  }

  /**
   * The client of the connection under `adapter`, if this factory connected it on our client: a
   * group of writes runs its statements on it while it holds that adapter's lock (./groupCommit.ts).
   */
  connectionClientOf(adapter: object): SqliteConnectionClient | undefined {
    return this.#clients.get(adapter);
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
