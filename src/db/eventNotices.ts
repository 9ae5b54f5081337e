// How a process learns that a network has new events, from itself and from every other process
// and the admin command. A notice carries the network and sequence only, never the event: the
// listener reads the events themselves from the database (src/events/feed.ts), so a notice lost
// or repeated costs a read, never an event.
// - This process's commits are told at once (src/events/record.ts).
// - PostgreSQL: the NOTIFY each event's insert sends at commit (src/db/events.ts), on the
//   process's listening connection (src/db/postgres/listener.ts). After that connection is
//   replaced, what was announced meanwhile is lost: listeners are told to read again (unsure).
// - SQLite: another process's commit shows in the WAL index header (src/db/sqlite/commits.ts),
//   looked at every `pollMs` while anyone listens; a commit seen makes listeners read again.
import type { Listener } from "./postgres/listener";
import { eventChannel } from "./events";
import { walIndexHeader } from "./sqlite/commits";

export interface EventNoticeListener {
  /** The network has events up to this sequence (some may have been told before). */
  heard(networkId: number, sequence: number): void;
  /** Any network may have new events that were not told: read what is new. */
  unsure(): void;
}

export interface EventNotices {
  /** Tells `listener` from now on; returns a function that stops. */
  listen(listener: EventNoticeListener): () => void;
  /** This process committed the network's event of this sequence. */
  committedHere(networkId: number, sequence: number): void;
  close(): Promise<void>;
}

/** The listeners and this process's own notices, which every database shares. */
function listeners(onFirst: () => void, onNone: () => void) {
  const all = new Set<EventNoticeListener>();
  return {
    all,
    listen(listener: EventNoticeListener) {
      all.add(listener);
      if (all.size === 1) onFirst();
      return () => {
        if (all.delete(listener) && all.size === 0) onNone();
      };
    },
    committedHere(networkId: number, sequence: number) {
      for (const listener of all) listener.heard(networkId, sequence);
    },
  };
}

export function postgresEventNotices(listener: Listener): EventNotices {
  let stop: (() => void) | undefined;
  const kept = listeners(
    () => {
      stop = listener.subscribe(eventChannel, {
        notified(payload) {
          const [network, sequence] = payload.split(":").map(Number);
          if (Number.isSafeInteger(network) && Number.isSafeInteger(sequence)) kept.committedHere(network, sequence);
        },
        listening() {
          for (const each of kept.all) each.unsure();
        },
      });
    },
    () => {
      stop?.();
      stop = undefined;
    },
  );
  return { listen: kept.listen, committedHere: kept.committedHere, close: async () => stop?.() };
}

export function sqliteEventNotices(file: string, pollMs: number): EventNotices {
  const header = walIndexHeader(file);
  let timer: NodeJS.Timeout | undefined;
  let seen: number | null = null;
  const look = () => {
    const epoch = header.epoch();
    if (epoch !== seen) {
      seen = epoch;
      for (const each of kept.all) each.unsure();
    }
  };
  const kept = listeners(
    () => {
      seen = header.epoch();
      timer = setInterval(look, pollMs);
      timer.unref();
    },
    () => clearInterval(timer),
  );
  return {
    listen: kept.listen,
    committedHere: kept.committedHere,
    async close() {
      clearInterval(timer);
      await header.close();
    },
  };
}
