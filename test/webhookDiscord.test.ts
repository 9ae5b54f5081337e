// The `discord` webhook format (src/webhooks/discord.ts), without a service: which events make an
// embed and what it shows, Discord's limits (truncation, 10 embeds and 6000 characters per
// message), the wait a 429 asks for, the per-webhook request window, and the Discord stand-in
// (test/support/discordStandIn.ts) the delivery tests post to.
import {
  discordEmbedOf,
  discordEmbedSize,
  discordLimits,
  discordMessages,
  discordRetryAfterMs,
  humanDuration,
  RequestWindow,
  type DiscordEmbed,
  type PublicEvent,
  type VehicleShown,
} from "../src/webhooks/discord";
import { startDiscordStandIn, type DiscordStandIn } from "./support/discordStandIn";

const occurredAt = "2026-11-03T18:30:00.000Z";

function event(type: string, data: Record<string, unknown>, overrides: Partial<PublicEvent> = {}): PublicEvent {
  return {
    id: "evt_1_7",
    sequence: 7,
    type,
    occurredAt,
    actor: { kind: "key", keyId: 3, keyName: "Dispatch bot" },
    subject: { type: type.startsWith("vehicle") ? "vehicle" : "officer", id: "12" },
    data,
    ...overrides,
  };
}

const noVehicle = (): VehicleShown | null => null;
const fieldsOf = (embed: DiscordEmbed | null) => Object.fromEntries((embed?.fields ?? []).map((field) => [field.name, field.value]));
const unix = (iso: string) => Math.floor(Date.parse(iso) / 1000);

const started = { identifier: "LSPD-104", name: "Max Mustermann", entryId: 55, startedAt: "2026-11-03T15:18:00.000Z" };

describe("dutytime embeds", () => {
  test("dutytime.started: On duty, name, identifier and start as Discord timestamp markup, green", () => {
    const embed = discordEmbedOf(event("dutytime.started", started), null, noVehicle);
    expect(embed).toEqual({
      title: "On duty",
      color: 0x2ecc71,
      fields: [
        { name: "Name", value: "Max Mustermann", inline: true },
        { name: "Identifier", value: "LSPD-104", inline: true },
        { name: "Start", value: `<t:${unix(started.startedAt)}:f>`, inline: false },
      ],
      footer: { text: "Dispatch bot" },
      timestamp: occurredAt,
    });
  });

  test("dutytime.stopped: Off duty with end and duration, grey; the auto-stop rule is said and red", () => {
    const stopped = { ...started, endedAt: "2026-11-03T18:30:00.000Z", durationSeconds: 11_520, reason: "stop" };
    const embed = discordEmbedOf(event("dutytime.stopped", stopped), null, noVehicle);
    expect(embed?.title).toBe("Off duty");
    expect(embed?.color).toBe(0x95a5a6);
    expect(embed?.description).toBeUndefined();
    expect(fieldsOf(embed)).toEqual({
      Name: "Max Mustermann",
      Identifier: "LSPD-104",
      Start: `<t:${unix(stopped.startedAt)}:f>`,
      End: `<t:${unix(stopped.endedAt)}:f>`,
      Duration: "3 h 12 min",
    });

    const auto = discordEmbedOf(event("dutytime.stopped", { ...stopped, reason: "auto-stop" }, { actor: { kind: "system", keyId: null, keyName: null } }), null, noVehicle);
    expect(auto?.color).toBe(0xe74c3c);
    expect(auto?.description).toBe("Ended by the auto-stop rule.");
    expect(auto?.footer).toEqual({ text: "system" });
  });

  test("a stop without durationSeconds takes it from start and end", () => {
    const stopped = { ...started, endedAt: "2026-11-03T16:03:00.000Z", reason: "toggle" };
    expect(fieldsOf(discordEmbedOf(event("dutytime.stopped", stopped), null, noVehicle)).Duration).toBe("45 min");
  });

  test("durations as people say them", () => {
    expect(humanDuration(50)).toBe("50 s");
    expect(humanDuration(0)).toBe("0 s");
    expect(humanDuration(45 * 60 + 59)).toBe("45 min");
    expect(humanDuration(3 * 3600 + 12 * 60 + 5)).toBe("3 h 12 min");
    expect(humanDuration(2 * 3600)).toBe("2 h");
    expect(humanDuration(-1)).toBe("—");
  });

  test("the footer names the actor: the key's name, admin or system", () => {
    const of = (actor: PublicEvent["actor"]) => discordEmbedOf(event("dutytime.started", started, { actor }), null, noVehicle)?.footer.text;
    expect(of({ kind: "key", keyId: 3, keyName: "Dispatch bot" })).toBe("Dispatch bot");
    expect(of({ kind: "key", keyId: 3, keyName: null })).toBe("key #3");
    expect(of({ kind: "admin", keyId: null, keyName: null })).toBe("admin");
    expect(of({ kind: "system", keyId: null, keyName: null })).toBe("system");
  });

  test("people's text is shown as typed: markdown escaped, newlines folded, never an empty value", () => {
    const embed = discordEmbedOf(event("dutytime.started", { ...started, name: "*Max*_\n<@123>", identifier: "  " }), null, noVehicle);
    expect(fieldsOf(embed)).toMatchObject({ Name: "\\*Max\\*\\_ \\<@123>", Identifier: "—" });
  });
});

