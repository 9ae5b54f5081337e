// When the webhook delivery (src/webhooks/delivery.ts) asks the database whether a webhook is due:
// a stream of event notices starts a look at most every noticeLookSpacingMs, and the last notice of
// a stream is always followed by a look (none is lost). The database here is a stand-in that
// counts the looks: what is asked of it, not what it holds, is under test. (node may fire a timer
// a fraction of a millisecond before performance.now() says it is due: spacings are checked to 2 ms.)
import type { Database } from "../src/db/client";
import type { EventNoticeListener } from "../src/db/eventNotices";
import { noticeLookSpacingMs, startWebhookDelivery, type WebhookDelivery } from "../src/webhooks/delivery";
import { silentObserver } from "../src/webhooks/attempts";
import { defaultWebhookSettings } from "../src/config/webhooks";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let looks: number[];
let listener: EventNoticeListener | undefined;
let delivery: WebhookDelivery;

beforeEach(async () => {
  looks = [];
  listener = undefined;
  const db = {
    webhooks: {
      anyDue: async () => {
        looks.push(performance.now());
        return false;
      },
    },
    events: { lastSequences: async () => new Map<number, number>() },
    eventNotices: {
      listen: (each: EventNoticeListener) => {
        listener = each;
        return () => undefined;
      },
    },
  } as unknown as Database;
  delivery = startWebhookDelivery(db, defaultWebhookSettings, silentObserver);
  // The look a start makes.
  await sleep(noticeLookSpacingMs * 2);
});
afterEach(() => delivery.stop());

test("a notice after a quiet while is looked at at once", async () => {
  const before = looks.length;
  listener!.heard(1, 1);
  await sleep(1);
  expect(looks.length).toBe(before + 1);
});

test("a burst of notices makes one look at once and one after the spacing, the last notice's", async () => {
  const before = looks.length;
  const heardAt = performance.now();
  for (let sequence = 1; sequence <= 200; sequence++) listener!.heard(1, sequence);
  await sleep(noticeLookSpacingMs * 3);
  const made = looks.slice(before);
  expect(made.length).toBe(2);
  expect(made[1] - made[0]).toBeGreaterThanOrEqual(noticeLookSpacingMs - 2);
  expect(made[0] - heardAt).toBeLessThan(noticeLookSpacingMs);
});

test("notices every few ms: looks no closer than the spacing, and one after the last notice", async () => {
  const before = looks.length;
  const started = performance.now();
  let lastNotice = 0;
  for (let sequence = 1; performance.now() - started < noticeLookSpacingMs * 8; sequence++) {
    listener!.heard(1, sequence);
    lastNotice = performance.now();
    await sleep(2);
  }
  const noticed = performance.now() - started;
  await sleep(noticeLookSpacingMs * 2);
  const made = looks.slice(before);
  // One per spacing over the stream, the first at once, and the one after it.
  expect(made.length).toBeLessThanOrEqual(Math.ceil(noticed / noticeLookSpacingMs) + 2);
  for (let i = 1; i < made.length; i++) expect(made[i] - made[i - 1]).toBeGreaterThanOrEqual(noticeLookSpacingMs - 2);
  expect(made.at(-1)!).toBeGreaterThanOrEqual(lastNotice);
});

test("unsure (a notice may have been missed) is looked at like a notice", async () => {
  const before = looks.length;
  listener!.unsure();
  listener!.unsure();
  await sleep(noticeLookSpacingMs * 3);
  expect(looks.length - before).toBe(2);
});
