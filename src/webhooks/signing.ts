// Signatures of the Standard Webhooks specification, made by its own library (`standardwebhooks`):
// `webhook-id`, `webhook-timestamp` (Unix seconds) and `webhook-signature` (`v1,<base64 HMAC-SHA256
// of "<id>.<timestamp>.<body>">`). After a rotation the previous secret signs too, for a day
// (CONTRACT): receivers verify with either, space-separated in the one header.
import crypto from "node:crypto";
import { Webhook } from "standardwebhooks";

/** How long a rotated secret goes on signing (CONTRACT: 24 h). */
export const previousSecretSignsMs = 24 * 3_600_000;

/** A new secret: `whsec_` and the base64 of 32 random bytes (the contract asks 24 or more). */
export const newWebhookSecret = () => `whsec_${crypto.randomBytes(32).toString("base64")}`;

/** The secrets that sign now: the current one, and the previous one while it still signs. */
export function signingSecrets(webhook: { secret: string; previousSecret: string | null; previousSecretUntilMs: number | null }, nowMs: number): string[] {
  const previous = webhook.previousSecret !== null && webhook.previousSecretUntilMs !== null && webhook.previousSecretUntilMs > nowMs;
  return previous ? [webhook.secret, webhook.previousSecret!] : [webhook.secret];
}

/** The headers of a signed message. `at`: the attempt's own instant (receivers compare it with their clock). */
export function signedHeaders(messageId: string, body: string, secrets: readonly string[], at: Date): Record<string, string> {
  return {
    "webhook-id": messageId,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": secrets.map((secret) => new Webhook(secret).sign(messageId, at, body)).join(" "),
  };
}
