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
// A network's changes asked in one turn of the event loop are committed in groups: one transaction
// on one connection, each change in a savepoint of its own, one after the other, one COMMIT. They
// would take turns on the network's row anyway, each holding it through its COMMIT's WAL flush;
// in a group the row is locked once and flushed once (figures: docs/performance.md). Changes of
// other networks, and transactions asked without a network, run beside them on other connections.
//
// Invariants:
// - A statement that fails aborts the transaction on the server, whether or not the work awaited
//   it; its work fails with the first failure and is rolled back to its savepoint alone.
// - When the group's transaction cannot go on (a savepoint cannot be rolled back to, a connection
//   fails) or its COMMIT does not commit, every work of the group fails, with the database's
//   error: none is answered as done before the COMMIT that holds it.
// - The queue of groups, per network, is ../transactionGroups.ts's.
import pg from "pg";
import type { Prisma } from "../../generated/prisma/client";
import type { WriteSql } from "../adapterWrites";
import { answerDone, groupedTransactions, type WaitingWork } from "../transactionGroups";
import { issued, type WriteTransaction } from "../transactions";
import { runOnClient } from "./pgInternals";
import type { PreparingPool } from "./preparingPool";
import { arrayRowsQueryOf, rowsOf } from "./reads";

/** A failure PostgreSQL answered (not a lost connection): the connection stays usable. */
const answeredByServer = (error: unknown) => error instanceof pg.DatabaseError;

/** The first failure of settled statements, and whether a connection failed (not the server). */
function failureOf(outcomes: PromiseSettledResult<unknown>[]): { failed: PromiseRejectedResult | undefined; broken: boolean } {
  const failures = outcomes.filter((outcome): outcome is PromiseRejectedResult => outcome.status === "rejected");
  // The first in the order issued: those after it only say the transaction was aborted.
  return { failed: failures[0], broken: failures.some((failure) => !answeredByServer(failure.reason)) };
}

/**
 * Connections that may fail in a transaction without crashing the process: pg emits a checked-out
 * connection's socket error as an event, and the pool listens only while the connection is idle.
 * The statements in flight fail with it, which is how the transaction learns of it.
 */
const listened = new WeakSet<pg.PoolClient>();
function failingQuietly(client: pg.PoolClient): pg.PoolClient {
  if (!listened.has(client)) {
    listened.add(client);
    client.on("error", () => undefined);
  }
  return client;
}

export function postgresTransactions(pool: PreparingPool): WriteTransaction {
  async function runGroup(works: WaitingWork[]): Promise<void> {
    const client = failingQuietly(await pool.connect());
    const groupStatements: Promise<pg.QueryArrayResult>[] = [];
    const send = (text: string, values: readonly unknown[], into: Promise<pg.QueryArrayResult>[] = groupStatements) => {
      const sent = runOnClient(client, arrayRowsQueryOf(pool, text, values));
      // Settled below (the work's, or the group's with BEGIN, RELEASE and COMMIT).
      issued(sent);
      into.push(sent);
      return sent;
    };
    const done: { value: unknown; work: WaitingWork }[] = [];
    let lost: { error: unknown } | undefined;
    let broken = false;
    try {
      send("BEGIN", []);
      for (const waiting of works) {
        if (lost) {
          waiting.reject(lost.error);
          continue;
        }
        const workStatements: Promise<pg.QueryArrayResult>[] = [];
        // What a statement answers the work; a failure nobody awaited is the work's (below).
        const answer = <T>(answering: Promise<T>) => {
          issued(answering);
          return answering;
        };
        const write: WriteSql = {
          execute: (query) => answer(send(query.text, query.values, workStatements).then((result) => result.rowCount ?? 0)),
          returning: <Row>(query: Prisma.Sql) => answer(send(query.text, query.values, workStatements).then((result) => rowsOf<Row>(result))),
        };
        send("SAVEPOINT work", [], workStatements);
        let workFailure: { error: unknown } | undefined;
        let value: unknown;
        try {
          value = await waiting.work(write);
        } catch (error) {
          workFailure = { error };
        }
        const { failed, broken: workBroken } = failureOf(await Promise.allSettled(workStatements));
        if (!workFailure && !failed) {
          // Not awaited: a RELEASE that failed aborts the transaction, and COMMIT answers ROLLBACK.
          send("RELEASE work", []);
          done.push({ value, work: waiting });
          continue;
        }
        waiting.reject(workFailure ? workFailure.error : failed!.reason);
        // The others of the group fail with the database's error, never with this work's own.
        broken ||= workBroken;
        if (workBroken) {
          lost = { error: failed!.reason };
          continue;
        }
        try {
          await send("ROLLBACK TO work", []);
          send("RELEASE work", []);
        } catch (error) {
          lost = { error };
        }
      }
      const end = send(lost ? "ROLLBACK" : "COMMIT", []);
      const group = failureOf(await Promise.allSettled(groupStatements));
      broken ||= group.broken;
      if (!lost && group.failed) lost = { error: group.failed.reason };
      // Every statement succeeded, so COMMIT committed; checked all the same, as pg answers it.
      if (!lost) {
        const { command } = await end;
        if (command !== "COMMIT") lost = { error: new Error(`COMMIT answered ${command}`) };
      }
    } catch (error) {
      lost ??= { error };
    } finally {
      // A connection that failed is closed, not given to the next request.
      client.release(broken || undefined);
    }
    answerDone(done, lost);
  }

  // A network's changes are grouped; a transaction without a network runs alone.
  return groupedTransactions(runGroup, (networkId) => networkId);
}
