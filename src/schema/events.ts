// The audit log (`events`): every change of the network's data with who made it, newest first,
// in cursor pages. The types and their data are declared once in src/model/eventTypes.ts.
import { builder } from "./builder";
import { needs } from "./scopes";
import { eventTypeNames, eventTypes, subjectTypes } from "../model/eventTypes";
import { eventView, eventsPerPageDefault, eventsPerPageMax, listEvents, subscribeEvents, type EventPage, type EventView } from "../resolvers/events";
import type { FeedItem } from "../events/feed";


/** An event's data: a JSON object, passed as it is. */
const EventDataScalar = builder.scalarType("EventData", {
  description: "An event's data, a JSON object; what it holds depends on the event's type.",
  serialize: (value) => value,
  parseValue: () => {
    throw new TypeError("EventData is only answered, never sent.");
  },
});

const typeList = eventTypeNames.map((type) => `\`${type}\` (${eventTypes[type].data})`).join("; ");

// An event's fields are read from its one row, with no work of their own: a page costs its
// number of events (the events field's multiplier), so that the largest page (500) fits the
// default GRAPHQL_MAX_COST.
const EventActorType = builder.objectRef<EventView["actor"]>("EventActor").implement({
  description: "Who made the change: a key, the admin command, or the service itself (the auto-stop rule).",
  fields: (t) => ({
    kind: t.exposeString("kind", { complexity: 0, description: "key, admin or system." }),
    keyId: t.exposeInt("keyId", { complexity: 0, nullable: true, description: "The key's id; null for the admin command and the service." }),
    keyName: t.exposeString("keyName", { complexity: 0, nullable: true, description: "The key's name when the change was made." }),
  }),
});

const EventSubjectType = builder.objectRef<EventView["subject"]>("EventSubject").implement({
  description: "What the change is about.",
  fields: (t) => ({
    type: t.exposeString("type", { complexity: 0, description: `One of: ${subjectTypes.join(", ")}.` }),
    id: t.exposeString("id", { complexity: 0, description: "Its id (an officer's: its identifier)." }),
  }),
});

export const EventType = builder.objectRef<EventView>("Event").implement({
  description: "One committed change of the network's data, recorded in the change's transaction.",
  fields: (t) => ({
    id: t.exposeString("id", { complexity: 0, description: "evt_<network>_<sequence>: the same on every delivery." }),
    sequence: t.exposeInt("sequence", { complexity: 0, description: "Counts the network's events from 1 without gaps, in commit order." }),
    type: t.exposeString("type", { complexity: 0, description: `The change: ${typeList}.` }),
    occurredAt: t.expose("occurredAt", { type: "DateTime", complexity: 0 }),
    actor: t.field({ type: EventActorType, complexity: 0, resolve: (event) => event.actor }),
    subject: t.field({ type: EventSubjectType, complexity: 0, resolve: (event) => event.subject }),
    data: t.field({ type: EventDataScalar, complexity: 0, resolve: (event) => event.data }),
  }),
});

const EventPageMetaType = builder.objectRef<EventPage["meta"]>("EventPageMeta").implement({
  fields: (t) => ({
    perPage: t.exposeInt("perPage"),
    prevCursor: t.exposeString("prevCursor", { nullable: true, description: "The cursor of the newer events; null on the first page." }),
    nextCursor: t.exposeString("nextCursor", { nullable: true, description: "The cursor of the older events; null on the last page." }),
  }),
});

const EventPageType = builder.objectRef<EventPage>("EventPage").implement({
  fields: (t) => ({
    // The page's size is counted once, by the events field.
    data: t.field({ type: [EventType], complexity: { field: 1, multiplier: 1 }, resolve: (page) => page.data }),
    meta: t.field({ type: EventPageMetaType, resolve: (page) => page.meta }),
  }),
});

builder.queryFields((t) => ({
  events: t.field({
    type: EventPageType,
    description: "The network's events (the audit log), newest first.",
    // An out-of-range perPage is the resolver's to refuse (422 on per_page), not the cost's.
    complexity: (args) => ({ field: 1, multiplier: Math.min(Math.max(args.perPage ?? eventsPerPageDefault, 1), eventsPerPageMax) }),
    args: {
      type: t.arg.string({ description: "Types, comma-separated; `vehicle.*` names a family." }),
      subjectType: t.arg.string({ description: `What the events are about: ${subjectTypes.join(", ")}.` }),
      subjectId: t.arg.string({ description: "The id of what the events are about (an officer's identifier)." }),
      keyId: t.arg.id({ description: "Only changes made with this key." }),
      from: t.arg({ type: "DateTime", description: "Events that occurred at or after this instant." }),
      to: t.arg({ type: "DateTime", description: "Events that occurred before this instant." }),
      after: t.arg.int({ description: "Events after this sequence." }),
      before: t.arg.int({ description: "Events before this sequence." }),
      perPage: t.arg.int({ description: `1 to ${eventsPerPageMax}, default ${eventsPerPageDefault}.` }),
      cursor: t.arg.string({ description: "A page's nextCursor or prevCursor." }),
    },
    resolve: (_root, args, ctx) => listEvents(ctx, args),
  }),
}));

builder.subscriptionType({ description: "Live events: over SSE (POST /graphql with Accept: text/event-stream) or WebSocket (graphql-transport-ws at /graphql)." });

builder.subscriptionFields((t) => ({
  events: t.field({
    type: EventType,
    extensions: needs("read"),
    description:
      "The network's events as they are committed, in sequence order. With `after`, the retained events after that sequence " +
      "first, then live ones, with no gap and no duplicate. Over SSE each event's `id:` is its sequence, and `Last-Event-ID: N` " +
      "on a reconnect means after: N.",
    args: {
      types: t.arg.stringList({ description: "Only these types; `vehicle.*` names a family. Omitted: all." }),
      after: t.arg.int({ description: "Replay the retained events after this sequence first." }),
    },
    subscribe: (_root, args, ctx) => subscribeEvents(ctx, args),
    // A feed item that ends the subscription is turned into its last result by the guarded
    // subscribe function (src/server/guardedSubscribe.ts) and never reaches this resolver.
    resolve: (item: FeedItem) => {
      if ("end" in item) throw item.end;
      return eventView(item.event);
    },
  }),
}));
