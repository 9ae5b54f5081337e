// What the seed needs of a database: bulk inserts into the service's tables, with the
// bookkeeping that makes a bulk load fast (secondary indexes off during the load, rebuilt after).
import { providerOf } from "../../src/config/database";
import type { Row, TableSpec } from "./tables";

export interface FinishTimings {
  /** Rebuilding what was switched off for the load: secondary indexes, count triggers and their counts, foreign keys (PostgreSQL). */
  indexSeconds: number;
  /** ANALYZE (and VACUUM on PostgreSQL) so the planner sees the real sizes. */
  analyzeSeconds: number;
}

export interface Sink {
  /** Rows per insert call: big enough to amortise round trips, small enough to stream. */
  readonly chunkRows: number;
  /** Refuses a database that already holds data: the seed fills fresh databases only. */
  checkFresh(): Promise<void>;
  /** Load settings; switches off the non-unique indexes, known count triggers (and on PostgreSQL foreign keys) of the bulk tables. */
  beginLoad(bulkTables: TableSpec[]): Promise<void>;
  /** Inserts rows with explicit ids. The rows are encoded before the promise is returned. */
  insert(table: TableSpec, rows: Row[]): Promise<void>;
  /** Sequences after explicit ids, index rebuild, statistics, normal settings. */
  finishLoad(allTables: TableSpec[]): Promise<FinishTimings>;
  close(): Promise<void>;
}

export async function openSink(url: string): Promise<Sink> {
  // Loaded on demand: a SQLite run never loads pg, and the other way round.
  if (providerOf(url) === "sqlite") return (await import("./sqliteSink")).openSqliteSink(url);
  return (await import("./postgresSink")).openPostgresSink(url);
}

export const secondsSince = (start: number) => (performance.now() - start) / 1000;
