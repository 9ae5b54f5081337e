// Prepared statements kept per connection, by SQL text, made with libsql's public API only
// (`Database.prepare`). A statement can be run again with other parameters; SQLite re-prepares
// a kept statement by itself when the schema changes. Each connection owns its own: a statement
// belongs to the connection that prepared it, and goes with it (clear() when it closes).
// docs/performance.md ("SQLite: statements kept per connection") says what this buys.

/** Statements one connection keeps; the service sends a few dozen distinct texts. */
export const maxStatementsPerConnection = 500;

export interface KeptStatements<Kept> {
  /** The statement kept for this text, prepared on its first use. */
  get(sql: string): Kept;
  /** How many are kept now. */
  readonly size: number;
  /** Forgets them all: the connection is closing. */
  clear(): void;
}

/**
 * Statements kept by text, made by `prepare` on first use. A connection that would keep more
 * than `max` starts over (the whole set is dropped), so what it keeps stays bounded whatever
 * SQL it is sent.
 */
export function keptStatements<Kept>(prepare: (sql: string) => Kept, max = maxStatementsPerConnection): KeptStatements<Kept> {
  const kept = new Map<string, Kept>();
  return {
    get(sql) {
      let statement = kept.get(sql);
      if (statement === undefined) {
        // Prepared first: a statement that fails to prepare leaves what is kept as it was.
        statement = prepare(sql);
        if (kept.size >= max) kept.clear();
        kept.set(sql, statement);
      }
      return statement;
    },
    get size() {
      return kept.size;
    },
    clear: () => kept.clear(),
  };
}
