// Transactions on PostgreSQL straight on the pool's connections (the hot reads' statements and
// values, ./reads.ts). A change of a network holds its row in `networks` (the count and version
// triggers, the event's sequence) from its first write to COMMIT: every round trip between them is
// time the network's other writers wait, and through Prisma's adapter each statement, BEGIN and
// COMMIT waited for the one before (figures: docs/performance.md). Here statements go out as they
// are issued and pg runs a connection's statements in order, so nobody waits for what nobody reads:
// BEGIN goes out with the first statement, and COMMIT as soon as the work has issued its last
// statement, before the answers of statements whose results it does not await (an event's,
// src/events/record.ts).
//
// Invariant: a statement that fails aborts the transaction on the server, whether or not the work
// awaited it; COMMIT then answers ROLLBACK, and the transaction fails with the first failure.
import pg from "pg";
import type { Prisma } from "../../generated/prisma/client";
import type { WriteSql } from "../adapterWrites";
import { issued, type WriteTransaction } from "../transactions";
import { runOnClient } from "./pgInternals";
import type { PreparingPool } from "./preparingPool";
import { arrayRowsQueryOf, rowsOf } from "./reads";

/** A failure PostgreSQL answered (not a lost connection): the connection stays usable. */
const answeredByServer = (error: unknown) => error instanceof pg.DatabaseError;

export function postgresTransactions(pool: PreparingPool): WriteTransaction {
  return async <T>(work: (write: WriteSql) => Promise<T>): Promise<T> => {
    const client = await pool.connect();
    const sentStatements: Promise<pg.QueryArrayResult>[] = [];
    const send = (text: string, values: readonly unknown[]) => {
      const sent = runOnClient(client, arrayRowsQueryOf(pool, text, values));
      // Settled below with the others (BEGIN's and COMMIT's too).
      issued(sent);
      sentStatements.push(sent);
      return sent;
    };
    // What a statement answers the work; a failure nobody awaited is the transaction's (below).
    const answer = <T>(answering: Promise<T>) => {
      issued(answering);
      return answering;
    };
    const write: WriteSql = {
      execute: (query) => answer(send(query.text, query.values).then((result) => result.rowCount ?? 0)),
      returning: <Row>(query: Prisma.Sql) => answer(send(query.text, query.values).then((result) => rowsOf<Row>(result))),
    };
    let brokenConnection = false;
    try {
      send("BEGIN", []);
      let result: T | undefined;
      let workFailure: { error: unknown } | undefined;
      try {
        result = await work(write);
      } catch (error) {
        workFailure = { error };
      }
      const end = send(workFailure ? "ROLLBACK" : "COMMIT", []);
      const outcomes = await Promise.allSettled(sentStatements);
      const failures = outcomes.filter((outcome): outcome is PromiseRejectedResult => outcome.status === "rejected");
      brokenConnection = failures.some((failure) => !answeredByServer(failure.reason));
      // The first in the order issued: those after it only say the transaction was aborted.
      const failed = failures[0];
      if (workFailure) throw workFailure.error;
      if (failed) throw failed.reason;
      // Every statement succeeded, so COMMIT committed; checked all the same, as pg answers it.
      const { command } = await end;
      if (command !== "COMMIT") throw new Error(`COMMIT answered ${command}`);
      return result as T;
    } finally {
      // A connection that failed is closed, not given to the next request.
      client.release(brokenConnection || undefined);
    }
  };
}
