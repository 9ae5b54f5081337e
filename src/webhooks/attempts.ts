// One attempt of a webhook: the request made (./outgoing.ts), its entry in the delivery log, its log
// line and its count in the metrics. Delivery (./delivery.ts), redelivery and `webhook test`
// (src/resolvers/webhooks.ts) all attempt through here, so every attempt is logged alike.
import type { Database } from "../db/client";
import type { DeliverableWebhook, NewWebhookAttempt } from "../db/store";
import { defaultWebhookSettings, type WebhookSettings } from "../config/webhooks";
import { post, type AttemptOutcome } from "./outgoing";
import type { Message } from "./messages";

/** Why an attempt was made: the worker's delivery, a redelivery on demand, or `webhook test`. */
export const attemptKinds = ["delivery", "redelivery", "test"] as const;
export type AttemptKind = (typeof attemptKinds)[number];

/**
 * What came of an attempt: delivered (2xx); retrying (failed, tried again later); gave-up (failed
 * the whole schedule: the next events go on); disabled (410, or failing 5 days: the webhook
 * stopped); failed (a test or redelivery that failed: nothing is retried).
 */
export const attemptOutcomes = ["delivered", "retrying", "gave-up", "disabled", "failed"] as const;
export type AttemptResult = (typeof attemptOutcomes)[number];

/** What the service tells of each attempt, besides the delivery log (metrics, the log). */
export interface AttemptObserver {
  attempted(entry: NewWebhookAttempt & { networkId: number }): void;
  /** Milliseconds from an event's commit to its delivery. */
  delivered(lagMs: number): void;
}

export const silentObserver: AttemptObserver = { attempted: () => undefined, delivered: () => undefined };

/** What the webhook rules need of the service beyond the database: delivery settings and who observes attempts. */
export interface WebhookServices {
  settings: WebhookSettings;
  observer: AttemptObserver;
}

export const defaultWebhookServices: WebhookServices = { settings: defaultWebhookSettings, observer: silentObserver };

/** Makes the request; never throws (a failure is an outcome). */
export const send = (webhook: DeliverableWebhook, message: Message, settings: WebhookSettings): Promise<AttemptOutcome> =>
  post(webhook.url, message.headers, message.body, settings);

/** The delivery log's entry of an attempt. */
export function attemptEntry(
  webhook: DeliverableWebhook,
  message: Message,
  outcome: AttemptOutcome,
  at: Date,
  attempt: number,
  kind: AttemptKind,
  result: AttemptResult,
): NewWebhookAttempt {
  return {
    webhookId: webhook.id,
    eventId: message.id,
    firstSequence: message.firstSequence,
    lastSequence: message.lastSequence,
    attempt,
    attemptedAt: at,
    status: outcome.status,
    durationMs: Math.round(outcome.durationMs),
    error: outcome.error,
    kind,
    outcome: result,
  };
}

/** An attempt outside the delivery's schedule (a test, a redelivery): made, logged, observed. */
export async function attemptOnce(
  db: Database,
  webhook: DeliverableWebhook,
  message: Message,
  settings: WebhookSettings,
  kind: Exclude<AttemptKind, "delivery">,
  observer: AttemptObserver,
) {
  const at = new Date();
  const outcome = await send(webhook, message, settings);
  const delivered = outcome.status !== null && outcome.status >= 200 && outcome.status < 300;
  const entry = attemptEntry(webhook, message, outcome, at, 1, kind, delivered ? "delivered" : "failed");
  const id = await db.webhooks.logAttempt(entry);
  observer.attempted({ ...entry, networkId: webhook.networkId });
  return { id: id ?? 0, ...entry };
}
