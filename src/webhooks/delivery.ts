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
// its deliveries ends, and every `pollMs` (retries due, leases of dead processes ended).
import crypto from "node:crypto";
import os from "node:os";
import type { Database } from "../db/client";
import type { DeliverableWebhook, DeliveryState, EventFilter, NewWebhookAttempt } from "../db/store";
import type { WebhookSettings } from "../config/webhooks";
import { changeWithEvents, systemActor } from "../events/record";
import { operatorKey } from "../context";
import { logInternalError } from "../publicError";
import { attemptEntry, send, type AttemptObserver, type AttemptResult } from "./attempts";
import { discordMessageOf, publicEvent, standardMessage, typesRead, type Message } from "./messages";
import { discordRetryAfterMs, RequestWindow } from "./discord";

/** Webhooks one process delivers at once. */
export const deliveriesAtOnce = 10;
/** How often a process looks for due retries and webhooks whose process died. */
export const pollMs = 1_000;
/** Events read at once for a webhook. */
const readBatch = 50;
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

const noFilter: EventFilter = { types: null, subjectType: null, subjectId: null, keyId: null, from: null, to: null, after: null, before: null };

const isSuccess = (status: number | null) => status !== null && status >= 200 && status < 300;

export function startWebhookDelivery(db: Database, settings: WebhookSettings, observer: AttemptObserver): WebhookDelivery {
  const owner = `${os.hostname()}:${process.pid}:${crypto.randomBytes(4).toString("hex")}`;
  const leaseMs = leaseMsOf(settings);
  const active = new Set<Promise<void>>();
  let stopping = false;
  let looking: Promise<void> | null = null;
  let lookAgain = false;

  const look = async () => {
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
    const window = RequestWindow.from(webhook.sendWindow);
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
      const now = await db.inTransaction(async (tx) => {
        const settled = await tx.webhooks.settle(owner, webhook.id, leaseMs, next);
        // Every attempt made is logged, also one cut short by a disable (not by a deletion: its log went with it).
        if (attempt) await tx.webhooks.logAttempt(attempt);
        return settled;
      });
      if (now === null) return false;
      webhook = now;
      state = next;
      return true;
    };
    try {
      while (!stopping) {
        // The last sequence first, then the events up to it: one committed in between is not skipped.
        const last = (await db.events.lastSequences([webhook.networkId])).get(webhook.networkId) ?? 0;
        if (last <= state.deliveredThrough) return;
        const events = await db.events.page(
          webhook.networkId,
          { ...noFilter, types: typesRead(webhook), after: state.deliveredThrough, before: last + 1 },
          { limit: readBatch, order: "oldest" },
        );
        if (events.length === 0) {
          // None of the rest is for this webhook.
          await settle({ ...state, deliveredThrough: last, waitMs: 0 });
          return;
        }
        const shown = events.map(publicEvent);
        let message: Message | null;
        let through: number;
        if (webhook.format === "discord") {
          ({ message, through } = await discordMessageOf(db, webhook, shown));
        } else {
          message = standardMessage(webhook, shown[0], clock(), new Date());
          through = shown[0].sequence;
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
        const outcome = await send(webhook, message, settings);
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
      (_tx, record) => record("webhook.updated", webhook.id, { changes: { enabled: { from: true, to: false } }, reason }),
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

  const stopListening = db.eventNotices.listen({ heard: () => wake(), unsure: () => wake() });
  const timer = setInterval(wake, pollMs);
  timer.unref();
  wake();

  return {
    wake,
    async stop() {
      stopping = true;
      clearInterval(timer);
      stopListening();
      await looking;
      await Promise.all([...active]);
    },
  };
}
