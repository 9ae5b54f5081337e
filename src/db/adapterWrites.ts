// Hot writes of a single statement as plain SQL on the driver adapter under Prisma's client (same
// connection or pool, and on SQLite the adapter's lock, so they queue with Prisma's own writes
// and transactions). Prisma's client costs ~0.3 ms of CPU per statement on top of the database's
// own work (src/db/adapterReads.ts says why); a dutytime toggle is two statements.
import type { Prisma } from "../generated/prisma/client";
import type { DatabaseProvider } from "../config/database";
import { adapterQuery, type QueryableAdapter } from "./adapterReads";

/** Runs a statement; answers the number of rows it changed. */
export type ExecuteSql = (statement: Prisma.Sql) => Promise<number>;

export function adapterWrites(provider: DatabaseProvider, adapter: () => Promise<QueryableAdapter>): ExecuteSql {
  return async (statement) => (await adapter()).executeRaw(adapterQuery(provider, statement));
}
