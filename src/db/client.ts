// Opens the service's database: a Prisma client over the driver adapter the URL calls for, the
// hot read and write paths beside it, and the stores the rules use on them (src/db/store.ts).
import fs from "node:fs";
import path from "node:path";
import { PrismaClient } from "../generated/prisma/client";
import {
  defaultListenerSettings,
  defaultPoolSettings,
  providerOf,
  type DatabaseProvider,
  type ListenerSettings,
  type PoolSettings,
} from "../config/database";
import { shareConnection, type ReadSql } from "./adapterReads";
import { adapterWrites, type WriteSql } from "./adapterWrites";
import type { KeyChanges, Stores } from "./store";
import { apiKeyStore } from "./apiKeys";
import { dutytimeStore } from "./dutytime";
import { officerStore } from "./officers";
import { recordTrendStore } from "./recordTrends";
import { recordStore } from "./records";
import { recordCountStore } from "./recordCounts";
import { eventStore } from "./events";
import { webhookStore } from "./webhooks";
import { postgresEventNotices, sqliteEventNotices, type EventNotices } from "./eventNotices";
import { joined, type TransactionalAdapter, type WorkShape, type WriteTransaction } from "./transactions";
import { groupCommitTransactions } from "./sqlite/groupCommit";
import { SqliteAdapterFactory } from "./sqlite/adapter";
import { sqliteFilePath } from "./sqlite/filePath";
import { openSqliteReads } from "./sqlite/reads";
import { postgresTransactions } from "./postgres/transactions";
import { sqliteCommitsOf } from "./sqlite/commits";
import { writesTakingTurns } from "./sqlite/writeTurns";
import { backupSqlite } from "./sqlite/backup";
import { sqliteVehicleStore } from "./sqlite/vehicleStore";
import { openPostgres } from "./postgres/connect";
import { postgresReads } from "./postgres/reads";
import { keyChangesOf } from "./postgres/keyChanges";
import { postgresListener } from "./postgres/listener";
import { postgresVehicleStore } from "./postgres/vehicleStore";
import type { CommitEpoch } from "./betweenCommits";

export { sqliteFilePath };

export type Prisma = PrismaClient;

/**
 * A database the service has open: the stores the rules use (src/db/store.ts), and the paths
 * they run on, which the admin command, migrations and tests use too.
 */
export interface Database extends Stores {
  /** Writes, and reads that are not hot. */
  prisma: PrismaClient;
  /**
   * Hot reads as plain SQL: on SQLite a read-only libsql connection (src/db/sqlite/reads.ts), on
   * PostgreSQL the pg pool under `prisma`'s adapter (src/db/postgres/reads.ts).
   */
  read: ReadSql;
  /**
   * Hot writes as plain SQL on the adapter under `prisma` (src/db/adapterWrites.ts); on SQLite,
   * whose statements hold the process, one per turn of the event loop (src/db/sqlite/writeTurns.ts).
   */
  write: WriteSql;
  /** Runs `work` in one transaction with the transaction's writes (src/db/transactions.ts). */
  transaction: WriteTransaction;
  /**
   * Runs `work` in one transaction, with stores whose writes are the transaction's (and its
   * WriteSql): they commit together or not at all (src/db/transactions.ts). A change and its
   * event are written so (src/events/record.ts).
   */
  inTransaction<T>(work: (tx: TransactionStores, turn: Promise<void>) => Promise<T>, networkId?: number, shape?: WorkShape): Promise<T>;
  /**
   * When what a process keeps of API keys must be dropped: PostgreSQL announces changes to keys
   * and networks (src/db/postgres/keyChanges.ts, heard on src/db/postgres/listener.ts), SQLite
   * shows every commit (src/db/sqlite/commits.ts).
   */
  keyChanges: KeyChanges;
  /** How this process learns of new events, its own and every other process's (src/db/eventNotices.ts). */
  eventNotices: EventNotices;
  provider: DatabaseProvider;
  url: string;
  /**
   * Writes a consistent copy of the database to a new file while it is in use (SQLite); on
   * PostgreSQL it refuses: its own tools (pg_dump) do that (docs/operations.md).
   */
  backup(target: string): Promise<void>;
  close(): Promise<void>;
}

/** The stores of a transaction, and its writes for what no store says. */
export type TransactionStores = Stores & { write: WriteSql };

/** What the stores run on. */
interface Paths {
  read: ReadSql;
  write: WriteSql;
  transaction: WriteTransaction;
  provider: DatabaseProvider;
  /** SQLite's epoch of every commit (src/db/sqlite/commits.ts), outside transactions only: rows of networks read between commits (./betweenCommits.ts). */
  commitEpoch?: CommitEpoch;
}

/** How each store of a database is made from its paths: the vehicles' are each database's own, the others' SQL is shared. */
const storeMakers: { [Name in keyof Stores]: (paths: Paths) => Stores[Name] } = {
  vehicles: ({ read, write, provider, commitEpoch }) =>
    provider === "postgresql" ? postgresVehicleStore(read, write) : sqliteVehicleStore(read, write, commitEpoch),
  dutytime: ({ read, write, provider, commitEpoch }) => dutytimeStore(read, write, provider, commitEpoch),
  officers: ({ read, write }) => officerStore(read, write),
  records: ({ write }) => recordStore(write),
  recordCounts: ({ read, commitEpoch }) => recordCountStore(read, commitEpoch),
  recordTrends: ({ read }) => recordTrendStore(read),
  apiKeys: ({ read, write, transaction, provider }) => apiKeyStore(read, write, transaction, provider),
  events: ({ read, write, provider }) => eventStore(read, write, provider),
  webhooks: ({ read, write, provider }) => webhookStore(read, write, provider),
};

