// The settings of webhook delivery (the contract's "Webhooks"), declared once: environment
// variable, default as the README's configuration table shows it, and meaning. The settings reader
// (./env.ts) and the README's table (a test compares them) take them from here.
import type { LookupFunction } from "node:net";

/** Name resolution of every address of a host (dns.promises.lookup with all: true); tests stub it. */
export type LookupAll = (host: string) => Promise<{ address: string; family: number }[]>;

export const webhookSpecs = {
  retrySchedule: {
    env: "WEBHOOK_RETRY_SCHEDULE",
    shown: "`5,300,1800,7200,18000,36000,36000`",
    meaning: "seconds from a failed attempt to the next, comma-separated; after the last one the event is given up (and can be redelivered)",
  },
  timeout: {
    env: "WEBHOOK_TIMEOUT_MS",
    shown: "`10000`",
    meaning: "milliseconds an attempt may take, from connecting to the end of the answer",
  },
  allowedHosts: {
    env: "WEBHOOK_ALLOWED_HOSTS",
    shown: "empty",
    meaning: "host names, comma-separated, that webhooks may reach although their addresses are private or loopback (private deployments, tests); `http` is allowed to them too",
  },
} as const;

export interface WebhookSettings {
  /** Milliseconds from the n-th failed attempt to the next; after the last, the event is given up. */
  retryScheduleMs: readonly number[];
  timeoutMs: number;
  allowedHosts: readonly string[];
  /** Name resolution: tests stub it for addresses they must not contact. */
  lookup?: LookupFunction;
  /** Name resolution when a webhook is saved (tests stub it too). */
  lookupAll?: LookupAll;
  /** Longest an attempt's outcome waits for the attempts in flight, to commit with theirs (default: src/webhooks/delivery.ts's settleWaitMs; tests lengthen it). */
  settleWaitMs?: number;
}

export const defaultRetryScheduleSeconds = [5, 300, 1800, 7200, 18000, 36000, 36000];

export const defaultWebhookSettings: WebhookSettings = {
  retryScheduleMs: defaultRetryScheduleSeconds.map((seconds) => seconds * 1000),
  timeoutMs: 10_000,
  allowedHosts: [],
};

/** Longest single wait of the schedule: a day. */
const maxRetrySeconds = 86_400;

function retrySchedule(text: string | undefined): readonly number[] {
  if (text === undefined || text === "") return defaultWebhookSettings.retryScheduleMs;
  const steps = text.split(",").map((step) => Number(step.trim()));
  if (steps.length > 20 || steps.some((step) => !Number.isFinite(step) || step < 0 || step > maxRetrySeconds)) {
    throw new Error(
      `${webhookSpecs.retrySchedule.env} must be up to 20 numbers of seconds from 0 to ${maxRetrySeconds}, comma-separated, got "${text}".`,
    );
  }
  return steps.map((seconds) => Math.round(seconds * 1000));
}

/** WEBHOOK_ALLOWED_HOSTS: host names, comma-separated, lowercase; an IPv6 address with or without brackets. */
export function allowedHostsOf(text: string | undefined): readonly string[] {
  return (text ?? "")
    .split(",")
    .map((entry) => entry.trim().toLowerCase().replace(/^\[(.*)\]$/, "$1"))
    .filter((entry) => entry !== "");
}

function timeoutMs(text: string | undefined): number {
  if (text === undefined || text === "") return defaultWebhookSettings.timeoutMs;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 100 || value > 120_000) {
    throw new Error(`${webhookSpecs.timeout.env} must be an integer from 100 to 120000, got "${text}".`);
  }
  return value;
}

export function readWebhookSettings(env: NodeJS.ProcessEnv): WebhookSettings {
  return {
    retryScheduleMs: retrySchedule(env[webhookSpecs.retrySchedule.env]),
    timeoutMs: timeoutMs(env[webhookSpecs.timeout.env]),
    allowedHosts: allowedHostsOf(env[webhookSpecs.allowedHosts.env]),
  };
}
