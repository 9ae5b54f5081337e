// Hot writes as plain SQL on the driver adapter under Prisma's client (same connection or pool,
// and on SQLite the adapter's lock, so they queue with Prisma's own writes and transactions).
// Prisma's client costs CPU per statement on top of the database's own work (src/db/adapterReads.ts
// says why; figures: docs/performance.md), most of a write that is a single statement.
import type { DatabaseProvider } from "../config/database";
import { adapterQuery, adapterReads, type QueryableAdapter, type SqlQuery } from "./adapterReads";

export interface WriteSql {
  /** Runs a statement; answers the number of rows it changed. */
  execute(statement: SqlQuery): Promise<number>;
  /** Runs a statement with RETURNING; answers its rows by column name, values as the adapter reads them. */
  returning<Row>(statement: SqlQuery): Promise<Row[]>;
}

export function adapterWrites(provider: DatabaseProvider, adapter: () => Promise<QueryableAdapter>): WriteSql {
  return {
    execute: async (statement) => (await adapter()).executeRaw(adapterQuery(provider, statement)),
    returning: adapterReads(provider, adapter),
  };
}
