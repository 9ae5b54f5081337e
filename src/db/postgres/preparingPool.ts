// PostgreSQL parses and plans every unnamed statement each time it runs: the API key look-up (a
// join) cost the server several times the CPU it costs as a named (prepared) statement whose plan
// PostgreSQL keeps (figures: docs/performance.md). The hot reads whose best plan does not depend on
// their values run named; Prisma's own statements and the searches stay unnamed.
//
// A named statement's plan is kept only if PostgreSQL picks its generic plan, and by default
// (plan_cache_mode auto) it compares costs. A page's generic plan cannot know LIMIT and OFFSET and
// is priced for a tenth of the network's rows, so a named page was planned again at every run.
// Pages therefore run on a connection set to force_generic_plan (runWithGenericPlan); every other
// use of a connection gets it back as configured first. Not every named statement: the duty hours
// report's and the officers page's best plans depend on their values (docs/performance.md).
import pg from "pg";
import { runOnClient, type ArrayRowsQuery } from "./pgInternals";

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

type PlanMode = "generic" | "configured";

/** What each connection was last set to; a connection not in it is set before its next use. */
const planModes = new WeakMap<pg.PoolClient, PlanMode>();

/**
 * Sets the connection's plan mode if it is not set so. The SET goes out before the statement the
 * caller sends next on the connection (pipeline mode sends each as it is issued, in order); if it
 * fails, the mode is set again at the connection's next use. RESET gives back the connection's
 * own setting (the server's, or a connection string's `options`).
 */
function planOn(client: pg.PoolClient, mode: PlanMode): void {
  if (planModes.get(client) === mode) return;
  planModes.set(client, mode);
  client.query(mode === "generic" ? "SET plan_cache_mode = force_generic_plan" : "RESET plan_cache_mode").catch(() => planModes.delete(client));
}

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

  /**
   * Every connection handed out (to pg's own query, Prisma's adapter, a transaction) is set back
   * as configured first, if a page left it generic.
   */
  override connect(...args: unknown[]): never {
    const [callback] = args as [((error: Error | undefined, client: pg.PoolClient | undefined, done: unknown) => void) | undefined];
    if (typeof callback !== "function") {
      return super.connect().then((client) => {
        planOn(client, "configured");
        return client;
      }) as never;
    }
    return super.connect((error, client, done) => {
      if (!error && client) planOn(client, "configured");
      callback(error, client, done);
    }) as never;
  }

  /**
   * Runs a named statement whose best plan does not depend on its values (a page: its LIMIT and
   * OFFSET) with its generic plan, which PostgreSQL then keeps; an unnamed one as any other
   * (planned for its values, as a search must be). The connection is released as pg's own query
   * releases it: with the error, if any, so a connection that failed is not reused.
   */
  async runWithGenericPlan(query: ArrayRowsQuery): Promise<pg.QueryArrayResult> {
    if (!(query as { name?: string }).name) return this.query(query as never) as Promise<pg.QueryArrayResult>;
    const client = await super.connect();
    // A connection lost while the statement runs fails it (runOnClient's rejection); the
    // listener keeps its error event from reaching the process.
    const lost = () => undefined;
    client.on("error", lost);
    planOn(client, "generic");
    try {
      const result = await runOnClient(client, query);
      client.release();
      return result;
    } catch (error) {
      client.release(error as Error);
      throw error;
    } finally {
      client.removeListener("error", lost);
    }
  }
}