describe("wanted embeds", () => {
  const current = (id: string): VehicleShown | null => (id === "12" ? { plate: "LS-4711", owner: "Erika Musterfrau" } : null);

  test("set: Vehicle wanted, plate and owner from the vehicle, the reason the event set, red", () => {
    const changes = { wanted: { from: false, to: true }, wantedReason: { from: null, to: "Hit and run on Vinewood Blvd." } };
    const embed = discordEmbedOf(event("vehicle.updated", { changes }), null, current);
    expect(embed?.title).toBe("Vehicle wanted");
    expect(embed?.color).toBe(0xe74c3c);
    expect(embed?.fields).toEqual([
      { name: "Plate", value: "LS-4711", inline: true },
      { name: "Owner", value: "Erika Musterfrau", inline: true },
      { name: "Reason", value: "Hit and run on Vinewood Blvd.", inline: false },
    ]);
    expect(embed?.timestamp).toBe(occurredAt);
  });

  test("set without a reason in the event: the reason is not guessed from today's vehicle", () => {
    const embed = discordEmbedOf(event("vehicle.updated", { changes: { wanted: { from: false, to: true } } }), null, current);
    expect(fieldsOf(embed).Reason).toBe("—");
  });

  test("cleared: Wanted flag cleared with plate and owner, no reason", () => {
    const embed = discordEmbedOf(event("vehicle.updated", { changes: { wanted: { from: true, to: false } } }), null, current);
    expect(embed?.title).toBe("Wanted flag cleared");
    expect(fieldsOf(embed)).toEqual({ Plate: "LS-4711", Owner: "Erika Musterfrau" });
  });

  test("a plate or owner the event changed is shown as it changed, not as the vehicle is now", () => {
    const lookups: string[] = [];
    const changes = { wanted: { from: false, to: true }, plate: { from: "OLD-1", to: "NEW-2" }, owner: { from: "A", to: null } };
    const embed = discordEmbedOf(event("vehicle.updated", { changes }), null, (id) => (lookups.push(id), current(id)));
    expect(fieldsOf(embed)).toMatchObject({ Plate: "NEW-2", Owner: "—" });
    expect(lookups).toEqual([]);
  });

  test("a vehicle gone since: vehicle #<id>", () => {
    const embed = discordEmbedOf(event("vehicle.updated", { changes: { wanted: { from: false, to: true } } }, { subject: { type: "vehicle", id: "99" } }), null, current);
    expect(fieldsOf(embed)).toMatchObject({ Plate: "vehicle #99", Owner: "—" });
  });

  test("a vehicle.updated that leaves wanted alone makes no embed, unless the type is listed", () => {
    const changes = { color: { from: "black", to: "red" } };
    expect(discordEmbedOf(event("vehicle.updated", { changes }), null, current)).toBeNull();
    expect(discordEmbedOf(event("vehicle.updated", { changes }), new Set(["dutytime.started"]), current)).toBeNull();
    expect(discordEmbedOf(event("vehicle.updated", { changes }), new Set(["vehicle.updated"]), current)?.title).toBe("vehicle.updated");
  });
});

