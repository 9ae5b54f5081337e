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
// on one connection, one change after the other, one COMMIT. They would take turns on the
// network's row anyway, each holding it through its COMMIT's WAL flush; in a group the row is
// locked once and flushed once (figures: docs/performance.md). Changes of other networks, and
// transactions asked without a network, run beside them on other connections.
//
// A group first runs without savepoints: most changes succeed, and a SAVEPOINT and a RELEASE per
// change (and the subtransaction each write then makes) cost both sides more CPU than the change
// itself (figures: docs/performance.md). When a change fails with statements in the transaction,
// the transaction is rolled back, and the changes it did not answer run again in a new one, each
// in a savepoint of its own, so that one failing is rolled back alone. A change that fails alone in
// the first transaction (none before it done) is answered with its failure at once: its
// savepoint would have held the whole transaction.
//
// In the first pass, a change that promised one statement (WorkShape, ../transactions.ts) does not
// wait for the answers of those before it: it is sent once the one before has sent its statement,
// and it appends its events at its turn, when all before it have issued theirs. Without that each
// awaited answer of a group is a round trip through the event loop while the group holds the
// network's row.
//
// A group is pipelined: a change starts as soon as the one before it has issued its statements,
// not when they have answered, so the network's row is never held while this process serves other
// requests between two answers. A statement that fails aborts the transaction on the server, and
// the changes sent after it fail there too (SQLSTATE 25P02): the transaction goes back to the
// failed change's savepoint (in the first pass, to its start), and those changes run again (a
// grouped work's only effects are its statements and its result: ../transactions.ts).
//
// Invariants:
// - A statement that fails aborts the transaction on the server, whether or not the work awaited
//   it; its work fails with the first failure (or with what it threw), and nothing of it is kept,
//   nor lost of the works that succeed: in the savepoint passes only it is rolled back.
// - A work is answered only for a run that began in a live transaction: a run whose SAVEPOINT
//   failed is discarded and run again.
// - When the group's transaction cannot go on (a savepoint cannot be rolled back to, a connection
//   fails) or its COMMIT does not commit, every work of the group fails, with the database's
//   error: none is answered as done before the COMMIT that holds it.
// - The queue of groups, per network, is ../transactionGroups.ts's.
import pg from "pg";
import type { SqlQuery } from "../adapterReads";
import type { WriteSql } from "../adapterWrites";
import { answerDone, groupedTransactions, type WaitingWork } from "../transactionGroups";
import { issued, turnCome, type WriteTransaction } from "../transactions";
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

/** One run of a work in a group's pass: its statements, in the order sent, and how it ended. */
interface Run {
  waiting: WaitingWork;
  /** Its savepoint's name; null in the first pass, which has none. */
  name: string | null;
  savepoint: Promise<unknown> | null;
  statements: Promise<unknown>[];
  outcome: { value: unknown } | { thrown: unknown };
  /** RELEASE, or ROLLBACK TO and RELEASE when the work threw. */
  end: Promise<unknown>[];
}

/** How a run ended, read from its settled statements. */
type Verdict =
  | { kind: "done"; value: unknown }
  /** It threw; in a savepoint, it was rolled back to it and the transaction goes on. */
  | { kind: "refused"; error: unknown }
  /** A statement it did not await failed: the runs sent after it were refused with it. */
  | { kind: "failedUnawaited"; error: unknown }
  /** The group's transaction cannot go on. */
  | { kind: "lost"; failure: PromiseRejectedResult };

async function verdictOf(run: Run): Promise<Verdict> {
  // An aborted transaction is found at the run that aborted it, before any later run's
  // SAVEPOINT: one that failed here failed for another reason.
  const [savepoint] = await Promise.allSettled([run.savepoint]);
  if (savepoint.status === "rejected") return { kind: "lost", failure: savepoint };
  const statements = failureOf(await Promise.allSettled(run.statements));
  const end = failureOf(await Promise.allSettled(run.end));
  if (statements.broken) return { kind: "lost", failure: statements.failed! };
  if (end.broken) return { kind: "lost", failure: end.failed! };
  if ("thrown" in run.outcome) return end.failed ? { kind: "lost", failure: end.failed } : { kind: "refused", error: run.outcome.thrown };
  // After a statement of its failed unawaited, its RELEASE is refused too, as expected.
  if (statements.failed) return { kind: "failedUnawaited", error: statements.failed.reason };
  return end.failed ? { kind: "lost", failure: end.failed } : { kind: "done", value: run.outcome.value };
}

