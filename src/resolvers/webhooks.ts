// A network's webhooks (the contract's "Webhooks"): listed, made (the secret answered once),
// changed, deleted, their secret rotated, their delivery log read, a test sent, an event
// redelivered. The admin command and GraphQL (scope `admin`) share these rules; each change is
// recorded with its event (src/events/record.ts), never with a secret. Delivery itself is
// src/webhooks/delivery.ts's.
import type { Database } from "../db/client";
import type { WebhookAttemptRecord, WebhookChanges, WebhookFormat, WebhookRecord } from "../db/store";
export type { WebhookFormat };
import type { WebhookSettings } from "../config/webhooks";
import { actorOf, changeWithEvents, changesBetween, type ChangeScope } from "../events/record";
import { notFound } from "../errors";
import { typesOf } from "./events";
import { messages, textFault, Validator } from "./validation";
import { urlRefusal } from "../webhooks/addresses";
import { withoutSecrets } from "../db/webhooks";
import { newWebhookSecret, previousSecretSignsMs } from "../webhooks/signing";
import { attemptOnce, defaultWebhookServices, type WebhookServices } from "../webhooks/attempts";

export type { WebhookServices };
export type { WebhookAttemptRecord, WebhookRecord } from "../db/store";
import { publicEvent, standardMessage, discordMessageOf, testEvent, type Message } from "../webhooks/messages";

export const webhookFormats = ["standard", "discord"] as const satisfies readonly WebhookFormat[];
export const maxUrlCharacters = 2_000;
export const maxDescriptionCharacters = 500;
export const attemptsPerPageMax = 100;

/** A change of webhooks, as the rules take it: the change's scope and the service's settings. */
export type WebhookScope = ChangeScope & { webhooks?: WebhookServices };

const servicesOf = (scope: WebhookScope) => scope.webhooks ?? defaultWebhookServices;

export interface WebhookInput {
  url?: string | null;
  description?: string | null;
  /** Type filter terms as in /events; empty: every type (a Discord webhook: the duty log and wanted flags). */
  types?: readonly string[] | null;
  format?: string | null;
  enabled?: boolean | null;
}

/** A Discord webhook's path: /api/webhooks/<id>/<token> (any API version before it). */
const discordPath = /^\/api(\/v\d+)?\/webhooks\/\d+\/[\w-]+\/?$/;

/** The input checked (422 with every fault at once); the URL's address is checked last, after DNS. */
async function checkedInput(input: WebhookInput, settings: WebhookSettings, format: WebhookFormat | null): Promise<WebhookChanges & { format?: WebhookFormat }> {
  const check = new Validator();
  const checked: WebhookChanges & { format?: WebhookFormat } = {};
  if (input.format != null) {
    if ((webhookFormats as readonly string[]).includes(input.format)) checked.format = input.format as WebhookFormat;
    else check.fail("format", messages.oneOf("format", webhookFormats));
  }
  const formatOf = checked.format ?? format ?? "standard";
  if (input.description != null) {
    const fault = textFault("description", input.description, maxDescriptionCharacters);
    if (fault) check.fail("description", fault);
    else checked.description = input.description.trim();
  }
  if (input.types != null) {
    const terms = input.types.map((term) => term.trim()).filter((term) => term !== "");
    typesOf(check, "types", terms);
    checked.types = [...new Set(terms)];
  }
  if (input.enabled != null) checked.enabled = input.enabled;
  if (input.url != null) {
    const fault = textFault("url", input.url, maxUrlCharacters);
    if (fault) check.fail("url", fault);
    else {
      const url = input.url.trim();
      const refusal = await urlRefusal(url, { allowedHosts: settings.allowedHosts, lookup: settings.lookupAll });
      if (refusal) check.fail("url", `The url is refused: ${refusal}.`);
      else if (formatOf === "discord" && !discordPath.test(new URL(url).pathname)) {
        check.fail("url", "The url field must be a Discord webhook URL (…/api/webhooks/<id>/<token>).");
      } else checked.url = url;
    }
  }
  check.throwIfInvalid();
  return checked;
}

/** A webhook as events show it: never its secret. */
const webhookData = (webhook: WebhookRecord) => ({
  id: webhook.id,
  url: webhook.url,
  description: webhook.description,
  types: webhook.types,
  format: webhook.format,
  enabled: webhook.enabled,
  disabledReason: webhook.disabledReason,
  createdAt: webhook.createdAt,
});

/** The fields whose changes webhook.updated shows (types aside: a list). */
const shownFields = ["url", "description", "enabled"] as const satisfies readonly (keyof WebhookRecord)[];

export const listWebhooks = (db: Database, networkId: number): Promise<WebhookRecord[]> => db.webhooks.list(networkId);

/** The network's webhook, or not found (another network's is not found too). */
async function webhookOf(db: Database, networkId: number, id: number) {
  const webhook = await db.webhooks.byId(networkId, id);
  if (!webhook) throw notFound("Webhook");
  return webhook;
}

