// The one place events are made (the contract's "Events: the audit log"). A rule that changes a
// network's data runs the change through `changeWithEvents`: the change's writes and its events
// commit in one transaction (src/db/transactions.ts), or neither does. A change that changes
// nothing records nothing: the rule simply records no event. No route or resolver builds an event.
import type { Database, TransactionStores } from "../db/client";
import { issued, turnCome, type WorkShape } from "../db/transactions";
import type { AppendedEvent, EventActor, NewEvent } from "../db/store";
import type { KeyScope } from "../context";
import { eventTypes, type EventType } from "../model/eventTypes";

/** What a change needs to know of its request: the database, the network, who, and when. */
export interface ChangeScope {
  db: Database;
  network: { id: number };
  key: KeyScope;
  now: () => Date;
  /**
   * A transaction the caller holds already (a network made with its first key): the change joins
   * it, and its events are added to `committed`, for the caller to announce after its commit.
   */
  within?: { tx: TransactionStores; committed: AppendedEvent[] };
}

/** The service itself: the auto-stop rule. */
export const systemActor: EventActor = { kind: "system", keyId: null, keyName: null };

/** The admin command acts with the operator's standing (context.ts's operatorKey, id 0). */
export function actorOf(key: KeyScope): EventActor {
  return key.id === 0 ? { kind: "admin", keyId: null, keyName: null } : { kind: "key", keyId: key.id, keyName: key.name };
}

/**
 * Records one event of the change: its type, the id of what it is about, its data. Its statement
 * goes out at once, in the change's order (a change of one statement's: when the change ends and
 * its turn has come, in the order recorded); its answer (the event's sequence) is read when the
 * transaction ends, so a change never waits for it (on PostgreSQL, COMMIT follows without a round
 * trip: src/db/postgres/transactions.ts). A failed event fails the change's transaction.
 */
export type RecordEvent = (type: EventType, subjectId: string | number, data: { [field: string]: unknown }) => void;

/**
 * Runs `change` in one transaction with the events it records: `change` writes through the
 * transaction's stores (`tx`), never the database's own, and has no other effect than its writes
 * and its result: it may run again from the start when its group's transaction must go back
 * (src/db/transactions.ts). After the commit, this process's subscribers are told at once (other
 * processes learn through the database: src/db/eventNotices.ts).
 */
export async function changeWithEvents<T>(
  scope: ChangeScope,
  change: (tx: TransactionStores, record: RecordEvent) => Promise<T>,
  actor: EventActor = actorOf(scope.key),
  shape?: WorkShape,
): Promise<T> {
  const eventOf = (type: EventType, subjectId: string | number, data: { [field: string]: unknown }): NewEvent => ({
    networkId: scope.network.id,
    type,
    occurredAt: scope.now(),
    actor,
    subject: { type: eventTypes[type].subject, id: String(subjectId) },
    // Made now: what the data holds may change before the event is written.
    dataJson: JSON.stringify(data),
  });
  // The events are the run's own: a grouped work may run again (src/db/transactions.ts).
  const run = async (tx: TransactionStores, turn: Promise<void>) => {
    const appended: Promise<AppendedEvent>[] = [];
    const append = (event: NewEvent) => {
      const appending = tx.events.append(event);
      issued(appending);
      appended.push(appending);
    };
    if (shape === undefined) return { result: await change(tx, (...recorded) => append(eventOf(...recorded))), appended };
    // Made when recorded, appended in that order once the work's turn has come.
    const events: NewEvent[] = [];
    const result = await change(tx, (...recorded) => void events.push(eventOf(...recorded)));
    await turn;
    events.forEach(append);
    return { result, appended };
  };
  if (scope.within) {
    const { result, appended } = await run(scope.within.tx, turnCome);
    scope.within.committed.push(...(await Promise.all(appended)));
    return result;
  }
  const { result, appended } = await scope.db.inTransaction(run, scope.network.id, shape);
  announceCommitted(scope.db, await Promise.all(appended));
  return result;
}

/**
 * changeWithEvents for a change that makes one statement, when called, and after its answer only
 * records events (a toggle or stop on PostgreSQL, a vehicle's update or deletion): in its group it
 * is sent without waiting for the answers of the changes before it (src/db/transactions.ts,
 * WorkShape). A change that breaks the shape fails in that pass and runs again one after the other.
 */
export const changeInOneStatement = <T>(scope: ChangeScope, change: (tx: TransactionStores, record: RecordEvent) => Promise<T>): Promise<T> =>
  changeWithEvents(scope, change, actorOf(scope.key), { oneStatement: true });

/** Tells this process's subscribers of events just committed (other processes learn through the database). */
export function announceCommitted(db: Database, events: readonly AppendedEvent[]): void {
  for (const event of events) db.eventNotices.committedHere(event.networkId, event.sequence);
}

/** `changes` of an update: each field whose value differs, `from` and `to`; empty: nothing changed. */
export function changesBetween<T extends object>(
  before: T,
  after: object,
  fields: readonly (keyof T & string)[],
): { [field: string]: { from: unknown; to: unknown } } {
  const changes: { [field: string]: { from: unknown; to: unknown } } = {};
  for (const field of fields) {
    if (!(field in after)) continue;
    const from = before[field];
    const to = (after as { [field: string]: unknown })[field];
    if (!sameValue(from, to)) changes[field] = { from: from ?? null, to: to ?? null };
  }
  return changes;
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
  return (a ?? null) === (b ?? null);
}
