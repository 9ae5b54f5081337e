// The audit log (`events`): every change of the network's data with who made it, newest first,
// in cursor pages. The types and their data are declared once in src/model/eventTypes.ts.
import { builder } from "./builder";
import { eventTypeNames, eventTypes, subjectTypes } from "../model/eventTypes";
import { eventsPerPageDefault, eventsPerPageMax, listEvents, type EventPage, type EventView } from "../resolvers/events";


/** An event's data: a JSON object, passed as it is. */
export const EventDataScalar = builder.scalarType("EventData", {
  description: "An event's data, a JSON object; what it holds depends on the event's type.",
  serialize: (value) => value,
  parseValue: () => {
    throw new TypeError("EventData is only answered, never sent.");
  },
});

const typeList = eventTypeNames.map((type) => `\`${type}\` (${eventTypes[type].data})`).join("; ");

const EventActorType = builder.objectRef<EventView["actor"]>("EventActor").implement({
  description: "Who made the change: a key, the admin command, or the service itself (the auto-stop rule).",
  fields: (t) => ({
    kind: t.exposeString("kind", { description: "key, admin or system." }),
    keyId: t.exposeInt("keyId", { nullable: true, description: "The key's id; null for the admin command and the service." }),
    keyName: t.exposeString("keyName", { nullable: true, description: "The key's name when the change was made." }),
  }),
});

const EventSubjectType = builder.objectRef<EventView["subject"]>("EventSubject").implement({
  description: "What the change is about.",
  fields: (t) => ({
    type: t.exposeString("type", { description: `One of: ${subjectTypes.join(", ")}.` }),
    id: t.exposeString("id", { description: "Its id (an officer's: its identifier)." }),
  }),
});

export const EventType = builder.objectRef<EventView>("Event").implement({
  description: "One committed change of the network's data, recorded in the change's transaction.",
  fields: (t) => ({
    id: t.exposeString("id", { description: "evt_<network>_<sequence>: the same on every delivery." }),
    sequence: t.exposeInt("sequence", { description: "Counts the network's events from 1 without gaps, in commit order." }),
    type: t.exposeString("type", { description: `The change: ${typeList}.` }),
    occurredAt: t.expose("occurredAt", { type: "DateTime" }),
    actor: t.field({ type: EventActorType, resolve: (event) => event.actor }),
    subject: t.field({ type: EventSubjectType, resolve: (event) => event.subject }),
    data: t.field({ type: EventDataScalar, resolve: (event) => event.data }),
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
    complexity: (args) => ({ field: 1, multiplier: args.perPage ?? eventsPerPageDefault }),
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
