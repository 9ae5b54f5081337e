// Fairness between networks: one key's operations may hold only so many places and so much cost
// at once (KEY_MAX_OPERATIONS_IN_FLIGHT, KEY_MAX_COST_IN_FLIGHT); more wait in line in the order
// they came (up to KEY_MAX_QUEUED, then 429), and an operation waiting and running longer than
// OPERATION_TIMEOUT_MS answers 503. Node runs one operation's JavaScript at a time, so what
// another network waits for is what this key has running: bounding it bounds their wait.
// A place is given back when the operation's work really ends, not when its request gave up
// waiting for it, so a key cannot pile up work behind answered timeouts.
import { GraphQLError } from "graphql";
import type { Limits } from "../config/limits";
import { ErrorCode } from "../errors";
import { deadlines, sweepPeriodFor } from "./deadlines";

const isPromiseLike = <T>(value: T | PromiseLike<T>): value is PromiseLike<T> =>
  typeof (value as PromiseLike<T> | null)?.then === "function";

export type FairnessLimits = Pick<Limits, "keyMaxOperationsInFlight" | "keyMaxCostInFlight" | "keyMaxQueued" | "operationTimeoutMs">;

/** The refusals of this module carry their HTTP status (no operation ran, or its answer is lost). */
const lineFull = () =>
  new GraphQLError("Too many operations of this key are running or waiting. Retry shortly.", {
    extensions: { code: ErrorCode.RATE_LIMITED, retryAfter: 1, http: { status: 429, headers: { "Retry-After": "1" } } },
  });

const tooLong = (ms: number) =>
  new GraphQLError(`The operation did not finish within ${ms} ms.`, {
    extensions: { code: ErrorCode.UNAVAILABLE, http: { status: 503 } },
  });

interface Waiting {
  cost: number;
  start(): void;
}

/** One key's operations: those running, and those waiting for a place. */
interface Line {
  running: number;
  cost: number;
  waiting: Waiting[];
}

export function keyFairness(limits: FairnessLimits) {
  const lines = new Map<number | string, Line>();
  // One deadline per operation, set when it comes: it covers its wait in line and its run.
  const due = deadlines(limits.operationTimeoutMs, sweepPeriodFor(limits.operationTimeoutMs));

  const fits = (line: Line, cost: number) =>
    line.running === 0 || (line.running < limits.keyMaxOperationsInFlight && line.cost + cost <= limits.keyMaxCostInFlight);

  function release(key: number | string, line: Line, cost: number) {
    line.running -= 1;
    line.cost -= cost;
    while (line.waiting.length > 0 && fits(line, line.waiting[0].cost)) line.waiting.shift()!.start();
    if (line.running === 0 && line.waiting.length === 0) lines.delete(key);
  }

  return {
    /**
     * Runs `work` for `key` when the key has a place for an operation of this cost; its result,
     * or a refusal (line full: RATE_LIMITED, too long: UNAVAILABLE) as `refused` makes it.
     */
    run<Result>(key: number | string, cost: number, work: () => Result | Promise<Result>, refused: (error: GraphQLError) => Result): Promise<Result> {
      let line = lines.get(key);
      if (!line) lines.set(key, (line = { running: 0, cost: 0, waiting: [] }));
      const current = line;
      const weight = Math.min(cost, limits.keyMaxCostInFlight);
      const startsNow = current.waiting.length === 0 && fits(current, weight);
      if (!startsNow && current.waiting.length >= limits.keyMaxQueued) return Promise.resolve(refused(lineFull()));

      return new Promise<Result>((resolve, reject) => {
        /**
         * The work in the key's place; its end gives the place back and cancels the deadline,
         * before its result is handed on. Plain callbacks rather than a chain of `then` and
         * `finally`: every operation passes here, and each link of a chain is a promise and a
         * turn of the microtask queue more (figures: docs/performance.md).
         */
        const begin = () => {
          const end = () => {
            due.cancel(deadline);
            release(key, current, weight);
          };
          let result: Result | PromiseLike<Result>;
          try {
            result = work();
          } catch (error) {
            end();
            return reject(error);
          }
          if (!isPromiseLike(result)) {
            end();
            return resolve(result);
          }
          // A native promise calls back once; any other thenable is made one first, which also
          // turns a `then` that throws into a rejection.
          (result instanceof Promise ? result : Promise.resolve(result)).then(
            (value) => {
              end();
              resolve(value);
            },
            (error: unknown) => {
              end();
              reject(error);
            },
          );
        };
        /** Takes the place at once; the work begins now, or in a microtask when a place freed up by another's end. */
        const start = (now: boolean) => {
          current.running += 1;
          current.cost += weight;
          if (now) begin();
          else queueMicrotask(begin);
        };
        const waiting: Waiting | null = startsNow ? null : { cost: weight, start: () => start(false) };
        const deadline = due.add(() => {
          const place = waiting === null ? -1 : current.waiting.indexOf(waiting);
          if (place >= 0) current.waiting.splice(place, 1);
          resolve(refused(tooLong(limits.operationTimeoutMs)));
        });
        if (waiting === null) start(true);
        else current.waiting.push(waiting);
      });
    },
  };
}

export type KeyFairness = ReturnType<typeof keyFairness>;
