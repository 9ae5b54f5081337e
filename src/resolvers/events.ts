// The audit log of the request's network: its events, newest first, filtered, in Laravel's cursor
// pages (the contract's "Events: the audit log"). Events are written only by src/events/record.ts.
import type { Context } from "../context";
import type { EventFilter, StoredEvent } from "../db/store";
import { subjectTypes, typesNamedBy, type EventType, type SubjectType } from "../model/eventTypes";
import { parseStoredId } from "./ids";
import { Validator, messages, textFault } from "./validation";
import type { FeedItem } from "../events/feed";
import { eventView, type EventView } from "../events/view";

export { eventView, type EventView };

export const eventsPerPageDefault = 50;
export const eventsPerPageMax = 500;

export interface EventListArgs {
  /** Comma-separated types; `vehicle.*` names a family. */
  type?: string | null;
  subjectType?: string | null;
  subjectId?: string | null;
  keyId?: string | number | null;
  from?: Date | null;
  to?: Date | null;
  after?: number | null;
  before?: number | null;
  perPage?: number | null;
  cursor?: string | null;
}

export interface EventPage {
  data: EventView[];
  meta: { perPage: number; prevCursor: string | null; nextCursor: string | null };
}

/** Laravel's cursor: base64url of its JSON, which names the column and the direction. */
interface Cursor {
  sequence: number;
  pointsToNextItems: boolean;
}

function encodeCursor({ sequence, pointsToNextItems }: Cursor): string {
  return Buffer.from(JSON.stringify({ sequence, _pointsToNextItems: pointsToNextItems })).toString("base64url");
}

/** The largest sequence there can be: the column's (a 32-bit integer). */
export const maxSequence = 2_147_483_647;

function decodeCursor(text: string): Cursor | null {
  try {
    const parsed = JSON.parse(Buffer.from(text, "base64url").toString("utf8")) as { sequence?: unknown; _pointsToNextItems?: unknown };
    const sequence = parsed.sequence;
    if (typeof sequence !== "number" || !Number.isInteger(sequence) || sequence < 0 || sequence > maxSequence) return null;
    if (typeof parsed._pointsToNextItems !== "boolean") return null;
    return { sequence: parsed.sequence as number, pointsToNextItems: parsed._pointsToNextItems };
  } catch {
    return null;
  }
}

/** The types a comma-separated filter names, checked into `check`; null: every type. */
export function typesOf(check: Validator, field: string, terms: readonly string[] | null): EventType[] | null {
  if (terms === null) return null;
  const types = new Set<EventType>();
  for (const term of terms) {
    const named = typesNamedBy(term.trim());
    if (named.length === 0) check.fail(field, `The selected ${field} "${term.trim().slice(0, 100)}" is not an event type or family (e.g. vehicle.updated, vehicle.*).`);
    for (const type of named) types.add(type);
  }
  return [...types];
}

const sequenceArg = (check: Validator, field: string, value: number | null | undefined): number | null => {
  if (value == null) return null;
  if (value < 0) check.fail(field, messages.min(field, 0));
  return value;
};

