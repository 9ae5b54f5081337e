// The network's webhooks for a key with `admin` (the contract's "Webhooks"): listed with their
// delivery log, made, changed, deleted, their secret rotated, tested, an event redelivered. The
// rules are the admin command's own (src/resolvers/webhooks.ts).
import { builder } from "./builder";
import { needs } from "./scopes";
import { notFound } from "../errors";
import { parseStoredId } from "../resolvers/ids";
import {
  attemptsPerPageMax,
  createWebhook,
  deleteWebhook,
  listWebhooks,
  maxDescriptionCharacters,
  redeliverEvent,
  rotateWebhookSecret,
  testWebhook,
  updateWebhook,
  webhookAttempts,
  webhookFormats,
  type WebhookAttemptRecord,
  type WebhookFormat,
  type WebhookRecord,
} from "../resolvers/webhooks";
import { attemptKinds, attemptOutcomes } from "../webhooks/attempts";

const WebhookFormatEnum = builder.enumType("WebhookFormat", {
  values: {
    standard: { value: "standard", description: "The event's JSON, signed as the Standard Webhooks specification says." },
    discord: { value: "discord", description: "Discord embeds: the duty log and wanted flags, and the types listed." },
  } satisfies Record<(typeof webhookFormats)[number], unknown>,
});

const WebhookAttemptType = builder.objectRef<WebhookAttemptRecord>("WebhookAttempt").implement({
  description: "One attempt of the delivery log (kept at least 7 days).",
  fields: (t) => ({
    id: t.exposeInt("id", { description: "0 when it was not logged: its webhook was deleted meanwhile." }),
    eventId: t.exposeString("eventId", { description: "The request's webhook-id: the (first) event's id." }),
    firstSequence: t.exposeInt("firstSequence", { nullable: true, description: "The first event carried; null: a test." }),
    lastSequence: t.exposeInt("lastSequence", { nullable: true, description: "The last event carried (a Discord message carries several)." }),
    attempt: t.exposeInt("attempt", { description: "The delivery's attempt of these events, from 1." }),
    attemptedAt: t.expose("attemptedAt", { type: "DateTime" }),
    status: t.exposeInt("status", { nullable: true, description: "The HTTP status answered; null: none (timeout, refused, no connection)." }),
    durationMs: t.exposeInt("durationMs"),
    error: t.exposeString("error", { nullable: true }),
    kind: t.exposeString("kind", { description: attemptKinds.join(", ") }),
    outcome: t.exposeString("outcome", { description: attemptOutcomes.join(", ") }),
  }),
});

const WebhookType = builder.objectRef<WebhookRecord>("Webhook").implement({
  description: "A webhook of the network: never its secret, which is shown once, when it is made or rotated.",
  fields: (t) => ({
    id: t.exposeInt("id"),
    url: t.exposeString("url"),
    description: t.exposeString("description"),
    types: t.exposeStringList("types", { description: "Type filter terms as in events (`vehicle.*`); empty: every type (Discord: the duty log and wanted flags)." }),
    format: t.field({ type: WebhookFormatEnum, resolve: (webhook) => webhook.format as WebhookFormat }),
    enabled: t.exposeBoolean("enabled"),
    disabledReason: t.exposeString("disabledReason", { nullable: true, description: "Why the service disabled it (410, five days of failures)." }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    deliveredThrough: t.exposeInt("deliveredThrough", { description: "The sequence of the last event handled." }),
    failedAttempts: t.exposeInt("failedAttempts", { description: "Failed attempts of the next event." }),
    attempts: t.field({
      type: [WebhookAttemptType],
      description: "Its delivery log, newest first.",
      complexity: (args) => ({ field: 1, multiplier: Math.min(Math.max(args.perPage ?? 10, 1), attemptsPerPageMax) }),
      args: { perPage: t.arg.int({ description: `1 to ${attemptsPerPageMax}, default 10.` }), before: t.arg.int({ description: "Attempts before this attempt's id." }) },
      resolve: (webhook, { perPage, before }, ctx) => webhookAttempts(ctx.db, ctx.network.id, webhook.id, { perPage: perPage ?? 10, before }),
    }),
  }),
});

const CreatedWebhookType = builder.objectRef<{ webhook: WebhookRecord; secret: string | null }>("CreatedWebhook").implement({
  fields: (t) => ({
    webhook: t.field({ type: WebhookType, resolve: (created) => created.webhook }),
    secret: t.exposeString("secret", { nullable: true, description: "whsec_…: shown this once (null for Discord, whose URL holds its own)." }),
  }),
});

const CreateWebhookInput = builder.inputType("CreateWebhookInput", {
  fields: (t) => ({
    url: t.string({ required: true, description: "https; private and loopback addresses are refused." }),
    format: t.field({ type: WebhookFormatEnum, description: "Default standard." }),
    types: t.stringList({ description: "Event types or families (`vehicle.*`); omitted: every type (Discord: the duty log and wanted flags)." }),
    description: t.string({ description: `Up to ${maxDescriptionCharacters} characters.` }),
  }),
});

const UpdateWebhookInput = builder.inputType("UpdateWebhookInput", {
  fields: (t) => ({
    url: t.string(),
    types: t.stringList(),
    description: t.string(),
    enabled: t.boolean({ description: "true enables it again, its failures forgiven, from where it stopped." }),
  }),
});

/** The webhook id a client sends, or not found. */
function webhookId(id: string | number): number {
  const parsed = parseStoredId(id);
  if (parsed === null) throw notFound("Webhook");
  return parsed;
}

builder.queryFields((t) => ({
  webhooks: t.field({
    type: [WebhookType],
    extensions: needs("admin"),
    description: "The network's webhooks, oldest first.",
    resolve: (_root, _args, ctx) => listWebhooks(ctx.db, ctx.network.id),
  }),
}));

builder.mutationFields((t) => ({
  createWebhook: t.field({
    type: CreatedWebhookType,
    extensions: needs("admin"),
    description: "Makes a webhook, which delivers the events from now on.",
    args: { input: t.arg({ type: CreateWebhookInput, required: true }) },
    resolve: (_root, { input }, ctx) => createWebhook(ctx, input),
  }),
  updateWebhook: t.field({
    type: WebhookType,
    extensions: needs("admin"),
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: UpdateWebhookInput, required: true }) },
    resolve: (_root, { id, input }, ctx) => updateWebhook(ctx, webhookId(id), input),
  }),
  deleteWebhook: t.field({
    type: WebhookType,
    extensions: needs("admin"),
    description: "Deletes the webhook and its delivery log.",
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, { id }, ctx) => deleteWebhook(ctx, webhookId(id)),
  }),
  rotateWebhookSecret: t.field({
    type: CreatedWebhookType,
    extensions: needs("admin"),
    description: "A new secret, shown this once; the previous one signs too for 24 hours.",
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, { id }, ctx) => rotateWebhookSecret(ctx, webhookId(id)),
  }),
  testWebhook: t.field({
    type: WebhookAttemptType,
    extensions: needs("admin"),
    description: "Sends a webhook.test event to this webhook alone, now (not recorded as an event).",
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, { id }, ctx) => testWebhook(ctx, webhookId(id)),
  }),
  redeliverWebhookEvent: t.field({
    type: WebhookAttemptType,
    extensions: needs("admin"),
    description: "Sends one retained event to this webhook again, now, with the same webhook-id.",
    args: { id: t.arg.id({ required: true }), sequence: t.arg.int({ required: true }) },
    resolve: (_root, { id, sequence }, ctx) => redeliverEvent(ctx, webhookId(id), sequence),
  }),
}));
