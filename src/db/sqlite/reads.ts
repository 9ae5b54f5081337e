// Hot reads on SQLite, on a read-only connection of their own, straight on libsql (the driver under
// @libsql/client and Prisma's adapter). @libsql/client builds every result row with two
// Object.defineProperty calls per column: a list page spent more there than on the query itself.
// libsql's statements answer rows as arrays, and the row objects are built here: libsql's own row
// objects (a native property set per value) cost more (figures: docs/performance.md). A connection
// of its own is safe: reads never run inside a transaction, and in WAL mode a read sees every
// committed write without waiting for a writer.
import Database from "libsql";
import { rowObject, type ReadSql, type RowTable, type SqlQuery } from "../adapterReads";
import { keptStatements } from "./keptStatements";
import { adapterBound } from "./libsqlValues";

const busyTimeoutMs = 5000;

type Statement = ReturnType<Database.Database["prepare"]>;

/** A statement that answers rows as arrays, with its column names. */
interface KeptStatement {
  statement: Statement;
  columns: string[];
}

export interface SqliteReads {
  read: ReadSql;
  close(): void;
}

/**
 * The read connection's page cache, in KiB (SQLite's default: 2,000). A search for a term not
 * asked before reads index and table pages no earlier request read; each page missing from the
 * cache is a read(2) of the file, which a new plate number in a large network pays many times
 * with the default cache (figures: docs/performance.md).
 * Adds at most 16 MiB to the process's memory.
 */
export const readCacheKib = 16_384;

export function openSqliteReads(file: string): SqliteReads {
  const connection = new Database(file);
  // A pragma that sets a value answers it as a row, which exec() refuses.
  connection.prepare(`PRAGMA busy_timeout = ${busyTimeoutMs}`).all();
  // A read connection never writes, whatever SQL it is given.
  connection.prepare("PRAGMA query_only = 1").all();
  connection.prepare(`PRAGMA cache_size = -${readCacheKib}`).all();
  // Statements kept per SQL text (./keptStatements.ts), each with its column names.
  const statements = keptStatements((sql): KeptStatement => {
    const statement = connection.prepare(sql);
    // A statement without result columns is no read (and raw() would refuse it).
    if (!statement.reader) throw new Error(`not a read: ${sql}`);
    statement.raw(true);
    return { statement, columns: statement.columns().map((column) => column.name) };
  });
  const prepared = statements.get;

  // Every statement runs to its end (all()) or is reset after its first row (get()): one left
  // unfinished would pin this connection to the snapshot of its next read (libsql leaves
  // EXPLAIN statements so).
  const tableOf = (query: SqlQuery): RowTable => {
    const { statement, columns } = prepared(query.sql);
    return { columns, rows: statement.all(query.values.map(adapterBound)) as unknown[][] };
  };
  const read = async <Row>(query: SqlQuery): Promise<Row[]> => {
    const { columns, rows } = tableOf(query);
    return rows.map((values) => rowObject<Row>(columns, values));
  };
  const table = async (query: SqlQuery) => tableOf(query);
  // libsql's all() sets up a row iterator and a batch array per call; get() steps once.
  const firstOf = (query: SqlQuery): RowTable => {
    const { statement, columns } = prepared(query.sql);
    const values = statement.get(query.values.map(adapterBound)) as unknown[] | undefined;
    return { columns, rows: values === undefined ? [] : [values] };
  };
  const first = async <Row>(query: SqlQuery): Promise<Row | undefined> => {
    const { columns, rows } = firstOf(query);
    return rows.length === 0 ? undefined : rowObject<Row>(columns, rows[0]);
  };
  const keyTable = async (query: SqlQuery) => firstOf(query);
  const close = () => {
    statements.clear();
    connection.close();
  };
  return { read: Object.assign(read, { first, byKey: first, keyTable, page: table }), close };
}