/** The stores every database and transaction has. */
export const storeNames = Object.keys(storeMakers) as (keyof Stores)[];

/** Every store of a database, made now. */
function storesOf(paths: Paths): Stores {
  return Object.fromEntries(storeNames.map((name) => [name, storeMakers[name](paths)])) as unknown as Stores;
}

// The class's getters (below) are the stores: the interface says so to the type checker.
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging, @typescript-eslint/no-empty-object-type
interface TransactionStoresOf extends Stores {}
/**
 * A transaction's stores and its writes. Each store is made when the work first asks for it: its
 * writes are the transaction's, so a store is made for each transaction, and a work uses one or
 * two of the nine (what making all of them cost a toggle: docs/performance.md).
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
class TransactionStoresOf {
  readonly #paths: Paths;
  readonly #made: Partial<Stores> = {};
  constructor(paths: Paths) {
    this.#paths = paths;
  }
  get write(): WriteSql {
    return this.#paths.write;
  }
  /** The store `name`, made on the first call. */
  store<Name extends keyof Stores>(name: Name): Stores[Name] {
    return (this.#made[name] ??= storeMakers[name](this.#paths));
  }
}

// One getter per store, from the one table of store makers.
for (const name of storeNames) {
  Object.defineProperty(TransactionStoresOf.prototype, name, {
    get(this: TransactionStoresOf) {
      return this.store(name);
    },
  });
}

/**
 * The database with its stores on other read or write paths (tests count the statements sent).
 * What the stores keep per read path (src/db/adapterReads.ts) starts empty on a new one.
 */
export function overPaths(db: Database, paths: { read?: ReadSql; write?: WriteSql }): Database {
  const over = { ...db, ...paths };
  return { ...over, ...storesOf({ ...over, transaction: db.transaction }) };
}

/** Transactions whose stores are those of `paths` on the transaction's connection. */
function storesInTransactions(paths: Paths): Database["inTransaction"] {
  return (work, networkId, shape) =>
    paths.transaction(
      (write, turn) =>
        work(new TransactionStoresOf({ ...paths, write, transaction: joined(write), commitEpoch: undefined }), turn),
      networkId,
      shape,
    );
}

export async function openDatabase(
  url: string,
  pool: PoolSettings = defaultPoolSettings,
  listening: ListenerSettings = defaultListenerSettings,
): Promise<Database> {
  const provider = providerOf(url);
  if (provider === "postgresql") {
    const { prisma, adapter, pool: connections, pipelined } = openPostgres(url, pool);
    const write = adapterWrites(provider, adapter);
    const transaction = postgresTransactions(connections);
    // The one connection that LISTENs; it connects when a channel is first asked for.
    const listener = postgresListener({ connectionString: url, connectionTimeoutMillis: pool.connectTimeoutMs, keepAlive: true }, listening);
    const keyChanges = keyChangesOf(listener);
    const eventNotices = postgresEventNotices(listener);
    const read = postgresReads(connections, pipelined);
    const paths = { read, write, transaction, provider };
    const stores = storesOf(paths);
    const inTransaction = storesInTransactions(paths);
    const close = async () => {
      await stores.apiKeys.touchesWritten();
      await keyChanges.close();
      await eventNotices.close();
      await listener.close();
      await prisma.$disconnect();
      // Prisma's client ends the pool only if it connected; the hot reads use it either way.
      if (!connections.ending) await connections.end();
      await pipelined.end();
    };
    const backup = () => Promise.reject(new Error("PostgreSQL is backed up with its own tools: pg_dump (see docs/operations.md)."));
    return { prisma, read, write, transaction, inTransaction, ...stores, keyChanges, eventNotices, provider, url, backup, close };
  }
  const file = sqliteFilePath(url);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const factory = shareConnection(new SqliteAdapterFactory({ url }));
  const prisma = new PrismaClient({ adapter: factory });
  await prisma.$queryRawUnsafe("PRAGMA busy_timeout = 5000");
  const reads = openSqliteReads(file);
  const keyChanges = sqliteCommitsOf(file);
  const eventNotices = sqliteEventNotices(file, sqliteEventPollMs);
  const { read } = reads;
  const adapter = factory.connection as () => Promise<TransactionalAdapter>;
  const write = writesTakingTurns(adapterWrites(provider, adapter));
  const transaction = groupCommitTransactions(adapter, (connected) => factory.connectionClientOf(connected));
  // Another process's commit is seen from the next turn of the event loop on, a group this
  // process committed at once (src/db/sqlite/commits.ts).
  const paths = { read, write, transaction, provider, commitEpoch: () => keyChanges.epoch() };
  const stores = storesOf(paths);
  const inTransaction = storesInTransactions(paths);
  const close = async () => {
    // A key's last use is written after its request: closed under it, the write would fail.
    await stores.apiKeys.touchesWritten();
    await keyChanges.close();
    await eventNotices.close();
    reads.close();
    await prisma.$disconnect();
  };
  const backup = async (target: string) => backupSqlite(file, target);
  return { prisma, read, write, transaction, inTransaction, ...stores, keyChanges, eventNotices, provider, url, backup, close };
}

/**
 * How often a SQLite process looks for other processes' commits while it has subscribers: one
 * pread each time; a commit seen costs one read of the subscribed networks' last sequences.
 */
const sqliteEventPollMs = 50;
