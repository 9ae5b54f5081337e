// A write transaction's statements straight on the connection under Prisma's libSQL adapter, for
// the groups that hold the adapter's lock through its own transaction (./groupCommit.ts). Through
// the adapter's transaction each statement takes that transaction's own lock (async-mutex), maps
// its values and wraps its answer, several promises per statement around a statement that libsql
// runs synchronously (figures: docs/performance.md).
//
// Invariants: values are bound as the adapter binds them and rows read as the adapter's reads give
// them to the stores (./libsqlValues.ts: instants as their stored text, integers as numbers), so a
// store writes and reads the same inside a group as through the adapter; a failure rejects the
// statement's promise (never throws at the call) with the driver's error.
import { rowObject, type SqlQuery } from "../adapterReads";
import type { WriteSql } from "../adapterWrites";
import type { SqliteConnectionClient } from "./connectionClient";

export function connectionWrites(client: Pick<SqliteConnectionClient, "runNow">): WriteSql {
  return {
    execute: async (statement) => client.runNow(statement.sql, statement.values).rowsAffected,
    returning: async <Row>(statement: SqlQuery) => {
      const { columns, rows } = client.runNow(statement.sql, statement.values);
      return rows.map((values) => rowObject<Row>(columns, values as unknown as unknown[]));
    },
  };
}
