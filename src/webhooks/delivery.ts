// Delivers the stored events to the webhooks (the contract's "Webhooks"), in each service process,
// beside the requests and never in their way: a webhook is one more reader of the event log.
//
// A process takes (claims) a webhook that has undelivered events for a lease of the database's
// clock; while it holds the lease no other process delivers that webhook, so each attempt is made
// by one process. It sends the webhook's events in sequence order, after the last one it handled
// (webhooks.delivered_through), and writes each outcome before the next attempt: a process that
// dies at any moment leaves the webhook to be taken again when its lease ends, and the event that
// was in flight is sent again with the same webhook-id (at least once, never lost).
//
// A failed attempt makes the webhook wait (the retry schedule, or the receiver's Retry-After); the
// events after it wait too, so a receiver sees them in order. After the whole schedule the event
// is given up (logged; it can be redelivered) and the next ones go on. A 410 disables the webhook
// at once, five days of failures in a row too: both are recorded as the service's change.
//
// The process looks for work when it learns of new events (src/db/eventNotices.ts), when one of
// its deliveries ends, and every `pollMs` (retries due, leases of dead processes ended). A
// webhook whose events are all delivered is kept `lingerMs` for the next one.
import crypto from "node:crypto";
import os from "node:os";
import type { Database } from "../db/client";
import type { DeliverableWebhook, DeliveryState, NewWebhookAttempt } from "../db/store";
import type { WebhookSettings } from "../config/webhooks";
import { changeWithEvents, systemActor } from "../events/record";
import { operatorKey } from "../context";
import { logInternalError } from "../publicError";
import { attemptEntry, send, type AttemptObserver, type AttemptResult } from "./attempts";
import { discordMessageOf, publicEvent, standardMessage, typesRead, type Message } from "./messages";
import { discordRetryAfterMs, RequestWindow } from "./discord";
import { sharedEventReads } from "./eventReads";

/** Webhooks one process holds at once (delivering, or waiting for their next event). */
export const deliveriesAtOnce = 50;
/**
 * How long a process keeps a webhook whose events are all delivered, waiting for the next one:
 * under a steady stream of events it is not given back and taken again for each (two writes).
 */
export const lingerMs = 1_000;
/** How often a process looks for due retries and webhooks whose process died. */
export const pollMs = 1_000;
/**
 * Least time between two looks for work that notices of new events start. Each look asks the
 * database whether any webhook is due; under a stream of writes a look per notice would be a
 * query per write in every process, whether or not any network has a webhook (figures:
 * docs/performance.md). A webhook nobody holds gets its first event at most this much later.
 */
export const noticeLookSpacingMs = 25;
/**
 * Discord's limit per webhook: 5 requests per 2 s. The window's instants are the database's clock
 * as each process reckons it (read at its claim, to within a round trip): a margin keeps two
 * processes' reckonings from letting a request in a few ms early.
 */
const discordWindow = { requests: 5, ms: 2_000, marginMs: 100 };
/** A failing webhook is disabled after this long (CONTRACT: 5 days in a row). */
export const failingMsBeforeDisabled = 5 * 86_400_000;
/** The longest wait a receiver's Retry-After may ask. */
const maxRetryAfterMs = 10 * 3_600_000;

export interface WebhookDelivery {
  /** Looks for work now (tests; the worker does it itself on notices and on its timer). */
  wake(): void;
  /** Stops taking work and waits for the attempts in flight; their webhooks are released. */
  stop(): Promise<void>;
}

/** The lease: an attempt's whole timeout and room for writing its outcome. */
export const leaseMsOf = (settings: WebhookSettings) => settings.timeoutMs + 5_000;

/** The database's clock, read at a claim and followed with this process's monotonic clock. */
function databaseClock(nowMs: number): () => number {
  const start = performance.now();
  return () => nowMs + (performance.now() - start);
}

const isSuccess = (status: number | null) => status !== null && status >= 200 && status < 300;

