// Plain SQL on the driver adapter that Prisma's client itself runs on (same pool or connection):
// Prisma 6.19's client plans every query in Wasm, raw ones too, which costs several times the CPU
// of the adapter alone (figures: docs/performance.md). The hot writes read their RETURNING rows
// here (src/db/adapterWrites.ts); the hot reads go one step lower still, to the driver itself
// (src/db/postgres/reads.ts, src/db/sqlite/reads.ts).
import type { DatabaseProvider } from "../config/database";
import type { SqlQuery } from "./fixedStatement";

export type { SqlQuery };

type ArgScalarType = "string" | "int" | "float" | "boolean" | "datetime" | "unknown";

/** A statement as Prisma's driver adapters take it. */
export interface AdapterQuery {
  sql: string;
  args: unknown[];
  argTypes: { scalarType: ArgScalarType; arity: "scalar" }[];
}

/** The part of Prisma's driver adapter interface (SqlQueryable) plain SQL needs. */
export interface QueryableAdapter {
  queryRaw(query: AdapterQuery): Promise<{ columnNames: string[]; rows: unknown[][] }>;
  executeRaw(query: AdapterQuery): Promise<number>;
}

/**
 * Makes the factory hand out one adapter, however often it is asked: Prisma's client connects
 * through it, and `connection()` returns that same adapter for the reads here. A failed attempt
 * is forgotten, so the next one tries again.
 */
export function shareConnection<Factory extends { connect(): Promise<unknown> }>(
  factory: Factory,
): Factory & { connection: Factory["connect"] } {
  type Adapter = Awaited<ReturnType<Factory["connect"]>>;
  const connect = factory.connect.bind(factory) as () => Promise<Adapter>;
  let connected: Promise<Adapter> | undefined;
  const connection = () =>
    (connected ??= connect().catch((error: unknown) => {
      connected = undefined;
      throw error;
    }));
  return Object.assign(factory, { connect: connection, connection });
}

function scalarTypeOf(value: unknown): ArgScalarType {
  if (typeof value === "number") return Number.isInteger(value) ? "int" : "float";
  if (typeof value === "string") return "string";
  if (typeof value === "boolean") return "boolean";
  if (value instanceof Date) return "datetime";
  return "unknown";
}

/** Plain-SQL reads: the rows of a statement, or only its first (a `Prisma.sql` query, or a fixed statement's: ./fixedStatement.ts). */
export interface ReadSql {
  <Row>(query: SqlQuery): Promise<Row[]>;
  /**
   * The first row, or undefined: for statements that answer at most one (a key, a row by id, a
   * kept count). SQLite steps such a statement once instead of collecting its rows (cheaper).
   */
  first<Row>(query: SqlQuery): Promise<Row | undefined>;
  /**
   * The row a key names (primary or unique key; a network's kept counts by its id): a look-up
   * of one index entry, never a scan. PostgreSQL runs these on a connection they share
   * (src/db/postgres/pipelinedConnection.ts); elsewhere it is `first`.
   */
  byKey<Row>(query: SqlQuery): Promise<Row | undefined>;
  /** byKey's row as a table (no row, or one): for a caller that reads its values by position. */
  keyTable(query: SqlQuery): Promise<RowTable>;
  /**
   * The rows of a page, as the driver reads them (arrays of values) with the columns' names: a
   * page of 30 rows is not copied into 30 objects by column name before it is read once. A page
   * is a statement whose best plan does not depend on its values, LIMIT and OFFSET among them.
   * PostgreSQL runs a named page with its generic plan, planned once
   * (src/db/postgres/preparingPool.ts); elsewhere it is the read itself.
   */
  page(query: SqlQuery): Promise<RowTable>;
}

/** A statement's rows as arrays of values, in the order of its columns. */
export interface RowTable {
  columns: readonly string[];
  rows: readonly (readonly unknown[])[];
}

/** A row's values as an object by column name, as the adapter answers rows: one place for every read path. */
export function rowObject<Row>(names: readonly string[], values: readonly unknown[]): Row {
  const row: Record<string, unknown> = {};
  for (let i = 0; i < names.length; i++) row[names[i]] = values[i];
  return row as Row;
}

/** The value of column `name` in the table's first row (undefined without rows or column). */
export const firstRowValue = (table: RowTable, name: string): unknown => table.rows[0]?.[table.columns.indexOf(name)];

/** A query (`Prisma.sql`'s, or a fixed statement's) as the adapter of `provider` takes it. */
export function adapterQuery(provider: DatabaseProvider, query: SqlQuery): AdapterQuery {
  const args = [...query.values];
  return {
    // `?` placeholders in .sql, `$1` ones in .text.
    sql: provider === "postgresql" ? query.text : query.sql,
    args,
    argTypes: args.map((value) => ({ scalarType: scalarTypeOf(value), arity: "scalar" as const })),
  };
}

/**
 * Runs a query on the adapter and returns its rows as objects by column name.
 * Values come as the adapter gives them (dates as ISO text, 64-bit integers possibly as text):
 * the callers convert what they read.
 */
export function adapterReads(provider: DatabaseProvider, adapter: () => Promise<Pick<QueryableAdapter, "queryRaw">>): ReadSql {
  const table = async (query: SqlQuery): Promise<RowTable> => {
    const { columnNames, rows } = await (await adapter()).queryRaw(adapterQuery(provider, query));
    return { columns: columnNames, rows };
  };
  const read = async <Row>(query: SqlQuery): Promise<Row[]> => {
    const { columns, rows } = await table(query);
    return rows.map((values) => rowObject<Row>(columns, values));
  };
  const first = async <Row>(query: SqlQuery) => (await read<Row>(query))[0];
  const keyTable = async (query: SqlQuery): Promise<RowTable> => {
    const { columns, rows } = await table(query);
    return { columns, rows: rows.slice(0, 1) };
  };
  return Object.assign(read, { first, byKey: first, keyTable, page: table });
}

/**
 * State kept per read path, i.e. per database a process has open (tests open several): made on
 * first use, gone with the read path.
 */
export function keptPerReadPath<State extends object>(make: () => State): (read: ReadSql) => State {
  const kept = new WeakMap<ReadSql, State>();
  return (read) => {
    let state = kept.get(read);
    if (!state) kept.set(read, (state = make()));
    return state;
  };
}
