// The one place that relies on pg's internals (pg pinned exactly in package.json; guarded by
// test/pgInternals.test.ts, which runs in plain `npm test` without a server, and by
// test/preparingPool.test.ts, which compares the values with Prisma's adapter's on PostgreSQL).
// docs/performance.md says what each buys; bench/pgRows.ts measures the reads against pg's public API.
//
// A read on pg whose rows come as arrays, without two costs of pg's general query path that
// such reads never use (Query and Result internals `_rowMode`, `_result`, `_results`,
// `_parsers`); its answer through the query's `callback` (for a query run on a pipelined
// client); and the Prisma CLI's client that reports catalog types as text
// (`_handleRowDescription`).
import pg from "pg";

export interface TypeParsers {
  getTypeParser(oid: number, format?: string): (value: string) => unknown;
}

/**
 * pg's Result without the row object pg builds at every RowDescription (an object of the
 * statement's column names, then copied): only rows read as objects start from it.
 */
class ArrayRowsResult extends pg.Result {
  constructor(private readonly typeParsers: TypeParsers) {
    super("array", typeParsers as typeof pg.types);
  }

  addFields(fields: pg.FieldDef[]): void {
    this.fields = fields;
    (this as unknown as { _parsers: unknown[] })._parsers = fields.map((field) => this.typeParsers.getTypeParser(field.dataTypeID, "text"));
  }
}

/**
 * pg's Query made from a text and values rather than a config object, which pg copies by its
 * property descriptors at every query. Run it with runArrayRows or
 * PipelinedConnection.query: the result is pg's, its rows arrays.
 */
export class ArrayRowsQuery extends pg.Query {
  constructor(text: string, name: string | undefined, values: unknown[], typeParsers: TypeParsers) {
    super(text, values);
    const query = this as unknown as { name?: string; _rowMode: string; _result: pg.Result; _results: pg.Result };
    query.name = name;
    query._rowMode = "array";
    query._result = query._results = new ArrayRowsResult(typeParsers);
  }
}

/** Runs the query on a client, to pg's result: pg answers a query object through its `callback`. */
export function runOnClient(client: pg.Client, query: ArrayRowsQuery): Promise<pg.QueryArrayResult> {
  return new Promise((resolve, reject) => {
    (query as unknown as { callback: (error: Error | null, result: pg.QueryArrayResult) => void }).callback = (error, result) =>
      error ? reject(error) : resolve(result);
    client.query(query as never);
  });
}

/**
 * Makes a client report `name` and `"char"` columns as text: pg hands every RowDescription
 * message to `_handleRowDescription` before it builds the result, so what reads the result
 * only ever sees oid 25, and the values (plain strings) stay as they are.
 */
export function reportCatalogTypesAsText(client: pg.Client): void {
  const self = client as unknown as { _handleRowDescription(msg: { fields: { dataTypeID: number }[] }): void };
  const handle = self._handleRowDescription;
  self._handleRowDescription = function (msg) {
    for (const field of msg.fields) {
      if (field.dataTypeID === catalogOid.name || field.dataTypeID === catalogOid.char) field.dataTypeID = catalogOid.text;
    }
    handle.call(this, msg);
  };
}

const catalogOid = { char: 18, name: 19, text: 25 };

/** Runs the query on the pool (a connection for the query's time), to pg's result. */
export const runArrayRows = (pool: pg.Pool, query: ArrayRowsQuery) => pool.query(query as never) as unknown as Promise<pg.QueryArrayResult>;
