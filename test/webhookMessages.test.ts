// What a webhook's request carries for a stored event (src/webhooks/messages.ts), without a
// service: the public form and its text are made once per stored event and shared by every
// webhook that sends it, each request signed with its own webhook's secret over that same text.
import { Webhook } from "standardwebhooks";
import type { Database } from "../src/db/client";
import type { DeliverableWebhook, StoredEvent } from "../src/db/store";
import { eventView } from "../src/events/view";
import { discordMessageOf, publicEvent, standardMessage } from "../src/webhooks/messages";
import { newWebhookSecret } from "../src/webhooks/signing";

const stored = (sequence: number): StoredEvent => ({
  networkId: 4,
  sequence,
  type: "dutytime.started",
  occurredAt: new Date("2026-11-03T18:30:00.000Z"),
  actor: { kind: "key", keyId: 3, keyName: "Dispatch bot" },
  subject: { type: "officer", id: "12" },
  data: { identifier: "LSPD-104", name: "Max Mustermann", entryId: 55, startedAt: "2026-11-03T18:30:00.000Z" },
});

function webhook(id: number, format: "standard" | "discord"): DeliverableWebhook {
  return {
    id,
    networkId: 4,
    url: `http://127.0.0.1:9/${id}`,
    description: "",
    types: [],
    format,
    enabled: true,
    disabledReason: null,
    createdAt: new Date(),
    deliveredThrough: 0,
    failedAttempts: 0,
    secret: format === "standard" ? newWebhookSecret() : "",
    previousSecret: null,
    previousSecretUntilMs: null,
    failingSinceMs: null,
    sendWindow: [],
  };
}

/** The event as /events shows it, as JSON text read back. */
const asShown = (event: StoredEvent) => JSON.parse(JSON.stringify(eventView(event))) as unknown;

describe("an event's public form, shared by the webhooks that send it", () => {
  test("one object per stored event, equal to the event as /events shows it; another stored event has its own", () => {
    const event = stored(7);
    const shown = publicEvent(event);
    expect(publicEvent(event)).toBe(shown);
    expect(shown).toEqual(asShown(event));
    const other = stored(8);
    expect(publicEvent(other)).not.toBe(shown);
    expect(publicEvent(other)).toEqual(asShown(other));
  });

  test("every standard webhook gets the same text, each signed with its own secret and verified by the library", () => {
    const event = stored(9);
    const at = new Date();
    const [first, second] = [webhook(1, "standard"), webhook(2, "standard")];
    const messages = [first, second].map((each) => standardMessage(each, publicEvent(event), at.getTime(), at));
    expect(messages[0].body).toBe(JSON.stringify(eventView(event)));
    expect(messages[1].body).toBe(messages[0].body);
    expect(messages[0].headers["webhook-signature"]).not.toBe(messages[1].headers["webhook-signature"]);
    for (const [i, each] of [first, second].entries()) {
      expect(new Webhook(each.secret).verify(messages[i].body, messages[i].headers)).toEqual(asShown(event));
      // Not with the other webhook's secret.
      expect(() => new Webhook([second, first][i].secret).verify(messages[i].body, messages[i].headers)).toThrow();
    }
  });

  test("a Discord message made from the shared form leaves it as it was for the webhooks after it", async () => {
    const events = [stored(10), stored(11)];
    const { message } = await discordMessageOf({} as Database, webhook(3, "discord"), events.map(publicEvent));
    expect(message?.firstSequence).toBe(10);
    expect(message?.lastSequence).toBe(11);
    for (const event of events) expect(publicEvent(event)).toEqual(asShown(event));
    const at = new Date();
    expect(standardMessage(webhook(4, "standard"), publicEvent(events[0]), at.getTime(), at).body).toBe(JSON.stringify(eventView(events[0])));
  });

  test("a public event made elsewhere (a test event) is signed over its own JSON", () => {
    const at = new Date();
    const event = { ...(asShown(stored(12)) as ReturnType<typeof publicEvent>), id: "evt_4_test_x" };
    const message = standardMessage(webhook(5, "standard"), event, at.getTime(), at);
    expect(message.body).toBe(JSON.stringify(event));
  });
});
