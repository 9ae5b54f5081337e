// Transactions committed in groups, queued by key: SQLite's (./sqlite/groupCommit.ts, every
// transaction one key) and PostgreSQL's (./postgres/transactions.ts, a network's changes one key).
// Each database runs a group its own way; the queue, its bounds and how works are answered are
// here, once.
//
// Invariants:
// - A key's works asked while its group runs, or is about to start, wait for its next group; a
//   group starts from the event loop's check phase (setImmediate), after the poll phase has read
//   the requests that arrived, and holds at most maxGroupWorks works.
// - A work without a key runs alone, at once.
// - A work is answered once: done only after the COMMIT that holds it.
import { maxGroupWorks, type GroupedWork, type WorkShape, type WriteTransaction } from "./transactions";

/** A work waiting for its group, and how to answer it. */
export interface WaitingWork {
  work: GroupedWork<unknown>;
  /** Its shape, if it promised one. */
  shape: WorkShape | undefined;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

/** Runs one group and answers each of its works. */
export type GroupRunner = (works: WaitingWork[]) => Promise<void>;

/** The group's works done in their savepoints, answered at its end: `failure` is the group's, if it did not commit. */
export function answerDone(done: readonly { value: unknown; work: WaitingWork }[], failure: { error: unknown } | undefined): void {
  for (const { value, work } of done) {
    if (failure) work.reject(failure.error);
    else work.resolve(value);
  }
}

export function groupedTransactions(runGroup: GroupRunner, keyOf: (networkId: number | undefined) => unknown): WriteTransaction {
  const waitingFor = new Map<unknown, WaitingWork[]>();

  // A runner that failed itself fails its works (answering one twice does nothing).
  const run = (works: WaitingWork[]) =>
    runGroup(works).catch((error: unknown) => {
      for (const work of works) work.reject(error);
    });

  function runGroupOf(key: unknown) {
    const waiting = waitingFor.get(key)!;
    void run(waiting.splice(0, maxGroupWorks)).then(() => {
      if (waiting.length > 0) setImmediate(() => runGroupOf(key));
      else waitingFor.delete(key);
    });
  }

  return <T>(work: GroupedWork<T>, networkId?: number, shape?: WorkShape) =>
    new Promise<T>((resolve, reject) => {
      const waiting: WaitingWork = { work, shape, resolve: resolve as (value: unknown) => void, reject };
      const key = keyOf(networkId);
      if (key === undefined) return void run([waiting]);
      const queue = waitingFor.get(key);
      if (queue) return void queue.push(waiting);
      waitingFor.set(key, [waiting]);
      setImmediate(() => runGroupOf(key));
    });
}