/** Makes a webhook; a standard one's secret is answered this once. It delivers the events after now. */
export async function createWebhook(scope: WebhookScope, input: WebhookInput): Promise<{ webhook: WebhookRecord; secret: string | null }> {
  if (input.url == null) {
    const check = new Validator();
    check.fail("url", messages.required("url"));
    check.throwIfInvalid();
  }
  const checked = await checkedInput(input, servicesOf(scope).settings, null);
  const format = checked.format ?? "standard";
  const secret = format === "standard" ? newWebhookSecret() : "";
  const webhook = await changeWithEvents(scope, async (tx, record) => {
    const created = await tx.webhooks.create(
      scope.network.id,
      { url: checked.url!, description: checked.description ?? "", types: checked.types ?? [], format, secret },
      scope.now(),
    );
    record("webhook.created", created.id, webhookData(created));
    return created;
  });
  return { webhook, secret: format === "standard" ? secret : null };
}

/** Changes the fields given; enabling a disabled webhook forgives its failures. */
export async function updateWebhook(scope: WebhookScope, id: number, input: Omit<WebhookInput, "format">): Promise<WebhookRecord> {
  const current = await webhookOf(scope.db, scope.network.id, id);
  const changes = await checkedInput(input, servicesOf(scope).settings, current.format);
  const updated = await changeWithEvents(scope, async (tx, record) => {
    const after = await tx.webhooks.update(scope.network.id, id, changes);
    if (!after) return null;
    const changed = changesBetween(current, after, shownFields);
    // Types are a list: compared by their terms, shown as lists.
    if (current.types.join(",") !== after.types.join(",")) changed.types = { from: current.types, to: after.types };
    if (Object.keys(changed).length > 0) record("webhook.updated", id, { changes: changed });
    return after;
  });
  if (!updated) throw notFound("Webhook");
  return updated;
}

export async function deleteWebhook(scope: WebhookScope, id: number): Promise<WebhookRecord> {
  const removed = await changeWithEvents(scope, async (tx, record) => {
    const gone = await tx.webhooks.remove(scope.network.id, id);
    if (gone) record("webhook.deleted", id, webhookData(gone));
    return gone;
  });
  if (!removed) throw notFound("Webhook");
  return removed;
}

/** A new secret, answered this once; the previous one signs too for a day (receivers move over meanwhile). */
export async function rotateWebhookSecret(scope: WebhookScope, id: number): Promise<{ webhook: WebhookRecord; secret: string }> {
  const webhook = await webhookOf(scope.db, scope.network.id, id);
  if (webhook.format !== "standard") {
    const check = new Validator();
    check.fail("id", "Only a standard webhook has a secret (Discord's URL holds its own).");
    check.throwIfInvalid();
  }
  const secret = newWebhookSecret();
  await changeWithEvents(scope, async (tx, record) => {
    if (!(await tx.webhooks.rotateSecret(scope.network.id, id, secret, previousSecretSignsMs))) throw notFound("Webhook");
    // Secrets are never shown in events: that it changed is all.
    record("webhook.updated", id, { changes: { secret: { from: "(hidden)", to: "(hidden)" } } });
  });
  return { webhook: withoutSecrets(webhook), secret };
}

/** The webhook's delivery log, newest first, in pages before an attempt's id. */
export async function webhookAttempts(
  db: Database,
  networkId: number,
  id: number,
  window: { before?: number | null; perPage?: number | null },
): Promise<WebhookAttemptRecord[]> {
  const check = new Validator();
  const perPage = window.perPage ?? 50;
  if (perPage < 1 || perPage > attemptsPerPageMax) check.fail("perPage", messages.between("perPage", 1, attemptsPerPageMax));
  check.throwIfInvalid();
  await webhookOf(db, networkId, id);
  return db.webhooks.attempts(id, { before: window.before ?? null, limit: perPage });
}

/** Sends a `webhook.test` event to this webhook alone, now; it is not recorded, the attempt is logged. */
export async function testWebhook(scope: WebhookScope, id: number): Promise<WebhookAttemptRecord> {
  const webhook = await webhookOf(scope.db, scope.network.id, id);
  const { settings, observer } = servicesOf(scope);
  const at = scope.now();
  const event = testEvent(scope.network.id, id, at, actorShown(scope));
  let message: Message;
  if (webhook.format === "discord") {
    const { message: discord } = await discordMessageOf(scope.db, webhook, [event]);
    message = discord!;
  } else message = standardMessage(webhook, event, Date.now(), at);
  return attemptOnce(scope.db, webhook, message, settings, "test", observer);
}

/** Sends one of the network's retained events to this webhook again, now (the same webhook-id). */
export async function redeliverEvent(scope: WebhookScope, id: number, sequence: number): Promise<WebhookAttemptRecord> {
  const webhook = await webhookOf(scope.db, scope.network.id, id);
  const [stored] = await scope.db.events.page(
    scope.network.id,
    { types: null, subjectType: null, subjectId: null, keyId: null, from: null, to: null, after: sequence - 1, before: sequence + 1 },
    { limit: 1, order: "oldest" },
  );
  if (!stored) throw notFound("Event");
  const { settings, observer } = servicesOf(scope);
  const event = publicEvent(stored);
  let message: Message | null;
  if (webhook.format === "discord") message = (await discordMessageOf(scope.db, webhook, [event])).message;
  else message = standardMessage(webhook, event, Date.now(), scope.now());
  if (message === null) {
    const check = new Validator();
    check.fail("sequence", "This webhook posts nothing for that event (its type or its changes).");
    check.throwIfInvalid();
  }
  return attemptOnce(scope.db, webhook, message!, settings, "redelivery", observer);
}

/** Who sends a test, as events name an actor (src/events/record.ts). */
const actorShown = (scope: WebhookScope) => actorOf(scope.key);
