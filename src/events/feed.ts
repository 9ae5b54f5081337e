// Live events for subscribers, one feed per process and database (the contract's "Events live").
// A notice (src/db/eventNotices.ts) says a network has new events; the feed reads them once, in
// sequence order, and offers them to each of the network's subscribers. A subscriber starts with
// the retained events after its `after` (replay), then takes live ones: it knows the last sequence
// it took, so an event offered twice is skipped, and an event past a gap (offered while it was
// replaying, or after a lost notice) makes it read the gap from the database first. So a
// subscriber sees each event once, in order, with no gap, whatever notices arrive or not.
//
// A subscriber that reads too slowly holds at most `maxQueued` events; then it ends with the last
// sequence it took, to be resumed with `after`, and the others never wait for it. A subscription
// ends with UNAUTHENTICATED within a check interval of its key becoming invalid (revoked, expired).
import { GraphQLError } from "graphql";
import type { Database } from "../db/client";
import type { StoredEvent } from "../db/store";
import type { EventType } from "../model/eventTypes";
import { isValidAt } from "../model/keyValidity";
import { ErrorCode, unauthenticated } from "../errors";

/** What a subscription yields: an event, or its end with the reason. */
export type FeedItem = { event: StoredEvent } | { end: GraphQLError };

export interface FeedRequest {
  networkId: number;
  keyId: number;
  /** Only these types are yielded (null: all); every sequence still counts as taken. */
  types: ReadonlySet<EventType> | null;
  /** Replay the retained events after this sequence first; null: live ones only. */
  after: number | null;
}

export interface EventFeed {
  open(request: FeedRequest): AsyncIterableIterator<FeedItem>;
  /** Subscriptions open now. */
  readonly size: number;
  close(): void;
}

/** Events read from the database at once, for a replay or a network's new events. */
const readBatch = 500;
/** How often subscribers' keys are checked (revocations end subscriptions within this). */
const keyCheckMs = 500;

export const tooSlow = (lastSequence: number) =>
  new GraphQLError("The subscriber read too slowly: resume with after set to extensions.lastSequence.", {
    extensions: { code: ErrorCode.RATE_LIMITED, reason: "slow subscriber", lastSequence },
  });

const unreadable = (error: unknown, lastSequence: number) =>
  new GraphQLError("The events could not be read: resume with after set to extensions.lastSequence.", {
    originalError: error as Error,
    extensions: { code: ErrorCode.UNAVAILABLE, lastSequence },
  });

class Subscriber implements AsyncIterableIterator<FeedItem> {
  /** The last sequence taken into the queue (offered or read); -1 until the start is known. */
  last = -1;
  /** The highest sequence known to exist: what the subscriber must have taken before it is live. */
  target = 0;
  private reading = false;
  private readonly queue: FeedItem[] = [];
  private waiting: ((result: IteratorResult<FeedItem>) => void) | null = null;
  private ended = false;
  /** The last sequence handed to the consumer. */
  private handed = 0;

  constructor(
    readonly request: FeedRequest,
    private readonly db: Database,
    private readonly maxQueued: number,
    private readonly detach: (subscriber: Subscriber) => void,
  ) {}

  /** Starts at `after` (or at `current`, the network's last sequence, for live events only). */
  start(current: number) {
    this.last = this.request.after ?? current;
    this.handed = this.last;
    this.target = Math.max(this.target, current);
    this.catchUp();
  }

  offer(event: StoredEvent) {
    if (this.ended || event.sequence <= this.last) return;
    if (this.last >= 0 && !this.reading && event.sequence === this.last + 1) {
      this.take(event);
      return;
    }
    this.target = Math.max(this.target, event.sequence);
    if (this.last >= 0) this.catchUp();
  }

  /** Reads (last, target] from the database, then goes on live. */
  private catchUp() {
    if (this.reading || this.ended || this.last >= this.target) return;
    this.reading = true;
    void (async () => {
      try {
        while (!this.ended && this.last < this.target) {
          const filter = { types: null, subjectType: null, subjectId: null, keyId: null, from: null, to: null, after: this.last, before: null };
          const rows = await this.db.events.page(this.request.networkId, filter, { limit: readBatch, order: "oldest" });
          if (rows.length === 0) break;
          for (const row of rows) if (!this.ended) this.take(row);
        }
      } catch (error) {
        this.end(unreadable(error, this.handed));
      } finally {
        this.reading = false;
      }
      // Offered while reading past what was read: read on.
      if (this.last < this.target) this.catchUp();
    })();
  }

  private take(event: StoredEvent) {
    this.last = event.sequence;
    if (this.request.types && !this.request.types.has(event.type)) return;
    if (this.queue.length >= this.maxQueued) {
      this.end(tooSlow(this.handed));
      return;
    }
    this.push({ event });
  }

  private push(item: FeedItem) {
    if (this.waiting) {
      const resolve = this.waiting;
      this.waiting = null;
      this.hand(item);
      resolve({ value: item, done: false });
    } else this.queue.push(item);
  }

  private hand(item: FeedItem) {
    if ("event" in item) this.handed = item.event.sequence;
  }

  /** Ends with a last item saying why; what is queued is dropped. */
  end(error: GraphQLError) {
    if (this.ended) return;
    this.queue.length = 0;
    this.push({ end: error });
    this.ended = true;
    this.detach(this);
  }

