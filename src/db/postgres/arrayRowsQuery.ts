// A read on pg whose rows come as arrays, without two costs of pg's general query path that
// such reads never use: together ~7 us of the ~37 us of CPU a get by id costs the app
// in-process (min of rounds, PostgreSQL). Relies on pg 8's Query and Result internals
// (`_result`, `_parsers`); pg is pinned, and test/preparingPool.test.ts compares the values with
// Prisma's adapter's.
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

/** Runs the query on the pool (a connection for the query's time), to pg's result. */
export const runArrayRows = (pool: pg.Pool, query: ArrayRowsQuery) => pool.query(query as never) as unknown as Promise<pg.QueryArrayResult>;
