// What a webhook's request carries for a run of events, by its format (the contract's "Webhooks"):
// - standard: one event's JSON, as /events shows it, signed (./signing.ts);
// - discord: the embeds of up to 10 events in one message (./discord.ts).
// Which of a network's events a webhook reads is decided here too, so delivery, redelivery and
// the type filter agree.
import type { Database } from "../db/client";
import type { DeliverableWebhook, StoredEvent, WebhookFormat } from "../db/store";
import { typesNamedBy, type EventType } from "../model/eventTypes";
import { eventView } from "../events/view";
import { discordEmbedOf, discordMessages, type PublicEvent, type VehicleShown } from "./discord";
import { signedHeaders, signingSecrets } from "./signing";

/** The types a Discord webhook posts when its filter names none: the duty log and the wanted flags. */
export const discordDefaultTypes: readonly EventType[] = ["dutytime.started", "dutytime.stopped", "vehicle.updated"];

/** The event types a webhook reads; null: every type. */
export function typesRead(webhook: { types: readonly string[]; format: WebhookFormat }): EventType[] | null {
  if (webhook.types.length === 0) return webhook.format === "discord" ? [...discordDefaultTypes] : null;
  return [...new Set(webhook.types.flatMap(typesNamedBy))];
}

/** One request of a delivery: its body and headers, and the events it carries. */
export interface Message {
  /** The webhook-id: the (first) event's id, the same on every attempt. */
  id: string;
  body: string;
  headers: Record<string, string>;
  /** The sequences of the events it carries; null: a test. */
  firstSequence: number | null;
  lastSequence: number | null;
}

/**
 * An event's public JSON (as /events shows it), made once per stored event, and its text: the
 * webhooks of a network share one read of its events (./eventReads.ts), so every webhook that
 * sends the event takes the same two. Neither is ever changed: a stored event is written once, and
 * the readers of its public form (standardMessage, the Discord embeds) only read it.
 */
const shownOnce = new WeakMap<StoredEvent, PublicEvent>();
const bodies = new WeakMap<PublicEvent, string>();

/** The public JSON of an event (as /events shows it); the same object for the same stored event. */
export function publicEvent(stored: StoredEvent): PublicEvent {
  let shown = shownOnce.get(stored);
  if (shown === undefined) {
    const body = JSON.stringify(eventView(stored));
    shown = JSON.parse(body) as PublicEvent;
    shownOnce.set(stored, shown);
    bodies.set(shown, body);
  }
  return shown;
}

/** A standard webhook's request for one event (or a test event): signed with the secrets that sign now. */
export function standardMessage(webhook: DeliverableWebhook, event: PublicEvent, nowMs: number, at: Date): Message {
  const body = bodies.get(event) ?? JSON.stringify(event);
  const headers = signedHeaders(event.id, body, signingSecrets(webhook, nowMs), at);
  const sequence = event.type === testEventType ? null : event.sequence;
  return { id: event.id, body, headers, firstSequence: sequence, lastSequence: sequence };
}

/**
 * The events of `events` (in sequence order) a Discord webhook posts first: as many as fit one
 * message; `through` is the last event it covers (events that make no embed are covered too).
 * Null `message`: none of them makes an embed.
 */
export async function discordMessageOf(
  db: Database,
  webhook: DeliverableWebhook,
  events: readonly PublicEvent[],
): Promise<{ message: Message | null; through: number }> {
  const listed = webhook.types.length === 0 ? null : new Set<string>(typesRead(webhook));
  const vehicles = await vehiclesShown(db, webhook.networkId, events);
  const embeds = [];
  const carried: PublicEvent[] = [];
  for (const event of events) {
    const embed = discordEmbedOf(event, listed, (id) => vehicles.get(id) ?? null);
    if (embed === null) continue;
    embeds.push(embed);
    carried.push(event);
  }
  if (embeds.length === 0) return { message: null, through: events.at(-1)?.sequence ?? 0 };
  const first = discordMessages(embeds)[0];
  const sent = carried.slice(0, first.embeds.length);
  const lastSent = sent.at(-1)!;
  // Covered: everything up to the event before the first one left for the next message.
  const next = carried[sent.length];
  const through = next === undefined ? events.at(-1)!.sequence : next.sequence - 1;
  return {
    message: {
      id: sent[0].id,
      body: JSON.stringify(first),
      headers: { "webhook-id": sent[0].id },
      firstSequence: sent[0].sequence,
      lastSequence: lastSent.sequence,
    },
    through,
  };
}

/** The plates and owners the wanted-flag embeds name: each vehicle as it is now (read once per message). */
async function vehiclesShown(db: Database, networkId: number, events: readonly PublicEvent[]): Promise<Map<string, VehicleShown>> {
  const ids = new Set(events.filter((event) => event.type === "vehicle.updated").map((event) => event.subject.id));
  const shown = new Map<string, VehicleShown>();
  for (const id of ids) {
    const vehicle = Number.isSafeInteger(Number(id)) ? await db.vehicles.byId(networkId, Number(id)) : null;
    if (vehicle) shown.set(id, { plate: vehicle.plate, owner: vehicle.owner });
  }
  return shown;
}

/** The type of `webhook test`'s event, which is sent to one webhook and never recorded. */
export const testEventType = "webhook.test";

/** The event `webhook test` sends: shaped like every other, with a fresh id and no place in the sequence. */
export function testEvent(networkId: number, webhookId: number, at: Date, actor: PublicEvent["actor"]): PublicEvent {
  return {
    id: `evt_${networkId}_test_${at.getTime().toString(36)}${Math.random().toString(36).slice(2, 8)}`,
    sequence: 0,
    type: testEventType,
    occurredAt: at.toISOString(),
    actor,
    subject: { type: "webhook", id: String(webhookId) },
    data: { message: "A test of this webhook: it is not recorded." },
  };
}
