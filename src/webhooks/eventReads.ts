// The events a process's deliveries read, one read shared by the webhooks of a network: they are
// at about the same place in its events (each webhook gets each event at about the same moment),
// so one read of the network's events after a sequence serves every one of them, each taking the
// types it posts. What was read stays right: a committed event is never changed (the service
// writes each once; retention removes the oldest only, never one a delivery still waits for).
import type { Database } from "../db/client";
import type { EventFilter, StoredEvent } from "../db/store";
import type { EventType } from "../model/eventTypes";

/** Events read at once for a network. */
export const readBatch = 50;

const everyEvent: EventFilter = { types: null, subjectType: null, subjectId: null, keyId: null, from: null, to: null, after: null, before: null };

/** A read of a network's events: every event in (after, through], oldest first. */
interface Read {
  after: number;
  /** Where it was asked to reach: it reaches there, or to its last event when it met its limit. */
  asked: number;
  done: Promise<{ events: StoredEvent[]; through: number }>;
}

export interface EventsFor {
  /** The events of `types` (null: all) in (after, coveredThrough], oldest first. */
  events: StoredEvent[];
  /** Every event up to here was looked at: none skipped is for this webhook. */
  coveredThrough: number;
  /** The sequence of the last of those events that changed a webhook (made, changed, deleted, its secret rotated); 0: none. */
  lastWebhookChange: number;
}

export function sharedEventReads(db: Database) {
  const latest = new Map<number, Read>();

  /** The network's events after `after` up to `last` (a sequence it has), of `types`, as far as one read goes. */
  return async function eventsFor(networkId: number, after: number, last: number, types: readonly EventType[] | null): Promise<EventsFor> {
    for (;;) {
      let read = latest.get(networkId);
      // Another delivery's read may serve when it starts at or before `after` and was asked past it.
      if (read === undefined || read.after > after || read.asked <= after) {
        const done = db.events
          .page(networkId, { ...everyEvent, after, before: last + 1 }, { limit: readBatch, order: "oldest" })
          // Sequences have no gaps: a read that stopped at its limit covers up to its last event.
          .then((events) => ({ events, through: events.length === readBatch ? events[events.length - 1].sequence : last }));
        const made: Read = { after, asked: last, done };
        latest.set(networkId, (read = made));
        // A failed read is not kept.
        done.catch(() => latest.get(networkId) === made && latest.delete(networkId));
      }
      const { events, through } = await read.done;
      if (through > after) return covering(events, after, Math.min(through, last), types);
      // It stopped at its limit before `after`: read on from `after`.
      if (latest.get(networkId) === read) latest.delete(networkId);
    }
  };
}

/** The events of `types` in (after, through]. */
function covering(events: StoredEvent[], after: number, coveredThrough: number, types: readonly EventType[] | null): EventsFor {
  const wanted = types === null ? null : new Set<string>(types);
  const covered = events.filter((event) => event.sequence > after && event.sequence <= coveredThrough);
  return {
    events: covered.filter((event) => wanted === null || wanted.has(event.type)),
    coveredThrough,
    lastWebhookChange: covered.reduce((last, event) => (event.subject.type === "webhook" ? event.sequence : last), 0),
  };
}