describe("other types", () => {
  const created = { id: 12, plate: "LS-4711", owner: "Erika Musterfrau", comment: "```bad``` fence" };

  test("not listed: no embed; listed: the type and its data as fenced JSON that stays closed", () => {
    expect(discordEmbedOf(event("vehicle.created", created), null, noVehicle)).toBeNull();
    expect(discordEmbedOf(event("vehicle.created", created), new Set(), noVehicle)).toBeNull();
    const embed = discordEmbedOf(event("vehicle.created", created), new Set(["vehicle.created"]), noVehicle);
    expect(embed?.title).toBe("vehicle.created");
    expect(fieldsOf(embed)).toEqual({ Subject: "vehicle 12" });
    const description = embed?.description ?? "";
    expect(description.startsWith("```json\n")).toBe(true);
    expect(description.endsWith("\n```")).toBe(true);
    const json = description.slice("```json\n".length, -"\n```".length);
    expect(json).not.toContain("`");
    expect(JSON.parse(json)).toEqual(created);
  });

  test("webhook.test is shown whatever types lists: it exists to see a delivery arrive", () => {
    const embed = discordEmbedOf(event("webhook.test", {}, { subject: { type: "webhook", id: "4" } }), null, noVehicle);
    expect(embed?.title).toBe("webhook.test");
  });
});

describe("Discord's limits", () => {
  test("long text is cut with … to each limit, and a whole embed stays far below 6000", () => {
    const long = "x".repeat(10_000);
    const duty = discordEmbedOf(event("dutytime.started", { ...started, name: long, identifier: long }), null, noVehicle);
    expect(fieldsOf(duty).Name).toHaveLength(discordLimits.fieldValue);
    expect(fieldsOf(duty).Name.endsWith("…")).toBe(true);

    const generic = discordEmbedOf(
      event(`vehicle.${"y".repeat(400)}`, { comment: long }, { actor: { kind: "key", keyId: 1, keyName: long }, subject: { type: "vehicle", id: long } }),
      new Set([`vehicle.${"y".repeat(400)}`]),
      noVehicle,
    );
    expect(generic?.title).toHaveLength(discordLimits.title);
    expect(generic?.title.endsWith("…")).toBe(true);
    expect(generic?.description).toHaveLength(discordLimits.description);
    expect(generic?.description?.endsWith("…\n```")).toBe(true);
    expect(generic?.footer.text.length).toBeLessThanOrEqual(256);
    expect(discordEmbedSize(generic!)).toBeLessThan(discordLimits.charactersPerMessage);
  });

  test("a cut never splits a surrogate pair", () => {
    const embed = discordEmbedOf(event("dutytime.started", { ...started, name: "🚓".repeat(1000) }), null, noVehicle);
    const name = fieldsOf(embed).Name;
    expect(name.length).toBeLessThanOrEqual(discordLimits.fieldValue);
    expect(name).toBe("🚓".repeat(511) + "…");
  });

  test("23 embeds: messages of 10, 10 and 3, in order", () => {
    const embeds = Array.from({ length: 23 }, (_, index) => discordEmbedOf(event("dutytime.started", { ...started, name: `Officer ${index}` }), null, noVehicle)!);
    const messages = discordMessages(embeds);
    expect(messages.map((message) => message.embeds.length)).toEqual([10, 10, 3]);
    expect(messages.flatMap((message) => message.embeds)).toEqual(embeds);
  });

  test("a message holds at most 6000 characters: large embeds split earlier", () => {
    const large = (index: number) =>
      discordEmbedOf(event("vehicle.created", { index, comment: "z".repeat(5000) }), new Set(["vehicle.created"]), noVehicle)!;
    const embeds = [0, 1, 2, 3].map(large);
    expect(discordEmbedSize(embeds[0])).toBeGreaterThan(3000);
    const messages = discordMessages(embeds);
    expect(messages.map((message) => message.embeds.length)).toEqual([1, 1, 1, 1]);
    for (const message of messages) expect(message.embeds.reduce((sum, embed) => sum + discordEmbedSize(embed), 0)).toBeLessThanOrEqual(6000);

    const small = discordEmbedOf(event("dutytime.started", started), null, noVehicle)!;
    expect(discordMessages([embeds[0], small, small, embeds[1]]).map((message) => message.embeds.length)).toEqual([3, 1]);
    expect(discordMessages([])).toEqual([]);
  });
});