export function startWebhookDelivery(db: Database, settings: WebhookSettings, observer: AttemptObserver): WebhookDelivery {
  const owner = `${os.hostname()}:${process.pid}:${crypto.randomBytes(4).toString("hex")}`;
  const leaseMs = leaseMsOf(settings);
  const active = new Set<Promise<void>>();
  let stopping = false;
  let looking: Promise<void> | null = null;
  let lookAgain = false;

  /** When the last look began (performance.now()), and the look a notice has scheduled. */
  let lastLookAt = Number.NEGATIVE_INFINITY;
  let lookSoon: NodeJS.Timeout | null = null;
  const look = async () => {
    lastLookAt = performance.now();
    const free = deliveriesAtOnce - active.size;
    if (free <= 0 || stopping) return;
    // A look on the read path first: a claim is a write, which on SQLite takes the writer's lock.
    if (!(await db.webhooks.anyDue())) return;
    const { webhooks, nowMs } = await db.webhooks.claim(owner, leaseMs, free);
    for (const webhook of webhooks) {
      const run = deliver(webhook, databaseClock(nowMs))
        .catch(logInternalError)
        .finally(() => {
          active.delete(run);
          wake();
        });
      active.add(run);
    }
  };

  /**
   * A look for a notice of new events: at once, unless one began less than noticeLookSpacingMs
   * ago; then one when that time is up, for every notice heard meanwhile. Deliveries under way get
   * their network's events from the notice itself (tell, below), not from a look.
   */
  function wakeForNotice() {
    if (stopping || lookSoon) return;
    const wait = lastLookAt + noticeLookSpacingMs - performance.now();
    if (wait <= 0) return wake();
    lookSoon = setTimeout(() => {
      lookSoon = null;
      wake();
    }, wait);
  }

  function wake() {
    if (stopping) return;
    if (looking) {
      lookAgain = true;
      return;
    }
    looking = look()
      .catch(logInternalError)
      .finally(() => {
        looking = null;
        if (lookAgain) {
          lookAgain = false;
          wake();
        }
      });
  }

  /**
   * Delivers the webhook's events until none is left, one fails, the lease is lost, the webhook
   * is disabled or deleted, or the process stops. Each settle answers the webhook as it is now,
   * so a new URL, secret, filter or format applies from the next attempt on.
   */
  async function deliver(claimed: DeliverableWebhook, clock: () => number): Promise<void> {
    let webhook = claimed;
    const window = RequestWindow.from(webhook.sendWindow, discordWindow.requests, discordWindow.ms + discordWindow.marginMs);
    let state: DeliveryState = {
      deliveredThrough: webhook.deliveredThrough,
      failedAttempts: webhook.failedAttempts,
      waitMs: 0,
      failing: "keep",
      sendWindow: webhook.sendWindow,
      disable: null,
    };
    /** Writes the next state; false when the delivery must stop (see settle). */
    const settle = async (next: DeliveryState, attempt?: NewWebhookAttempt): Promise<boolean> => {
      const now = await settlements.settle(webhook.id, next, attempt);
      if (now === null) return false;
      webhook = now;
      state = next;
      return true;
    };
    /** When the webhook last had nothing to deliver (lingering is bounded from there). */
    let idleSince = Date.now();
    /** The webhook as read knows the changes of webhooks recorded up to this sequence. */
    let readThrough = 0;
    try {
      while (!stopping) {
        // The last sequence first, then the events up to it: one committed in between is not skipped.
        const last = await lastSequenceOf(webhook.networkId);
        if (last <= state.deliveredThrough) {
          // Kept a while for the next event, within the lease the last write renewed.
          if (stopping || Date.now() - idleSince >= lingerMs) return;
          await nextEventOf(webhook.networkId, lingerMs - (Date.now() - idleSince));
          continue;
        }
        idleSince = Date.now();
        const { events, coveredThrough, lastWebhookChange } = await eventsFor(webhook.networkId, state.deliveredThrough, last, typesRead(webhook));
        if (lastWebhookChange > readThrough) {
          // A webhook of the network was changed (by any process) since this one was read: its
          // URL, secrets, filter or format hold from now on (every change records its event).
          const now = await db.webhooks.byId(webhook.networkId, webhook.id);
          if (now === null || !now.enabled) return;
          webhook = now;
          readThrough = lastWebhookChange;
          continue;
        }
        if (events.length === 0) {
          // None of these is for this webhook.
          if (!(await settle({ ...state, deliveredThrough: coveredThrough, waitMs: 0 }))) return;
          continue;
        }
        let message: Message | null;
        let through: number;
        if (webhook.format === "discord") {
          ({ message, through } = await discordMessageOf(db, webhook, events.map(publicEvent)));
        } else {
          // One event a request: the first; the others wait for their own turn.
          message = standardMessage(webhook, publicEvent(events[0]), clock(), new Date());
          through = events[0].sequence;
        }
        if (message === null) {
          if (!(await settle({ ...state, deliveredThrough: through, waitMs: 0 }))) return;
          continue;
        }
        if (webhook.format === "discord") {
          // Discord's limit per webhook, over all processes: the window travels with the webhook.
          const wait = window.delayMs(clock());
          if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        }
        const at = new Date();
        const outcome = await settlements.sending(send(webhook, message, settings));
        // Counted when answered: Discord counts a request when it arrives, never later than that.
        if (webhook.format === "discord") window.sent(clock());
        const next = nextState(webhook, state, outcome.status, retryAfterOf(webhook, outcome), through, clock());
        const entry = attemptEntry(webhook, message, outcome, at, state.failedAttempts + 1, "delivery", next.result);
        const held = await settle({ ...next.state, sendWindow: window.snapshot() }, entry);
        observer.attempted({ ...entry, networkId: webhook.networkId });
        if (next.result === "delivered") {
          const committedAt = new Date(events.find((event) => event.sequence === message.firstSequence)!.occurredAt).getTime();
          observer.delivered(Date.now() - committedAt);
        }
        if (!held) return;
        if (next.state.disable !== null) return await recordDisabled(webhook, next.state.disable);
        if (next.result !== "delivered" && next.result !== "gave-up") return;
        state = { ...state, waitMs: 0, failing: "keep" };
      }
    } finally {
      // Only if still this process's: another may have taken it over.
      await db.webhooks.release(owner, webhook.id);
    }
  }

  /** The disabling is the service's change of the webhook: recorded as such (src/events/record.ts). */
  async function recordDisabled(webhook: DeliverableWebhook, reason: string) {
    const scope = { db, network: { id: webhook.networkId }, key: operatorKey, now: () => new Date() };
    await changeWithEvents(
      scope,
      async (_tx, record) => record("webhook.updated", webhook.id, { changes: { enabled: { from: true, to: false } }, reason }),
      systemActor,
    );
  }

  /** Where the delivery goes after an attempt answered `status` (null: none). */
  function nextState(
    webhook: DeliverableWebhook,
    state: DeliveryState,
    status: number | null,
    retryAfterMs: number | null,
    through: number,
    nowMs: number,
  ): { state: DeliveryState; result: AttemptResult } {
    if (isSuccess(status)) {
      return { state: { ...state, deliveredThrough: through, failedAttempts: 0, waitMs: 0, failing: "end", disable: null }, result: "delivered" };
    }
    if (status === 410) return { state: { ...state, failing: "start", disable: "The receiver answered 410 Gone." }, result: "disabled" };
    const failingSince = webhook.failingSinceMs ?? nowMs;
    if (nowMs - failingSince >= failingMsBeforeDisabled) {
      return { state: { ...state, failing: "keep", disable: "Every attempt failed for 5 days." }, result: "disabled" };
    }
    // Rate limited: the receiver's wait, which is not the event's failure.
    if (status === 429 && retryAfterMs !== null) return { state: { ...state, waitMs: retryAfterMs, failing: "start" }, result: "retrying" };
    const failed = state.failedAttempts + 1;
    const schedule = settings.retryScheduleMs;
    if (failed > schedule.length) {
      // Given up: the next events go on at once; the run of failures goes on until one is delivered.
      return { state: { ...state, deliveredThrough: through, failedAttempts: 0, waitMs: 0, failing: "start" }, result: "gave-up" };
    }
    const waitMs = Math.max(schedule[failed - 1], retryAfterMs ?? 0);
    return { state: { ...state, failedAttempts: failed, waitMs, failing: "start" }, result: "retrying" };
  }

  function retryAfterOf(webhook: DeliverableWebhook, outcome: { status: number | null; body: string; retryAfterMs: number | null }) {
    const asked = webhook.format === "discord" && outcome.status !== null ? discordRetryAfterMs(outcome.status, outcome.body, outcome.retryAfterMs) : outcome.retryAfterMs;
    return asked === null ? null : Math.min(asked, maxRetryAfterMs);
  }

  const settlements = settledTogether(db, owner, leaseMs, settings.settleWaitMs ?? settleWaitMs);
  const eventsFor = sharedEventReads(db);

  /** Deliveries waiting for a network's next event (or any network's, after a lost notice). */
  const waiting = new Map<number, Set<() => void>>();
  const nextEventOf = (networkId: number, timeoutMs: number) =>
    new Promise<void>((resolve) => {
      const waiters = waiting.get(networkId) ?? new Set();
      waiting.set(networkId, waiters);
      const done = () => {
        clearTimeout(timer);
        waiters.delete(done);
        if (waiters.size === 0 && waiting.get(networkId) === waiters) waiting.delete(networkId);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      waiters.add(done);
    });
  const tell = (waiters: Set<() => void> | undefined) => {
    for (const done of [...(waiters ?? [])]) done();
  };
  /**
   * The last sequence of each network as this process heard it or read it (a notice comes after
   * its commit, so it is never ahead of the database; it may lag behind a missed notice until
   * refreshHeard reads it again).
   */
  const lastHeard = new Map<number, number>();
  const heardUpTo = (networkId: number, sequence: number) => {
    if (sequence > (lastHeard.get(networkId) ?? 0)) lastHeard.set(networkId, sequence);
  };
  async function lastSequenceOf(networkId: number): Promise<number> {
    const heard = lastHeard.get(networkId);
    if (heard !== undefined) return heard;
    const read = (await db.events.lastSequences([networkId])).get(networkId) ?? 0;
    heardUpTo(networkId, read);
    return read;
  }
  const stopListening = db.eventNotices.listen({
    heard(networkId, sequence) {
      heardUpTo(networkId, sequence);
      tell(waiting.get(networkId));
      wakeForNotice();
    },
    unsure() {
      refreshHeard();
      wakeForNotice();
    },
  });

  /**
   * After a notice may have been missed (SQLite: any commit; PostgreSQL: a new listening
   * connection), the last sequences of the networks this process follows are read in one
   * statement, and deliveries waiting on a network that moved are woken.
   */
  let refreshing: Promise<void> | null = null;
  let refreshAgain = false;
  function refreshHeard() {
    if (refreshing) {
      refreshAgain = true;
      return;
    }
    refreshing = (async () => {
      const followed = [...new Set([...lastHeard.keys(), ...waiting.keys()])];
      for (const [networkId, sequence] of await db.events.lastSequences(followed)) {
        if (sequence <= (lastHeard.get(networkId) ?? 0)) continue;
        lastHeard.set(networkId, sequence);
        tell(waiting.get(networkId));
      }
    })()
      .catch(logInternalError)
      .finally(() => {
        refreshing = null;
        if (refreshAgain) {
          refreshAgain = false;
          refreshHeard();
        }
      });
  }
  const timer = setInterval(wake, pollMs);
  timer.unref();
  wake();

  return {
    wake,
    async stop() {
      stopping = true;
      clearInterval(timer);
      clearTimeout(lookSoon ?? undefined);
      stopListening();
      for (const waiters of [...waiting.values()]) tell(waiters);
      await looking;
      await Promise.all([...active]);
    },
  };
}

/**
 * Longest an outcome waits for the attempts still in flight, to commit with theirs: the webhooks of
 * a network get each event at about the same moment, and their answers come back a few turns apart.
 */
export const settleWaitMs = 5;

/**
 * The outcomes of deliveries, written together: those of one turn of the event loop, and while
 * other attempts are in flight, theirs too (at most `waitMs` later). On SQLite each commit
 * holds the process (the driver is synchronous) for its write to disk. Each delivery goes on only
 * once its own outcome is committed, as if it had written it alone.
 */
function settledTogether(db: Database, owner: string, leaseMs: number, waitMs: number) {
  interface Settlement {
    id: number;
    state: DeliveryState;
    attempt: NewWebhookAttempt | undefined;
    done: (webhook: DeliverableWebhook | null) => void;
    failed: (error: unknown) => void;
  }
  let waiting: Settlement[] = [];
  /** Attempts sent and not yet answered. */
  let inFlight = 0;
  /** The flush to come: at the next turn, or when the wait for the attempts in flight ends. */
  let flushing: { atTurn: boolean; timer?: NodeJS.Timeout } | null = null;
  const flush = async () => {
    clearTimeout(flushing?.timer);
    flushing = null;
    const batch = waiting;
    waiting = [];
    try {
      // Every attempt made is logged, also one cut short by a disable (not by a deletion: its log
      // went with it). Sent together: each touches its own webhook (on PostgreSQL, one round trip).
      const settled = await db.inTransaction((tx) => Promise.all(batch.map((each) => tx.webhooks.settle(owner, each.id, leaseMs, each.state, each.attempt))));
      batch.forEach((each, i) => each.done(settled[i]));
    } catch (error) {
      for (const each of batch) each.failed(error);
    }
  };
  const schedule = () => {
    if (waiting.length === 0 || flushing?.atTurn) return;
    if (inFlight === 0) {
      clearTimeout(flushing?.timer);
      flushing = { atTurn: true };
      setImmediate(() => void flush());
    } else flushing ??= { atTurn: false, timer: setTimeout(() => void flush(), waitMs) };
  };
  return {
    /** An attempt in flight: the outcomes written meanwhile wait for it, a little. */
    sending<T>(attempt: Promise<T>): Promise<T> {
      inFlight++;
      return attempt.finally(() => {
        inFlight--;
        schedule();
      });
    },
    settle(id: number, state: DeliveryState, attempt: NewWebhookAttempt | undefined): Promise<DeliverableWebhook | null> {
      return new Promise((done, failed) => {
        waiting.push({ id, state, attempt, done, failed });
        schedule();
      });
    },
  };
}
