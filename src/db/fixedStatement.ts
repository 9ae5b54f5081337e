// Statements whose text never changes, rendered once. `Prisma.sql` renders its text anew each
// time `.sql` or `.text` is read (a concatenation per placeholder), and the read paths find a
// kept statement (SQLite) or a named one (PostgreSQL) by that text: a new string per request,
// flattened and hashed again. A fixed statement renders its text once, when it is made (most
// when their module loads); a call only places its values, and the same two strings are looked
// up every time.
import type { Prisma } from "../generated/prisma/client";

/**
 * What the read and write paths run: the text with `?` placeholders (`sql`: SQLite), with `$n`
 * ones (`text`: PostgreSQL), and the values in their order. `Prisma.sql`'s Sql is one.
 */
export interface SqlQuery {
  readonly sql: string;
  readonly text: string;
  readonly values: readonly unknown[];
}

const computed = () => {
  throw new Error("a fixed statement places its arguments as they are: compute values before the call");
};

/**
 * Stands for an argument while the statement is rendered. Any arithmetic, text or JSON made of
 * it fails (its value is not known yet): a statement takes its arguments as they are.
 */
class Argument {
  constructor(readonly index: number) {}
  [Symbol.toPrimitive] = computed;
  toString = computed;
  toJSON = computed;
}

/**
 * The statement `build` renders, its text made once: `build` is called once, with stand-ins for
 * its arguments, and must not look at them (no condition on a value: its text would be the one
 * of the stand-ins). Values written into the text by `build` itself stay as they are. `arity`:
 * how many arguments it takes, where its declaration does not say (a rest parameter).
 */
export function fixedStatement<Args extends unknown[]>(build: (...args: Args) => Prisma.Sql, arity = build.length): (...args: Args) => SqlQuery {
  const stand = Array.from({ length: arity }, (_, index) => new Argument(index)) as unknown as Args;
  const template = build(...stand);
  const { sql, text } = template;
  const constants: readonly unknown[] = [...template.values];
  // Per value: the argument it is, or -1 for a value of the text's own.
  const places = constants.map((value) => (value instanceof Argument ? value.index : -1));
  if (constants.some((value) => value === undefined)) throw new Error(`a fixed statement has an undefined value: ${sql}`);
  // An argument the text does not place (a default parameter's, one used only in a condition) would be dropped.
  for (let index = 0; index < arity; index++) {
    if (!places.includes(index)) throw new Error(`a fixed statement does not place its argument ${index}: ${sql}`);
  }
  return (...args) => {
    // A default parameter is not counted by `build.length`: its argument would be ignored.
    if (args.length !== arity) throw new Error(`a fixed statement takes ${arity} arguments, not ${args.length}: ${sql}`);
    const values = new Array<unknown>(places.length);
    for (let i = 0; i < places.length; i++) values[i] = places[i] < 0 ? constants[i] : args[places[i]];
    return { sql, text, values };
  };
}
