// PostgreSQL parses and plans every unnamed statement each time it runs: the API key look-up (a
// join) cost the server several times the CPU it costs as a named (prepared) statement whose plan
// PostgreSQL keeps (figures: docs/performance.md). The hot reads whose best plan does not depend on
// their values run named; Prisma's own statements and the searches stay unnamed.
import pg from "pg";

/**
 * Whether a statement's plan can be kept across values. A LIKE on search_text may be answered
 * through the trigram index or not, depending on the term: planned every time, as is the
 * gathering of a rare term's matches (MATERIALIZED). A search the service reads in order
 * (strpos, src/db/postgres/searchPlan.ts) has one sensible plan and is kept.
 */
export function planIsStable(sql: string): boolean {
  return !/\bLIKE\b|\bMATERIALIZED\b/i.test(sql);
}

/** Distinct texts named at most: past it, new texts run unnamed (no unbounded growth per connection). */
const maxNamedStatements = 200;

type QueryConfigWithName = pg.QueryConfig & { name?: string };

/** A pg Pool that runs the statement texts it was asked to keep as named statements. */
export class PreparingPool extends pg.Pool {
  private readonly names = new Map<string, string>();

  /**
   * Runs `text` as a named statement from now on, if its plan is stable and room is left; the
   * name it runs under (undefined: unnamed). A caller that passes the name in its config skips
   * the copy `query` makes to add it: pg copies every config again (its property descriptors),
   * which costs more for a config made by spreading (figures: docs/performance.md).
   */
  keep(text: string): string | undefined {
    const name = this.names.get(text);
    if (name !== undefined || this.names.size >= maxNamedStatements || !planIsStable(text)) return name;
    // Never reused for another text: a connection refuses a name it prepared with other SQL.
    const added = `vrd_${this.names.size + 1}`;
    this.names.set(text, added);
    return added;
  }

  // pg's overloads (callback or promise, config or text) all pass through; only a config
  // object of a kept text gains a name.
  override query(...args: unknown[]): never {
    const [config] = args;
    // A query object (src/db/postgres/pgInternals.ts) names itself; copying it would break it.
    if (config && typeof config === "object" && !(config as QueryConfigWithName).name && !(config as Partial<pg.Submittable>).submit) {
      const name = this.names.get((config as QueryConfigWithName).text);
      if (name) args[0] = { ...(config as QueryConfigWithName), name };
    }
    return (super.query as (...callArgs: unknown[]) => never)(...args);
  }
}
