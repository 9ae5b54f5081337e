// The `discord` webhook format (the contract's "Webhooks"): which events become an embed and what
// it shows, how embeds are batched into messages within Discord's limits, how long Discord's 429
// asks us to wait, and the per-webhook window that keeps us under Discord's 5 requests per 2 s.
// Pure functions and one small class: the delivery worker does the I/O and stores the window.
//
// Events arrive here as the API shows them in JSON (the body a `standard` webhook posts): instants
// are ISO strings. The worker has already applied the webhook's `types` filter; `listed` only
// decides whether a type without an embed of its own gets the generic one.

/** An event as the API shows it in JSON (src/resolvers/events.ts's EventView, serialized). */
export interface PublicEvent {
  id: string;
  sequence: number;
  /** An event type of src/model/eventTypes.ts, or `webhook.test` (sent, never recorded). */
  type: string;
  /** ISO instant. */
  occurredAt: string;
  actor: { kind: "key" | "admin" | "system"; keyId: number | null; keyName: string | null };
  subject: { type: string; id: string };
  data: Record<string, unknown>;
}

export interface DiscordEmbedField {
  name: string;
  value: string;
  inline?: boolean;
}

/** The part of Discord's embed object we send. */
export interface DiscordEmbed {
  title: string;
  description?: string;
  /** 0xRRGGBB. */
  color: number;
  fields?: DiscordEmbedField[];
  footer: { text: string };
  /** ISO instant: Discord shows it in the reader's time zone. */
  timestamp: string;
}

/** A vehicle's current plate and owner, for a wanted embed whose event did not change them. */
export interface VehicleShown {
  plate: string;
  owner: string | null;
}

/** Discord's limits (its "Embed Limits"); a message over them is refused with 400. */
export const discordLimits = {
  title: 256,
  description: 4096,
  fields: 25,
  fieldName: 256,
  fieldValue: 1024,
  footer: 2048,
  embedsPerMessage: 10,
  /** Title, description, field names and values and footer of all embeds of one message. */
  charactersPerMessage: 6000,
} as const;

/** An actor's name in a footer: key names are chosen by people, so this bound is ours (well below Discord's 2048). */
const footerMax = 256;

const colors = { onDuty: 0x2ecc71, offDuty: 0x95a5a6, autoStop: 0xe74c3c, wanted: 0xe74c3c, wantedCleared: 0x3498db, other: 0x7f8c8d } as const;

/** Shown where a value is missing: Discord refuses an empty field value. */
const none = "—";

// ---------------------------------------------------------------------------------------------
// Text within Discord's limits

/**
 * At most `max` UTF-16 units, ending in "…" when cut. Discord counts characters; UTF-16 units are
 * never fewer, so a text within `max` here is within it there. A surrogate pair is never split.
 */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max - 1;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return text.slice(0, end) + "…";
}

/**
 * People's text (names, plates, reasons) shown as typed, not as Discord markdown or a mention:
 * inline markup is escaped anywhere, block markup (heading, quote, list) where a line starts.
 */
