// Writes that take turns with everything else the process does. A SQLite statement runs inside
// the calling thread: while it runs, nothing else does. Operations with several writes (a
// request of five aliased createVehicle, a toggle's stop then start) would otherwise run them
// back to back, each write's promise settling in the same microtask queue, and hold the process
// for all of them while other networks' requests wait unread.
//
// Here every statement waits for its own turn of the event loop: one statement per turn, in the
// order they asked, granted from the loop's check phase (setImmediate), so the loop's poll
// phase (new requests, answers to write) runs between any two writes. Reads do not wait here:
// another network's get by id waits for at most one write, whatever the writers do.
import type { SqlQuery } from "../adapterReads";
import type { WriteSql } from "../adapterWrites";

export function writesTakingTurns(write: WriteSql): WriteSql {
  const waiting: (() => void)[] = [];
  let scheduled = false;

  function grant() {
    scheduled = false;
    const next = waiting.shift();
    // Scheduled before the statement runs, so the next write comes one turn later whatever
    // this one does.
    if (waiting.length > 0) schedule();
    next?.();
  }
  function schedule() {
    if (scheduled) return;
    scheduled = true;
    setImmediate(grant);
  }
  const turn = () =>
    new Promise<void>((resolve) => {
      waiting.push(resolve);
      schedule();
    });

  return {
    execute: async (statement) => {
      await turn();
      return write.execute(statement);
    },
    returning: async <Row>(statement: SqlQuery) => {
      await turn();
      return write.returning<Row>(statement);
    },
  };
}
