// The one place that relies on the internals of the `libsql` driver (pinned exactly in
// package.json; guarded by test/sqliteStatementCache.test.ts, which runs in plain `npm test`).
// docs/performance.md says what it buys and how to turn it off (SQLITE_STATEMENT_CACHE=off).
//
// @libsql/client prepares every statement anew. Its statements can be run again with other
// parameters, so each connection keeps the ones it prepared, by SQL text; SQLite re-prepares a
// kept statement by itself when the schema changes. The client also asks each run twice for
// the result's columns, a costly native call: a kept statement remembers them. Every statement
// the service sends names its columns, so a schema change cannot change them.
//
// The driver's Database class is patched where @libsql/client loads it from: the guard test
// fails if the client resolves another copy of `libsql` than this module patches.
interface Statement {
  columns(): unknown[];
}

interface DatabaseClass {
  prototype: { prepare(sql: string): Statement };
}

/** Statements kept per connection; a connection preparing more starts over. */
const maxStatementsPerConnection = 500;

/** Whether the patch is on: SQLITE_STATEMENT_CACHE=off leaves the driver as it is. */
export const statementCacheEnabled = () => process.env.SQLITE_STATEMENT_CACHE !== "off";

/** Patches libsql's Database.prepare once per process (a no-op when turned off or done). */
export function keepPreparedStatements(): void {
  if (!statementCacheEnabled()) return;
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the class @libsql/client loads, not a type
  const Database = require("libsql") as DatabaseClass;
  const prepare = Database.prototype.prepare;
  if ((prepare as { cached?: boolean }).cached) return;
  const caches = new WeakMap<object, Map<string, Statement>>();
  const cachedPrepare = function (this: object, sql: string) {
    let cache = caches.get(this);
    if (!cache) caches.set(this, (cache = new Map()));
    let statement = cache.get(sql);
    if (statement === undefined) {
      statement = rememberColumns(prepare.call(this, sql));
      if (cache.size >= maxStatementsPerConnection) cache.clear();
      cache.set(sql, statement);
    }
    return statement;
  };
  Database.prototype.prepare = Object.assign(cachedPrepare, { cached: true });
}

function rememberColumns(statement: Statement): Statement {
  const columns = statement.columns.bind(statement);
  let known: unknown[] | undefined;
  statement.columns = () => (known ??= columns());
  return statement;
}