/** The filter the arguments ask for, checked (422 with every fault at once). */
function eventFilterOf(args: EventListArgs): { filter: EventFilter; perPage: number; cursor: Cursor | null } {
  const check = new Validator();
  const types = typesOf(check, "type", args.type == null || args.type.trim() === "" ? null : args.type.split(","));
  let subjectType: SubjectType | null = null;
  if (args.subjectType != null) {
    if ((subjectTypes as readonly string[]).includes(args.subjectType)) subjectType = args.subjectType as SubjectType;
    else check.fail("subjectType", messages.oneOf("subjectType", subjectTypes));
  }
  const subjectFault = args.subjectId == null ? null : textFault("subjectId", args.subjectId, 255);
  if (subjectFault) check.fail("subjectId", subjectFault);
  let keyId: number | null = null;
  if (args.keyId != null) {
    keyId = parseStoredId(args.keyId);
    // No key has it: nothing matches (as an unknown subject id matches nothing).
    if (keyId === null) keyId = -1;
  }
  const perPage = args.perPage ?? eventsPerPageDefault;
  if (perPage < 1 || perPage > eventsPerPageMax) check.fail("perPage", messages.between("perPage", 1, eventsPerPageMax));
  const cursor = args.cursor == null ? null : decodeCursor(args.cursor);
  if (args.cursor != null && cursor === null) check.fail("cursor", "The cursor field is not a cursor of this list: use next_cursor or prev_cursor as answered.");
  const filter: EventFilter = {
    types,
    subjectType,
    subjectId: args.subjectId ?? null,
    keyId,
    from: args.from ?? null,
    to: args.to ?? null,
    after: sequenceArg(check, "after", args.after),
    before: sequenceArg(check, "before", args.before),
  };
  check.throwIfInvalid();
  return { filter, perPage, cursor };
}

const tighterAfter = (a: number | null, b: number) => (a === null ? b : Math.max(a, b));
const tighterBefore = (a: number | null, b: number) => (a === null ? b : Math.min(a, b));

/** A page of the network's events, newest first, as Laravel's cursor paginator pages them. */
export async function listEvents(ctx: Context, args: EventListArgs): Promise<EventPage> {
  const { filter, perPage, cursor } = eventFilterOf(args);
  const limit = perPage + 1;
  const { events } = ctx.db;
  let rows: StoredEvent[];
  let more: boolean;
  if (cursor === null || cursor.pointsToNextItems) {
    const window = cursor === null ? filter : { ...filter, before: tighterBefore(filter.before, cursor.sequence) };
    rows = await events.page(ctx.network.id, window, { limit, order: "newest" });
    more = rows.length > perPage;
    rows = rows.slice(0, perPage);
    const first = rows[0];
    const last = rows[rows.length - 1];
    return page(rows, perPage, cursor !== null && first ? first.sequence : null, more && last ? last.sequence : null);
  }
  rows = await events.page(ctx.network.id, { ...filter, after: tighterAfter(filter.after, cursor.sequence) }, { limit, order: "oldest" });
  more = rows.length > perPage;
  rows = rows.slice(0, perPage).reverse();
  const first = rows[0];
  const last = rows[rows.length - 1];
  return page(rows, perPage, more && first ? first.sequence : null, last ? last.sequence : null);
}

function page(rows: StoredEvent[], perPage: number, prevFrom: number | null, nextFrom: number | null): EventPage {
  return {
    data: rows.map(eventView),
    meta: {
      perPage,
      prevCursor: prevFrom === null ? null : encodeCursor({ sequence: prevFrom, pointsToNextItems: false }),
      nextCursor: nextFrom === null ? null : encodeCursor({ sequence: nextFrom, pointsToNextItems: true }),
    },
  };
}

export interface EventSubscriptionArgs {
  types?: readonly string[] | null;
  after?: number | null;
}

/**
 * The network's events as they are committed, for a subscription: with `after` (or a reconnecting
 * SSE client's Last-Event-ID, which wins: it is what the client last received), the retained
 * events after it first, then live ones, each once, in order (src/events/feed.ts).
 */
export function subscribeEvents(ctx: Context, args: EventSubscriptionArgs): AsyncIterableIterator<FeedItem> {
  const check = new Validator();
  const types = typesOf(check, "types", args.types ?? null);
  const after = ctx.lastEventId ?? sequenceArg(check, "after", args.after);
  check.throwIfInvalid();
  if (!ctx.feed) throw new Error("subscriptions are served by the HTTP server only");
  // No types, like an empty list: every type.
  return ctx.feed.open({ networkId: ctx.network.id, keyId: ctx.key.id, types: types === null || types.length === 0 ? null : new Set(types), after });
}
