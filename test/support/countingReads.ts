// A read path that records every statement sent on it, for tests that count statements:
// `statements` is the live record, `statementsOf` the statements of one action.
import type { ReadSql } from "../../src/db/adapterReads";

export function countingReads(read: ReadSql) {
  const statements: string[] = [];
  const counted: ReadSql = Object.assign(
    async <Row>(query: Parameters<ReadSql>[0]) => {
      statements.push(query.sql);
      return read<Row>(query);
    },
    {
      first: async <Row>(query: Parameters<ReadSql>[0]) => {
        statements.push(query.sql);
        return read.first<Row>(query);
      },
      byKey: async <Row>(query: Parameters<ReadSql>[0]) => {
        statements.push(query.sql);
        return read.byKey<Row>(query);
      },
      keyTable: async (query: Parameters<ReadSql>[0]) => {
        statements.push(query.sql);
        return read.keyTable(query);
      },
      page: async (query: Parameters<ReadSql>[0]) => {
        statements.push(query.sql);
        return read.page(query);
      },
    },
  );
  /** The statements `action` sent. */
  const statementsOf = async <T>(action: () => Promise<T>) => {
    statements.length = 0;
    const result = await action();
    return { result, statements: [...statements] };
  };
  return { read: counted, statements, statementsOf };
}