export function postgresTransactions(pool: PreparingPool): WriteTransaction {
  async function runGroup(works: WaitingWork[]): Promise<void> {
    const client = failingQuietly(await pool.connect());
    const send = (text: string, values: readonly unknown[] = []) => {
      const sent = runOnClient(client, arrayRowsQueryOf(pool, text, values));
      // Settled where it is read: the work's, or the group's below.
      issued(sent);
      return sent;
    };
    // Counted in savepoint passes only: the names are kept statements (a bounded few).
    let savepoints = 0;
    /**
     * Sends each work after the one before has issued its statements; nothing waits for an answer
     * the work does not await. Each in a savepoint of its own, or (the first pass) in none; there,
     * a work of one statement (WorkShape) is sent as soon as the one before has sent its first, and
     * issues its events once all before it have issued theirs (its turn).
     */
    async function pass(pending: WaitingWork[], inSavepoints: boolean): Promise<Run[]> {
      const runs: Run[] = [];
      /** Settles once every work called so far has ended, so has issued all its statements. */
      let calledEnded: Promise<unknown> = turnCome;
      for (const waiting of pending) {
        const overlapping = !inSavepoints && waiting.shape?.oneStatement === true;
        // Any other work runs after all the statements of those before it.
        if (!overlapping) await calledEnded;
        const name = inSavepoints ? `work_${savepoints++}` : null;
        const statements: Promise<unknown>[] = [];
        let turnCame = !overlapping;
        const turn = overlapping ? calledEnded.then(() => void (turnCame = true)) : turnCome;
        // Settled below, unless the run is run again: then nobody reads it.
        const track = <T>(sent: () => Promise<T>) => {
          // A work that broke its shape fails, and the savepoint pass runs it one after the other.
          if (statements.length > 0 && !turnCame) throw new Error("A work of one statement issued a second before its turn.");
          const statement = sent();
          issued(statement);
          statements.push(statement);
          return statement;
        };
        const write: WriteSql = {
          execute: (query) => track(() => send(query.text, query.values).then((result) => result.rowCount ?? 0)),
          returning: <Row>(query: SqlQuery) => track(() => send(query.text, query.values).then((result) => rowsOf<Row>(result))),
        };
        const savepoint = name === null ? null : send(`SAVEPOINT ${name}`);
        const run: Run = { waiting, name, savepoint, statements, outcome: { thrown: new Error("The work has not ended.") }, end: [] };
        runs.push(run);
        const ended = (async () => {
          try {
            run.outcome = { value: await waiting.work(write, turn) };
          } catch (thrown) {
            run.outcome = { thrown };
          }
        })();
        calledEnded = Promise.all([calledEnded, ended]);
        if (overlapping && statements.length === 1) continue;
        // Not sent at once as promised (or not promised): the next work waits for its end.
        await calledEnded;
        if (name !== null) run.end = "thrown" in run.outcome ? [send(`ROLLBACK TO ${name}`), send(`RELEASE ${name}`)] : [send(`RELEASE ${name}`)];
      }
      await calledEnded;
      return runs;
    }

    const done: { value: unknown; work: WaitingWork }[] = [];
    // Set by loseWith too: an object, so that the checks below read its latest state.
    const group: { lost?: { error: unknown }; broken: boolean } = { broken: false };
    /** A failure of the group's own statements: a lost connection, or one that should not fail. */
    const loseWith = (failure: PromiseRejectedResult) => {
      group.broken ||= !answeredByServer(failure.reason);
      group.lost ??= { error: failure.reason };
    };
    /** BEGIN's answer, read once a pass has been sent behind it (again, for each pass: it settled once). */
    const begin = async (begun: Promise<unknown>) => {
      const [answer] = await Promise.allSettled([begun]);
      if (answer.status === "rejected") loseWith(answer);
    };

    /**
     * The first pass, without savepoints: two statements fewer per work, and the works' writes
     * made by the transaction itself rather than a subtransaction each (figures:
     * docs/performance.md). Answers null when every run is done (COMMIT follows); when one
     * fails, it rolls the transaction back and answers the works it did not answer, for the
     * savepoint passes.
     */
    async function firstPass(): Promise<WaitingWork[] | null> {
      const begun = send("BEGIN");
      const runs = await pass(works, false);
      await begin(begun);
      for (const [index, run] of runs.entries()) {
        if (group.lost) return [];
        const verdict = await verdictOf(run);
        if (verdict.kind === "done") {
          done.push({ value: verdict.value, work: run.waiting });
          continue;
        }
        if (verdict.kind === "lost") {
          loseWith(verdict.failure);
          return [];
        }
        // Refused before it issued a statement: nothing of it is in the transaction.
        if (verdict.kind === "refused" && run.statements.length === 0) {
          run.waiting.reject(verdict.error);
          continue;
        }
        // It failed with its statements in the transaction: all goes back. Alone in it (no run
        // before it done), its failure is its answer, as its savepoint's would be.
        const [rolledBack] = await Promise.allSettled([send("ROLLBACK")]);
        if (rolledBack.status === "rejected") {
          loseWith(rolledBack);
          return [];
        }
        const after = runs.slice(index + 1).map((later) => later.waiting);
        if (done.length > 0) return [...done.splice(0).map((each) => each.work), run.waiting, ...after];
        run.waiting.reject(verdict.error);
        return after;
      }
      return null;
    }

    /** Runs `pending` in a transaction of savepoints: a work that fails is rolled back alone. */
    async function savepointPasses(pending: WaitingWork[]): Promise<void> {
      const begun = send("BEGIN");
      // Read through a call: TypeScript would keep the loop's check, though loseWith changes it.
      const isLost = () => group.lost !== undefined;
      while (pending.length > 0 && !isLost()) {
        const runs = await pass(pending, true);
        pending = [];
        await begin(begun);
        for (const [index, run] of runs.entries()) {
          if (group.lost) {
            run.waiting.reject(group.lost.error);
            continue;
          }
          const verdict = await verdictOf(run);
          if (verdict.kind === "lost") {
            loseWith(verdict.failure);
            run.waiting.reject(group.lost!.error);
            continue;
          }
          if (verdict.kind === "refused") {
            run.waiting.reject(verdict.error);
            continue;
          }
          if (verdict.kind === "done") {
            done.push({ value: verdict.value, work: run.waiting });
            continue;
          }
          // The transaction goes back to its savepoint, and the runs after it go again.
          run.waiting.reject(verdict.error);
          try {
            await send(`ROLLBACK TO ${run.name!}`);
            await send(`RELEASE ${run.name!}`);
          } catch (error) {
            group.lost = { error };
          }
          pending = runs.slice(index + 1).map((later) => later.waiting);
          break;
        }
      }
      for (const waiting of pending) waiting.reject(group.lost!.error);
    }

    try {
      const left = await firstPass();
      // null: every run of the first pass was answered in its transaction, which COMMIT ends.
      if (left !== null && !group.lost) {
        if (left.length === 0) return;
        await savepointPasses(left);
      }
      const commit = await Promise.allSettled([send(group.lost ? "ROLLBACK" : "COMMIT")]);
      if (commit[0].status === "rejected") loseWith(commit[0]);
      // Every statement succeeded, so COMMIT committed; checked all the same, as pg answers it.
      else if (!group.lost && commit[0].value.command !== "COMMIT") group.lost = { error: new Error(`COMMIT answered ${commit[0].value.command}`) };
    } catch (error) {
      group.lost ??= { error };
    } finally {
      // A connection that failed is closed, not given to the next request.
      client.release(group.broken || undefined);
      answerDone(done, group.lost);
      // A group that failed on the way may leave works unanswered: they fail with it (answering one twice does nothing).
      if (group.lost) for (const waiting of works) waiting.reject(group.lost.error);
    }
  }

  // A network's changes are grouped; a transaction without a network runs alone.
  return groupedTransactions(runGroup, (networkId) => networkId);
}