function plain(text: string): string {
  return text.replace(/[\\*_~`|[\]<]/g, "\\$&").replace(/^(\s*)([#>-])/gm, "$1\\$2");
}

/** A one-line field value: people's text, newlines folded, never empty, within the limit. */
function fieldText(value: unknown, oneLine = true): string {
  if (value === null || value === undefined) return none;
  let text = String(value);
  if (oneLine) text = text.replace(/\s*[\r\n]+\s*/g, " ");
  if (text.trim() === "") return none;
  return truncate(plain(text), discordLimits.fieldValue);
}

/** The characters Discord counts towards the 6000 of a message. */
export function discordEmbedSize(embed: DiscordEmbed): number {
  let size = embed.title.length + (embed.description?.length ?? 0) + embed.footer.text.length;
  for (const field of embed.fields ?? []) size += field.name.length + field.value.length;
  return size;
}

// ---------------------------------------------------------------------------------------------
// Instants and durations

/** Milliseconds since the epoch of an instant as JSON shows it (an ISO string; a Date or number tolerated); null: none. */
function instantMs(value: unknown): number | null {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.getTime();
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  if (typeof value !== "string") return null;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? null : ms;
}

/** Discord's timestamp markup: each reader sees the instant in their own time zone. */
function discordTime(value: unknown): string {
  const ms = instantMs(value);
  return ms === null ? none : `<t:${Math.floor(ms / 1000)}:f>`;
}

/** "3 h 12 min", "45 min", "50 s": the precision a duty shift is talked about in. */
export function humanDuration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return none;
  const whole = Math.floor(seconds);
  if (whole < 60) return `${whole} s`;
  const minutes = Math.floor(whole / 60) % 60;
  const hours = Math.floor(whole / 3600);
  if (hours === 0) return `${minutes} min`;
  return minutes === 0 ? `${hours} h` : `${hours} h ${minutes} min`;
}

// ---------------------------------------------------------------------------------------------
// Embeds

function footerOf(actor: PublicEvent["actor"]): { text: string } {
  if (actor.kind !== "key") return { text: actor.kind };
  const name = actor.keyName !== null && actor.keyName.trim() !== "" ? actor.keyName : `key #${actor.keyId ?? "?"}`;
  return { text: truncate(name, footerMax) };
}

/** The frame every embed shares: the event's instant and who caused it. */
function embed(event: PublicEvent, title: string, color: number, fields: DiscordEmbedField[], description?: string): DiscordEmbed {
  const shown: DiscordEmbed = { title: truncate(title, discordLimits.title), color, fields, footer: footerOf(event.actor), timestamp: event.occurredAt };
  if (description !== undefined) shown.description = truncate(description, discordLimits.description);
  return shown;
}

function dutytimeStarted(event: PublicEvent): DiscordEmbed {
  const { data } = event;
  return embed(event, "On duty", colors.onDuty, [
    { name: "Name", value: fieldText(data.name), inline: true },
    { name: "Identifier", value: fieldText(data.identifier), inline: true },
    { name: "Start", value: discordTime(data.startedAt), inline: false },
  ]);
}

function dutytimeStopped(event: PublicEvent): DiscordEmbed {
  const { data } = event;
  let seconds = typeof data.durationSeconds === "number" ? data.durationSeconds : null;
  if (seconds === null) {
    const started = instantMs(data.startedAt);
    const ended = instantMs(data.endedAt);
    if (started !== null && ended !== null) seconds = Math.round((ended - started) / 1000);
  }
  // An entry the auto-stop rule ended is worth a second look (a forgotten stop): red, and said.
  const autoStopped = data.reason === "auto-stop";
  return embed(
    event,
    "Off duty",
    autoStopped ? colors.autoStop : colors.offDuty,
    [
      { name: "Name", value: fieldText(data.name), inline: true },
      { name: "Identifier", value: fieldText(data.identifier), inline: true },
      { name: "Start", value: discordTime(data.startedAt), inline: false },
      { name: "End", value: discordTime(data.endedAt), inline: true },
      { name: "Duration", value: seconds === null ? none : humanDuration(seconds), inline: true },
    ],
    autoStopped ? "Ended by the auto-stop rule." : undefined,
  );
}

/** A `{from, to}` change of `vehicle.updated`'s data, or null when the field did not change. */
function changeOf(changes: Record<string, unknown>, field: string): { to: unknown } | null {
  const change = changes[field];
  return typeof change === "object" && change !== null && "to" in change ? (change as { to: unknown }) : null;
}

function vehicleWanted(event: PublicEvent, changes: Record<string, unknown>, wanted: boolean, vehicle: (id: string) => VehicleShown | null): DiscordEmbed {
  const plateChange = changeOf(changes, "plate");
  const ownerChange = changeOf(changes, "owner");
  // What the event changed is what it was then; the rest can only be the vehicle as it is now.
  const current = plateChange === null || ownerChange === null ? vehicle(event.subject.id) : null;
  const plate = plateChange !== null ? fieldText(plateChange.to) : current !== null ? fieldText(current.plate) : `vehicle #${event.subject.id}`;
  const owner = ownerChange !== null ? fieldText(ownerChange.to) : fieldText(current?.owner ?? null);
  const fields: DiscordEmbedField[] = [
    { name: "Plate", value: plate, inline: true },
    { name: "Owner", value: owner, inline: true },
  ];
  if (!wanted) return embed(event, "Wanted flag cleared", colors.wantedCleared, fields);
  // A reason the event did not change was set earlier; today's may differ, so none is shown.
  const reason = changeOf(changes, "wantedReason");
  fields.push({ name: "Reason", value: fieldText(reason?.to ?? null, false), inline: false });
  return embed(event, "Vehicle wanted", colors.wanted, fields);
}

const fenceOpen = "```json\n";
const fenceClose = "\n```";

/** Any event: its type and its data as JSON, cut to fit (the fence stays closed). */
function generic(event: PublicEvent): DiscordEmbed {
  // A backtick only occurs inside JSON strings, where \u0060 means the same: no "```" can end the fence early.
  const json = JSON.stringify(event.data, null, 2).replace(/`/g, "\\u0060");
  const body = truncate(json, discordLimits.description - fenceOpen.length - fenceClose.length);
  return embed(event, event.type, colors.other, [{ name: "Subject", value: fieldText(`${event.subject.type} ${event.subject.id}`), inline: false }], fenceOpen + body + fenceClose);
}

/**
 * The embed an event makes for a `discord` webhook, or null when it makes none. `listed`: the
 * types the webhook's `types` names (null or empty: none), which the generic embed needs.
 * Invariant: one embed stays within the 6000 characters of a message (the largest, the generic
 * one: title 256 + description 4096 + one field 7 + 1024 + footer 256), so discordMessages never
 * has to cut one.
 */
export function discordEmbedOf(event: PublicEvent, listed: ReadonlySet<string> | null, vehicle: (id: string) => VehicleShown | null): DiscordEmbed | null {
  switch (event.type) {
    case "dutytime.started":
      return dutytimeStarted(event);
    case "dutytime.stopped":
      return dutytimeStopped(event);
    case "vehicle.updated": {
      const changes = event.data.changes;
      if (typeof changes === "object" && changes !== null) {
        const wanted = changeOf(changes as Record<string, unknown>, "wanted");
        if (wanted !== null) return vehicleWanted(event, changes as Record<string, unknown>, wanted.to === true, vehicle);
      }
      break;
    }
    case "webhook.test":
      // `webhook test` exists to see a delivery arrive: it is shown whatever `types` lists.
      return generic(event);
  }
  return listed?.has(event.type) ? generic(event) : null;
}

/** Embeds in order, as few messages as Discord's 10 embeds and 6000 characters per message allow. */
export function discordMessages(embeds: DiscordEmbed[]): { embeds: DiscordEmbed[] }[] {
  const messages: { embeds: DiscordEmbed[] }[] = [];
  let current: DiscordEmbed[] = [];
  let size = 0;
  for (const shown of embeds) {
    const shownSize = discordEmbedSize(shown);
    if (current.length > 0 && (current.length === discordLimits.embedsPerMessage || size + shownSize > discordLimits.charactersPerMessage)) {
      messages.push({ embeds: current });
      current = [];
      size = 0;
    }
    current.push(shown);
    size += shownSize;
  }
  if (current.length > 0) messages.push({ embeds: current });
  return messages;
}

// ---------------------------------------------------------------------------------------------
// Rate limits

/**
 * How long to wait before the next request, in ms, from an answer; null: the answer does not say.
 * For a 429 Discord's body `{"retry_after": 0.734, "global": false}` wins over the header:
 * it is exact where `Retry-After` is rounded up to whole seconds. Unversioned webhook URLs (API
 * v6) have been seen answering `retry_after` in milliseconds (discord/discord-api-docs#4722):
 * a value beyond the header's rounded-up seconds by more than one second can only be milliseconds.
 */
export function discordRetryAfterMs(status: number, body: string, retryAfterHeaderMs: number | null): number | null {
  if (status === 429) {
    const seconds = retryAfterOfBody(body);
    if (seconds !== null) {
      const asMilliseconds = retryAfterHeaderMs !== null && seconds * 1000 > retryAfterHeaderMs + 1000;
      // Rounded to microseconds first: 0.007 * 1000 is 7.000000000000001, which is not 8 ms.
      return Math.ceil(Math.round((asMilliseconds ? seconds : seconds * 1000) * 1000) / 1000);
    }
  }
  return retryAfterHeaderMs;
}

function retryAfterOfBody(body: string): number | null {
  try {
    const parsed: unknown = JSON.parse(body);
    if (typeof parsed !== "object" || parsed === null) return null;
    const value = (parsed as { retry_after?: unknown }).retry_after;
    return typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : null;
  } catch {
    return null;
  }
}

/**
 * A webhook's sliding window of its last `max` requests: the next may go once the oldest of them
 * is `windowMs` old. Record each request with `sent(instant its answer arrived)`: Discord counts
 * a request when it arrives, which is no later than its answer, so a window counted from answers
 * never runs ahead of Discord's. `snapshot`/`from` carry it through the database, so a webhook
 * that moves to another process keeps its window.
 */
export class RequestWindow {
  private times: number[] = [];

  constructor(
    readonly max = 5,
    readonly windowMs = 2000,
  ) {}

  /** Ms until the next request may go: 0 now, never more than `windowMs` (an instant from another process's clock that lies ahead of ours counts as now). */
  delayMs(nowMs: number): number {
    if (this.times.length < this.max) return 0;
    const oldest = this.times[this.times.length - this.max];
    return Math.min(this.windowMs, Math.max(0, oldest + this.windowMs - nowMs));
  }

  sent(nowMs: number): void {
    this.times.push(nowMs);
    this.times.sort((a, b) => a - b);
    if (this.times.length > this.max) this.times.splice(0, this.times.length - this.max);
  }

  /** The instants the window holds (at most `max`, oldest first). */
  snapshot(): number[] {
    return [...this.times];
  }

  /** A window from a snapshot; what is not a finite instant is dropped. */
  static from(times: readonly number[], max = 5, windowMs = 2000): RequestWindow {
    const window = new RequestWindow(max, windowMs);
    for (const time of times) if (typeof time === "number" && Number.isFinite(time)) window.sent(time);
    return window;
  }
}