describe("discordRetryAfterMs", () => {
  test("a 429's JSON retry_after (seconds, fractional) wins over the header", () => {
    expect(discordRetryAfterMs(429, JSON.stringify({ message: "You are being rate limited.", retry_after: 0.734, global: false }), 1000)).toBe(734);
    expect(discordRetryAfterMs(429, JSON.stringify({ retry_after: 2.5, global: true }), null)).toBe(2500);
    expect(discordRetryAfterMs(429, JSON.stringify({ retry_after: 0 }), 1000)).toBe(0);
    expect(discordRetryAfterMs(429, JSON.stringify({ retry_after: 0.007 }), 1000)).toBe(7);
  });

  test("without a usable body: the header; neither: null", () => {
    expect(discordRetryAfterMs(429, "<html>rate limited</html>", 3000)).toBe(3000);
    expect(discordRetryAfterMs(429, JSON.stringify({ retry_after: "soon" }), 3000)).toBe(3000);
    expect(discordRetryAfterMs(429, "", null)).toBeNull();
    expect(discordRetryAfterMs(503, "", 5000)).toBe(5000);
    expect(discordRetryAfterMs(500, JSON.stringify({ retry_after: 1 }), null)).toBeNull();
  });

  test("an old API version's milliseconds are recognised beside the header's whole seconds", () => {
    expect(discordRetryAfterMs(429, JSON.stringify({ retry_after: 734 }), 1000)).toBe(734);
    expect(discordRetryAfterMs(429, JSON.stringify({ retry_after: 1.2 }), 2000)).toBe(1200);
  });
});

describe("RequestWindow", () => {
  test("5 at once, then a wait until the first leaves the 2 s window", () => {
    const window = new RequestWindow();
    for (let at = 1000; at < 1005; at++) {
      expect(window.delayMs(at)).toBe(0);
      window.sent(at);
    }
    expect(window.delayMs(1005)).toBe(1995);
    expect(window.delayMs(2999)).toBe(1);
    expect(window.delayMs(3000)).toBe(0);
    window.sent(3000);
    expect(window.delayMs(3000)).toBe(1);
    expect(window.delayMs(3001)).toBe(0);
  });

  test("snapshot and from carry the window to another process", () => {
    const window = new RequestWindow(5, 2000);
    for (const at of [10, 20, 30, 40, 50, 60]) window.sent(at);
    expect(window.snapshot()).toEqual([20, 30, 40, 50, 60]);
    const moved = RequestWindow.from(JSON.parse(JSON.stringify(window.snapshot())));
    expect(moved.snapshot()).toEqual(window.snapshot());
    expect(moved.delayMs(100)).toBe(window.delayMs(100));
    expect(moved.delayMs(100)).toBe(1920);
  });

  test("a snapshot from another clock never makes the wait longer than the window; garbage is dropped", () => {
    const ahead = RequestWindow.from([99_000, 99_001, 99_002, 99_003, 99_004]);
    expect(ahead.delayMs(1000)).toBe(2000);
    const odd = RequestWindow.from([Number.NaN, 5, Number.POSITIVE_INFINITY, 1, 3]);
    expect(odd.snapshot()).toEqual([1, 3, 5]);
    expect(odd.delayMs(3)).toBe(0);
  });
});

