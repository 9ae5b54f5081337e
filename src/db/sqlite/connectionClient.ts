// The libSQL client under Prisma's adapter: one libsql connection that keeps the statements it
// prepared (./keptStatements.ts), built on libsql's public API (`new Database`, `prepare`, a
// statement's `reader`, `raw`, `safeIntegers`, `columns`, `all`, `run`).
//
// Why a client of our own: Prisma's libSQL adapter runs everything through the @libsql/client
// `Client` its factory's `createClient(config)` answers (./adapter.ts), and @libsql/client
// prepares every statement anew, on a libsql connection it keeps private: only patching libsql's
// `Database.prototype.prepare` for the whole process could reach it. `createClient` is the
// public seam: the client it answers here implements @libsql/client's `Client` interface as its
// local-file client does (results, values: ./libsqlValues.ts, errors as `LibsqlError`), for the
// one reader of its results, Prisma's adapter. SQLITE_STATEMENT_CACHE=off gives the stock client.
//
// Invariants:
// - A kept statement keeps its result columns (asking libsql for them each run is a costly native
//   call). SQLite re-prepares a kept statement itself when the schema changes, and every
//   statement the service sends names its columns, so a schema change cannot change them.
// - Rows are arrays of values: Prisma's adapter reads a row by index (`row.length`, `row[i]`) and
//   the names from `columns`, so no row object by column name is built.
// - Transactions run on this one connection (./sharedTransaction.ts).
import Database from "libsql";
import { LibsqlError, type Client, type Config, type InArgs, type InStatement, type ResultSet, type Row, type TransactionMode } from "@libsql/client";
import { sqliteFilePath } from "./filePath";
import { keptStatements, type KeptStatements } from "./keptStatements";
import { adapterBound, valueFromSql, valueToSql } from "./libsqlValues";
import { sharedConnectionTransaction } from "./sharedTransaction";

type Statement = ReturnType<Database.Database["prepare"]>;

/** A statement as this connection keeps it, with what each run would otherwise ask again. */
interface KeptStatement {
  statement: Statement;
  /** Whether it answers rows (raw mode is set then): else it is run for its changes. */
  reader: boolean;
  columns: string[];
  columnTypes: string[];
}

/** The file (or ":memory:") of a config this client opens: a local file or memory, with no other setting. */
function pathOf(config: Config): string {
  const { url, intMode, ...others } = config;
  const unsupported = Object.entries({ ...others, intMode: intMode === "number" ? undefined : intMode })
    .filter(([, value]) => value !== undefined)
    .map(([name]) => name);
  if (unsupported.length > 0 || url.includes("?")) {
    throw new Error(
      `the SQLite client opens local files only, set by their url alone (not ${unsupported.join(", ") || url}); ` +
        "SQLITE_STATEMENT_CACHE=off uses @libsql/client's own",
    );
  }
  if (url === ":memory:" || url === "file::memory:") return ":memory:";
  if (!url.startsWith("file:")) throw new Error(`the SQLite client opens file: URLs only, not ${url.split(":")[0]}:`);
  return sqliteFilePath(url);
}

/** Arguments as libsql binds them: positional, or named without their prefix. */
function argsToSql(args: InArgs | undefined): unknown[] | Record<string, unknown> {
  if (args === undefined) return [];
  if (Array.isArray(args)) return args.map(valueToSql);
  const named: Record<string, unknown> = {};
  for (const name in args) named["@$:".includes(name[0]) ? name.slice(1) : name] = valueToSql(args[name]);
  return named;
}

/** A driver error as @libsql/client reports it (Prisma's adapter reads `code` and `rawCode`). */
function libsqlError(error: unknown): unknown {
  if (error instanceof Database.SqliteError) return new LibsqlError(error.message, error.code, error.rawCode, error);
  return error;
}

const resultSet = (columns: string[], columnTypes: string[], rows: Row[], rowsAffected: number, lastInsertRowid: bigint | undefined): ResultSet => ({
  columns,
  columnTypes,
  rows,
  rowsAffected,
  lastInsertRowid,
  // As @libsql/client writes a result as JSON: blobs in base64, the row id as text.
  toJSON: () => ({
    columns,
    columnTypes,
    rows: rows.map((row) =>
      Array.from(row as unknown as ArrayLike<unknown>, (value) => (value instanceof ArrayBuffer ? Buffer.from(value).toString("base64") : value)),
    ),
    rowsAffected,
    lastInsertRowid: lastInsertRowid === undefined ? null : String(lastInsertRowid),
  }),
});

