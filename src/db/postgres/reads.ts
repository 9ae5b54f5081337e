// Hot reads on PostgreSQL straight on the pg pool that Prisma's driver adapter runs on (same
// connections, same named statements). The adapter's own query path (its debug hooks, a type parser
// and column type per field and query, its argument mapping) cost CPU per statement over pg's that
// a get by id notices (figures: docs/performance.md). Values are read as the adapter reads them, so
// the callers' conversions hold on either path: instants as ISO text with "+00:00", numeric, date
// and JSON as text, 64-bit integers as text (pg's own default).
import pg from "pg";
import { rowObject, type ReadSql, type RowTable, type SqlQuery } from "../adapterReads";
import type { PreparingPool } from "./preparingPool";
import { ArrayRowsQuery, runArrayRows } from "./pgInternals";
import type { PipelinedConnection } from "./pipelinedConnection";

const { builtins } = pg.types;
const asText = (value: string) => value;

/** Parsers for the types the adapter reads otherwise than pg's defaults (@prisma/adapter-pg's customParsers). */
const parsers: Partial<Record<number, (value: string) => unknown>> = {
  [builtins.TIMESTAMP]: (value) => `${value.replace(" ", "T")}+00:00`,
  [builtins.TIMESTAMPTZ]: (value) => value.replace(" ", "T").replace(/[+-]\d{2}(:\d{2})?$/, "+00:00"),
  [builtins.NUMERIC]: asText,
  [builtins.DATE]: asText,
  [builtins.TIME]: asText,
  [builtins.JSON]: asText,
  [builtins.JSONB]: asText,
};

/** The type parsers of every hot read (bench/pgRows.ts's public-API variant reads with them too). */
export const readTypes = {
  getTypeParser: (oid: number, format?: string) =>
    (format === undefined || format === "text") && parsers[oid] ? parsers[oid] : pg.types.getTypeParser(oid, format as "text"),
} as pg.CustomTypesConfig;

/** An instant as the adapter sends one: UTC, without a zone (the columns are `timestamp(3)`). */
export const argument = (value: unknown) => (value instanceof Date ? value.toISOString().replace("T", " ").replace("Z", "") : value);

/** pg's answer as rows by column name. */
export function rowsOf<Row>(result: pg.QueryArrayResult): Row[] {
  const names = result.fields.map((field) => field.name);
  return result.rows.map((values) => rowObject<Row>(names, values));
}

/** pg's answer as it came: its rows' values in column order, and the columns' names. */
const tableOf = (result: pg.QueryArrayResult): RowTable => ({ columns: result.fields.map((field) => field.name), rows: result.rows });

/** A statement as the hot paths run it: named if the pool keeps its text, values as the adapter sends them. */
export const arrayRowsQueryOf = (pool: PreparingPool, text: string, values: readonly unknown[]) =>
  new ArrayRowsQuery(text, pool.keep(text), values.map(argument), readTypes);

export function postgresReads(pool: PreparingPool, pipelined: PipelinedConnection): ReadSql {
  const queryOf = (query: SqlQuery) => arrayRowsQueryOf(pool, query.text, query.values);
  // Failures are pg's own: src/db/databaseErrors.ts reads their SQLSTATE and message.
  const read = async <Row>(query: SqlQuery): Promise<Row[]> => rowsOf<Row>(await runArrayRows(pool, queryOf(query)));
  return Object.assign(read, {
    first: async <Row>(query: SqlQuery) => (await read<Row>(query))[0],
    byKey: async <Row>(query: SqlQuery) => rowsOf<Row>(await pipelined.query(queryOf(query)))[0],
    keyTable: async (query: SqlQuery) => tableOf(await pipelined.query(queryOf(query))),
    page: async (query: SqlQuery) => tableOf(await pool.runWithGenericPlan(queryOf(query))),
  });
}
