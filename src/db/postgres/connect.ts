// PostgreSQL: the production database, for several service processes on one database.
import { PrismaPg } from "@prisma/adapter-pg";
import type { PoolConfig } from "pg";
import type { PoolSettings } from "../../config/database";
import type { PrismaClient } from "../../generated/prisma/client";
import { shareConnection } from "../adapterReads";
import type { TransactionalAdapter } from "../transactions";
import { PreparingPool } from "./preparingPool";
import { PipelinedConnection } from "./pipelinedConnection";

export function poolConfig(url: string, settings: PoolSettings): PoolConfig {
  return {
    connectionString: url,
    max: settings.size,
    connectionTimeoutMillis: settings.connectTimeoutMs,
    statement_timeout: settings.statementTimeoutMs,
    // Connections stay open while the process runs (at most `size`): with an idle timeout, pg-pool
    // sets a timer at every release and clears it at the next checkout, a cost a get by id notices
    // (figures: docs/performance.md). A connection the server drops while idle is removed
    // (keepAlive, and the pool's error listener in openPostgres).
    idleTimeoutMillis: 0,
    // A connection dropped by the server (restart, failover) is replaced, not reused.
    keepAlive: true,
    // The default (4) prices a random page read for spinning disks, so the planner reads a
    // network's vehicles in id order through the primary key, past every other network's rows
    // (many times the network's own), rather than through (network_id, id). 1.1 is the
    // usual value for SSDs and for tables that fit in memory. A connection string's own
    // `options` take precedence.
    options: "-c random_page_cost=1.1",
  };
}

/** The pool under each client opened here, for its connections' gauges (src/server/observability/metrics.ts). */
const poolOfClient = new WeakMap<object, PreparingPool>();

/** The pg pool under a Prisma client of openPostgres; null for any other (SQLite's). */
export const connectionPoolOf = (prisma: object): PreparingPool | null => poolOfClient.get(prisma) ?? null;

/**
 * The PostgreSQL client is generated from prisma/postgresql; its model types are identical to
 * the SQLite client's, which types the code. Loaded only when used.
 */
export function openPostgres(
  url: string,
  settings: PoolSettings,
): { prisma: PrismaClient; adapter: () => Promise<TransactionalAdapter>; pool: PreparingPool; pipelined: PipelinedConnection } {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { PrismaClient: PostgresClient } = require("../../generated/prisma-postgresql/client");
  const config = poolConfig(url, settings);
  // Pipeline mode: a client sends each statement as it is issued, not after the answer to the one
  // before, so a transaction's COMMIT follows its last statement at once (./transactions.ts).
  // Statements issued one at a time (Prisma's, the reads') run as before.
  const pool = new PreparingPool({ ...config, pipeline: true } as PoolConfig);
  // An idle connection that dies (server restart) must not crash the process: the pool drops it.
  // (The adapter listens too, once Prisma's client connects; the hot reads may come first.)
  pool.on("error", () => undefined);
  const factory = shareConnection(
    new PrismaPg(pool, {
      // An idle connection that dies (server restart) must not crash the process.
      onPoolError: () => undefined,
      onConnectionError: () => undefined,
      disposeExternalPool: true,
    }),
  );
  const prisma = new PostgresClient({ adapter: factory }) as PrismaClient;
  poolOfClient.set(prisma, pool);
  return {
    prisma,
    adapter: factory.connection,
    pool,
    // One connection more than the pool's size, for the reads by key.
    pipelined: new PipelinedConnection(config),
  };
}
