// An event as the API shows it (the contract's "Events: the audit log"): /events, GraphQL,
// subscriptions and webhooks all show this one shape.
import type { StoredEvent } from "../db/store";
import type { EventType } from "../model/eventTypes";

/** An event as the API shows it. */
export interface EventView {
  id: string;
  sequence: number;
  type: EventType;
  occurredAt: Date;
  actor: StoredEvent["actor"];
  subject: StoredEvent["subject"];
  data: Record<string, unknown>;
}

export const eventView = (event: StoredEvent): EventView => ({
  id: `evt_${event.networkId}_${event.sequence}`,
  sequence: event.sequence,
  type: event.type,
  occurredAt: event.occurredAt,
  actor: event.actor,
  subject: event.subject,
  data: event.data,
});
