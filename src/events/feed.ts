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
import type { EventFilter, StoredEvent } from "../db/store";
import type { EventType } from "../model/eventTypes";
import { isValidAt } from "../model/keyValidity";
import { ErrorCode, unauthenticated } from "../errors";
import { logInternalError } from "../publicError";

/** Every event of a network after this sequence. */
const allAfter = (after: number): EventFilter => ({ types: null, subjectType: null, subjectId: null, keyId: null, from: null, to: null, after, before: null });

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
/** A failed read of new events is tried again after this. */
const retryMs = 1_000;

const tooSlow = (lastSequence: number) =>
  new GraphQLError("The subscriber read too slowly: resume with after set to extensions.lastSequence.", {
    extensions: { code: ErrorCode.RATE_LIMITED, reason: "slow subscriber", lastSequence },
  });

/** The events could not be read: the cause is logged, the subscriber told to resume (no cause attached: it would be masked). */
function unreadable(error: unknown, lastSequence: number) {
  logInternalError(error);
  return new GraphQLError("The events could not be read: resume with after set to extensions.lastSequence.", {
    extensions: { code: ErrorCode.UNAVAILABLE, lastSequence },
  });
}

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

  /**
   * Starts after `after` (or at `current`, the network's last sequence, for live events only). An
   * `after` past the last sequence is taken as the last: nothing past it exists to wait for.
   */
  start(current: number) {
    this.last = Math.min(this.request.after ?? current, current);
    this.handed = this.last;
    this.target = Math.max(this.target, current);
    this.pump();
  }

  /** Live: the subscriber has taken every event known, and reads nothing. */
  private get live() {
    return this.last >= 0 && !this.reading && this.last >= this.target;
  }

  offer(event: StoredEvent) {
    if (this.ended || event.sequence <= this.last) return;
    if (this.live && event.sequence === this.last + 1) {
      // A subscriber that has not taken what it holds is too slow for live events: it ends, and
      // resumes with `after` (a replay reads at the subscriber's pace instead, below).
      if (this.queue.length >= this.maxQueued) this.end(tooSlow(this.handed));
      else this.take(event);
      return;
    }
    this.target = Math.max(this.target, event.sequence);
    this.pump();
  }

  /**
   * Reads (last, target] from the database a batch at a time, while the queue has room (the
   * consumer's next() asks for more): a replay of any length goes at the subscriber's pace. A
   * read that finds none of them (removed by retention) skips to the target.
   */
  private pump() {
    const batch = Math.min(readBatch, this.maxQueued);
    if (this.reading || this.ended || this.last < 0 || this.last >= this.target || this.queue.length >= batch) return;
    this.reading = true;
    void (async () => {
      try {
        const rows = await this.db.events.page(this.request.networkId, allAfter(this.last), { limit: batch, order: "oldest" });
        if (rows.length === 0) this.last = Math.max(this.last, this.target);
        for (const row of rows) if (!this.ended && row.sequence > this.last) this.take(row);
      } catch (error) {
        this.end(unreadable(error, this.handed));
      } finally {
        this.reading = false;
      }
      this.pump();
    })();
  }

  private take(event: StoredEvent) {
    this.last = event.sequence;
    if (this.request.types && !this.request.types.has(event.type)) return;
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
      this.pump();
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
        const rows = await db.events.page(networkId, allAfter(feed.read), { limit: readBatch, order: "oldest" });
        if (rows.length === 0) break;
        for (const row of rows) {
          feed.read = row.sequence;
          for (const subscriber of feed.subscribers) subscriber.offer(row);
        }
      }
    } catch {
      // Read again soon: on a quiet network the next notice may be hours away.
      setTimeout(() => void readNew(networkId, feed), retryMs).unref();
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
      setTimeout(() => void unsure(), retryMs).unref();
    }
  }

  /**
   * Keys last read, by id: checked against the clock every interval (an expiry or the end of a
   * grace period), read again when keys changed, and read when a subscriber of a key not read yet
   * comes. A key that could not be read (the database away) is not judged: it is read next time.
   */
  let keysEpoch: number | null = null;
  let checking = false;
  const keys = new Map<number, { expiresAt: Date | null; revokedAt: Date | null } | null>();
  async function checkKeys() {
    if (checking) return;
    checking = true;
    try {
      const subscribers = [...networks.values()].flatMap((feed) => [...feed.subscribers]);
      const epoch = db.keyChanges.epoch();
      if (epoch === null || epoch !== keysEpoch) keys.clear();
      keysEpoch = epoch;
      const missing = new Map(subscribers.filter((each) => !keys.has(each.request.keyId)).map((each) => [each.request.keyId, each.request.networkId]));
      for (const [keyId, networkId] of missing) {
        const key = await db.apiKeys.byId(networkId, keyId).then((found) => found, () => undefined);
        if (key !== undefined) keys.set(keyId, key);
      }
      const at = now();
      for (const subscriber of subscribers) {
        const key = keys.get(subscriber.request.keyId);
        if (key === undefined) continue;
        if (key === null || !isValidAt(key, at)) subscriber.end(unauthenticated());
      }
    } finally {
      checking = false;
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