class ConnectionClient implements Client {
  closed = false;
  readonly protocol = "file";
  readonly #connection: Database.Database;
  readonly #statements: KeptStatements<KeptStatement>;

  constructor(connection: Database.Database) {
    this.#connection = connection;
    this.#statements = keptStatements((sql) => {
      const statement = connection.prepare(sql);
      // Integers come as bigint, so none is rounded unseen (valueFromSql checks them).
      statement.safeIntegers(true);
      const reader = statement.reader;
      if (!reader) return { statement, reader, columns: [], columnTypes: [] };
      statement.raw(true);
      const described = statement.columns();
      const columns = described.map((column) => column.name);
      return { statement, reader, columns, columnTypes: described.map((column) => column.type ?? "") };
    });
  }

  execute(statement: InStatement): Promise<ResultSet>;
  execute(sql: string, args?: InArgs): Promise<ResultSet>;
  async execute(statement: InStatement, args?: InArgs): Promise<ResultSet> {
    this.#checkOpen();
    return typeof statement === "string" ? this.#run(statement, args) : this.#run(statement.sql, statement.args);
  }

  #run(sql: string, args: InArgs | undefined): ResultSet {
    const values = argsToSql(args);
    try {
      const { statement, reader, columns, columnTypes } = this.#statements.get(sql);
      if (!reader) {
        const { changes, lastInsertRowid } = statement.run(values);
        return resultSet([], [], [], changes, BigInt(lastInsertRowid));
      }
      const rows = statement.all(values) as unknown[][];
      for (const row of rows) for (let i = 0; i < row.length; i++) row[i] = valueFromSql(row[i]);
      // @libsql/client reports no changes and no row id for a statement that answers rows.
      return resultSet(columns, columnTypes, rows as unknown as Row[], 0, undefined);
    } catch (error) {
      throw libsqlError(error);
    }
  }

  /** All statements or none, in one transaction (Prisma's adapter sends none). */
  async batch(statements: InStatement[], mode: TransactionMode = "deferred"): Promise<ResultSet[]> {
    const transaction = await this.transaction(mode);
    try {
      const results = [];
      for (const statement of statements) results.push(await transaction.execute(statement));
      await transaction.commit();
      return results;
    } finally {
      transaction.close();
    }
  }

  async transaction(mode: TransactionMode = "write") {
    this.#checkOpen();
    return sharedConnectionTransaction((statement) => this.execute(statement), mode);
  }

  async executeMultiple(sql: string): Promise<void> {
    this.#checkOpen();
    try {
      this.#connection.exec(sql);
    } catch (error) {
      throw libsqlError(error);
    } finally {
      // As @libsql/client does: a script never leaves a transaction open.
      if (this.#connection.inTransaction) this.#run("ROLLBACK", undefined);
    }
  }

  async sync(): Promise<void> {
    throw new LibsqlError("sync() is for embedded replicas; this is a local file", "SYNC_NOT_SUPPORTED");
  }

  /** Closes the connection; the statements it kept go with it. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.#statements.clear();
    this.#connection.close();
  }

  /** How many statements this connection keeps (tests). */
  get keptStatementCount(): number {
    return this.#statements.size;
  }

  /**
   * Runs a statement now, its values bound as Prisma's adapter binds them (./libsqlValues.ts):
   * for the statements of a transaction whose lock the caller holds through Prisma's adapter
   * (./groupCommit.ts). Errors come as from `execute`.
   */
  runNow(sql: string, values: readonly unknown[]): ResultSet {
    this.#checkOpen();
    return this.#run(sql, values.map(adapterBound) as InArgs);
  }

  /** Runs a statement on the connection now (the file opens lazily). */
  check(): void {
    this.#run("SELECT 1 AS checkThatTheDatabaseCanBeOpened", undefined);
  }

  #checkOpen() {
    if (this.closed) throw new LibsqlError("The client is closed", "CLIENT_CLOSED");
  }
}

/**
 * Opens the client on a new connection to the config's file. Like @libsql/client, it runs a
 * statement at once, so a file that cannot be opened (no such folder, no permission) fails
 * here, when Prisma's adapter connects, not at the first query.
 */
export type SqliteConnectionClient = Client & Pick<ConnectionClient, "keptStatementCount" | "runNow">;

export function openConnectionClient(config: Config): SqliteConnectionClient {
  const client = new ConnectionClient(new Database(pathOf(config)));
  try {
    client.check();
  } catch (error) {
    client.close();
    throw error;
  }
  return client;
}