  next(): Promise<IteratorResult<FeedItem>> {
    const item = this.queue.shift();
    if (item) {
      this.hand(item);
      return Promise.resolve({ value: item, done: false });
    }
    if (this.ended) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => (this.waiting = resolve));
  }

  return(): Promise<IteratorResult<FeedItem>> {
    this.ended = true;
    this.queue.length = 0;
    this.detach(this);
    const waiting = this.waiting;
    this.waiting = null;
    waiting?.({ value: undefined, done: true });
    return Promise.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator]() {
    return this;
  }
}

/** A network's subscribers and how far its new events have been read. */
interface NetworkFeed {
  subscribers: Set<Subscriber>;
  /** The last sequence read and offered; -1 until known. */
  read: number;
  /** The highest sequence announced. */
  announced: number;
  reading: boolean;
}

export function eventFeed(db: Database, now: () => Date, maxQueued: number): EventFeed {
  const networks = new Map<number, NetworkFeed>();
  let size = 0;
  let stopNotices: (() => void) | null = null;
  let keyTimer: NodeJS.Timeout | null = null;

  async function readNew(networkId: number, feed: NetworkFeed) {
    if (feed.reading || feed.read < 0) return;
    feed.reading = true;
    try {
      while (feed.read < feed.announced && networks.get(networkId) === feed) {
        const filter = { types: null, subjectType: null, subjectId: null, keyId: null, from: null, to: null, after: feed.read, before: null };
        const rows = await db.events.page(networkId, filter, { limit: readBatch, order: "oldest" });
        if (rows.length === 0) break;
        for (const row of rows) {
          feed.read = row.sequence;
          for (const subscriber of feed.subscribers) subscriber.offer(row);
        }
      }
    } catch {
      // Read again at the next notice; each subscriber catches up from its own last sequence.
    } finally {
      feed.reading = false;
    }
  }

  function heard(networkId: number, sequence: number) {
    const feed = networks.get(networkId);
    if (!feed) return;
    feed.announced = Math.max(feed.announced, sequence);
    void readNew(networkId, feed);
  }

  async function unsure() {
    try {
      const last = await db.events.lastSequences([...networks.keys()]);
      for (const [networkId, sequence] of last) heard(networkId, sequence);
    } catch {
      // The next notice or commit seen tries again.
    }
  }

  /** Keys last read, by id: checked against the clock every interval, read again when keys changed. */
  let keysEpoch: number | null = null;
  const keys = new Map<number, { expiresAt: Date | null; revokedAt: Date | null } | null>();
  async function checkKeys() {
    const subscribers = [...networks.values()].flatMap((feed) => [...feed.subscribers]);
    const epoch = db.keyChanges.epoch();
    if (epoch === null || epoch !== keysEpoch) {
      keys.clear();
      const wanted = new Map(subscribers.map((subscriber) => [subscriber.request.keyId, subscriber.request.networkId]));
      let readAll = true;
      for (const [keyId, networkId] of wanted) {
        // A key that could not be read (the database away) is not judged: read again next time.
        const key = await db.apiKeys.byId(networkId, keyId).then((found) => found, () => undefined);
        if (key === undefined) readAll = false;
        else keys.set(keyId, key);
      }
      if (readAll) keysEpoch = epoch;
    }
    const at = now();
    for (const subscriber of subscribers) {
      const key = keys.get(subscriber.request.keyId);
      if (key === undefined) continue;
      if (key === null || !isValidAt(key, at)) subscriber.end(unauthenticated());
    }
  }

  function detach(subscriber: Subscriber) {
    const feed = networks.get(subscriber.request.networkId);
    if (!feed?.subscribers.delete(subscriber)) return;
    size--;
    if (feed.subscribers.size === 0) networks.delete(subscriber.request.networkId);
    if (size === 0) {
      stopNotices?.();
      stopNotices = null;
      if (keyTimer) clearInterval(keyTimer);
      keyTimer = null;
    }
  }

  return {
    open(request) {
      const subscriber = new Subscriber(request, db, maxQueued, detach);
      let feed = networks.get(request.networkId);
      if (!feed) networks.set(request.networkId, (feed = { subscribers: new Set(), read: -1, announced: 0, reading: false }));
      feed.subscribers.add(subscriber);
      size++;
      stopNotices ??= db.eventNotices.listen({ heard, unsure: () => void unsure() });
      if (!keyTimer) {
        keyTimer = setInterval(() => void checkKeys().catch(() => undefined), keyCheckMs);
        keyTimer.unref();
      }
      // Registered first, then the start read: whatever commits in between is offered or caught up.
      const started = feed;
      void db.events.lastSequences([request.networkId]).then(
        (last) => {
          const current = last.get(request.networkId) ?? 0;
          if (started.read < 0) started.read = current;
          started.announced = Math.max(started.announced, current);
          subscriber.start(current);
          void readNew(request.networkId, started);
        },
        (error: unknown) => subscriber.end(unreadable(error, request.after ?? 0)),
      );
      return subscriber;
    },
    get size() {
      return size;
    },
    close() {
      for (const feed of [...networks.values()]) for (const subscriber of [...feed.subscribers]) void subscriber.return();
    },
  };
}
