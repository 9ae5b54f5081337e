// The admin command's `webhook` commands (the contract's "Webhooks"): the rules are GraphQL's own
// (src/resolvers/webhooks.ts), run with the operator's standing. A webhook is named by its id
// alone (`--webhook`): its network is looked up. Secrets are printed only when made or rotated.
import type { Database } from "../db/client";
import type { WebhookAttemptRecord, WebhookRecord } from "../db/store";
import { operatorKey } from "../context";
import { AdminError } from "./adminError";
import {
  createWebhook,
  deleteWebhook,
  listWebhooks,
  redeliverEvent,
  rotateWebhookSecret,
  testWebhook,
  updateWebhook,
  webhookAttempts,
  type WebhookInput,
  type WebhookScope,
  type WebhookServices,
} from "../resolvers/webhooks";

/** A webhook as the admin command prints it: instants as ISO text, never its secret. */
const webhookView = (webhook: WebhookRecord) => ({ ...webhook, createdAt: webhook.createdAt.toISOString() });
const attemptView = (attempt: WebhookAttemptRecord) => ({ ...attempt, attemptedAt: attempt.attemptedAt.toISOString() });

const scopeOf = (db: Database, networkId: number, now: Date, webhooks: WebhookServices): WebhookScope => ({
  db,
  network: { id: networkId },
  key: operatorKey,
  now: () => now,
  webhooks,
});

async function networkOfWebhook(db: Database, id: number): Promise<number> {
  const webhook = await db.prisma.webhook.findUnique({ where: { id }, select: { networkId: true } });
  if (!webhook) throw new AdminError(`No webhook with id ${id}.`);
  return webhook.networkId;
}

async function existingNetwork(db: Database, networkId: number): Promise<number> {
  if (!(await db.prisma.network.findUnique({ where: { id: networkId }, select: { id: true } }))) throw new AdminError(`No network with id ${networkId}.`);
  return networkId;
}

export async function addWebhook(db: Database, networkId: number, input: WebhookInput, now: Date, services: WebhookServices) {
  const { webhook, secret } = await createWebhook(scopeOf(db, await existingNetwork(db, networkId), now, services), input);
  return { webhook: webhookView(webhook), secret };
}

export async function listNetworkWebhooks(db: Database, networkId: number) {
  return { webhooks: (await listWebhooks(db, await existingNetwork(db, networkId))).map(webhookView) };
}

/** One of the commands that name a webhook by its id. */
export async function onWebhook(
  db: Database,
  id: number,
  command: "remove" | "rotate-secret" | "enable" | "disable" | "deliveries" | "test" | "redeliver",
  now: Date,
  services: WebhookServices,
  extra: { before?: number; perPage?: number; sequence?: number } = {},
) {
  const networkId = await networkOfWebhook(db, id);
  const scope = scopeOf(db, networkId, now, services);
  switch (command) {
    case "remove":
      return { webhook: webhookView(await deleteWebhook(scope, id)) };
    case "rotate-secret": {
      const { webhook, secret } = await rotateWebhookSecret(scope, id);
      return { webhook: webhookView(webhook), secret };
    }
    case "enable":
    case "disable":
      return { webhook: webhookView(await updateWebhook(scope, id, { enabled: command === "enable" })) };
    case "deliveries":
      return { attempts: (await webhookAttempts(db, networkId, id, { before: extra.before, perPage: extra.perPage })).map(attemptView) };
    case "test":
      return { attempt: attemptView(await testWebhook(scope, id)) };
    case "redeliver":
      return { attempt: attemptView(await redeliverEvent(scope, id, extra.sequence!)) };
  }
}