describe("the Discord stand-in", () => {
  let discord: DiscordStandIn;
  beforeEach(async () => {
    discord = await startDiscordStandIn();
  });
  afterEach(() => discord.stop());

  const path = "/api/webhooks/123/token-abc";
  const good = { embeds: [{ title: "On duty", color: 1, footer: { text: "system" }, timestamp: occurredAt }] };
  const post = (body: unknown, to = path) =>
    fetch(discord.url(to), { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });

  test("6 fast posts: 5 accepted, the 6th is 429 with retry_after, Retry-After and X-RateLimit headers", async () => {
    const answers = [];
    for (let index = 0; index < 6; index++) answers.push(await post(good));
    expect(answers.map((answer) => answer.status)).toEqual([204, 204, 204, 204, 204, 429]);
    expect(answers[4].headers.get("x-ratelimit-remaining")).toBe("0");
    const limited = answers[5];
    const body = await limited.json();
    expect(body).toMatchObject({ message: "You are being rate limited.", global: false });
    expect(body.retry_after).toBeGreaterThan(0);
    expect(body.retry_after).toBeLessThanOrEqual(2);
    expect(limited.headers.get("retry-after")).toBe(String(Math.ceil(body.retry_after)));
    expect(limited.headers.get("x-ratelimit-limit")).toBe("5");
    expect(Number(limited.headers.get("x-ratelimit-reset-after"))).toBeGreaterThan(0);
    expect(discordRetryAfterMs(429, JSON.stringify(body), Number(limited.headers.get("retry-after")) * 1000)).toBe(Math.round(body.retry_after * 1000));
    expect(discord.messages).toHaveLength(5);
    expect(discord.early()).toHaveLength(1);

    // Another webhook has its own window.
    expect((await post(good, "/api/webhooks/456/other")).status).toBe(204);
  });

  test("answer429Next: the next requests are limited for as long as asked; a request before that is early", async () => {
    discord.answer429Next(1, 0.2);
    const first = await post(good);
    expect(first.status).toBe(429);
    expect((await first.json()).retry_after).toBe(0.2);
    expect(first.headers.get("retry-after")).toBe("1");
    const tooSoon = await post(good);
    expect(tooSoon.status).toBe(429);
    expect(discord.early().map((request) => request.at)).toEqual([discord.requests[1].at]);
    await new Promise((resolve) => setTimeout(resolve, 220));
    expect((await post(good)).status).toBe(204);
    expect(discord.requests.map((request) => [request.status, request.forced ?? false])).toEqual([
      [429, true],
      [429, false],
      [204, false],
    ]);
  });

  test("accepts what discordMessages makes, at the limits", async () => {
    const long = "w".repeat(10_000);
    const embeds = [
      // About 2100 characters each: two to a message.
      ...Array.from({ length: 8 }, () => discordEmbedOf(event("dutytime.started", { ...started, name: long, identifier: long }), null, noVehicle)!),
      discordEmbedOf(event("vehicle.created", { comment: long }, { subject: { type: "vehicle", id: long } }), new Set(["vehicle.created"]), noVehicle)!,
    ];
    const messages = discordMessages(embeds);
    expect(messages.map((message) => message.embeds.length)).toEqual([2, 2, 2, 2, 1]);
    for (const message of messages) expect((await post(message)).status).toBe(204);
    expect(discord.messages.flatMap((message) => message.body.embeds)).toEqual(embeds);
  });

  test("a body without 1 to 10 embeds, or over the limits, is 400; another path is 404", async () => {
    expect((await post({ embeds: [] })).status).toBe(400);
    expect((await post({ embeds: Array.from({ length: 11 }, () => good.embeds[0]) })).status).toBe(400);
    expect((await post({ content: "hi" })).status).toBe(400);
    expect((await post({ embeds: [{ ...good.embeds[0], description: "d".repeat(4097) }] })).status).toBe(400);
    expect((await post({ embeds: [{ ...good.embeds[0], fields: [{ name: "x", value: "" }] }] })).status).toBe(400);
    expect((await post(good, "/elsewhere")).status).toBe(404);
    expect(discord.messages).toHaveLength(0);
  });
});
