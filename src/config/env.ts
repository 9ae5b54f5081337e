// The service's settings, read once from the environment.
import { databaseUrl, dataDir, defaultPoolSettings, listenerSettingSpecs, type ListenerSettings, type PoolSettings } from "./database";
import { limitSpecs, type LimitName, type Limits } from "./limits";
import { readWebhookSettings, type WebhookSettings } from "./webhooks";
import { readLogSettings, readMetricsSettings, type LogSettings, type MetricsSettings } from "./observability";
import { readTrustedProxies, type TrustedProxies } from "./proxies";

export interface Settings {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string;
  rateLimitPerMinute: number;
  pool: PoolSettings;
  listener: ListenerSettings;
  limits: Limits;
  log: LogSettings;
  metrics: MetricsSettings;
  trustedProxies: TrustedProxies;
  webhooks: WebhookSettings;
}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const text = env[name];
  if (text === undefined || text === "") return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new Error(`${name} must be an integer from ${min} to ${max}, got "${text}".`);
  }
  return value;
}

function listenerSettings(env: NodeJS.ProcessEnv): ListenerSettings {
  const { pingIntervalMs: ping, timeoutMs: timeout } = listenerSettingSpecs;
  const settings = {
    pingIntervalMs: integer(env, ping.env, ping.default, 1, 3_600_000),
    timeoutMs: integer(env, timeout.env, timeout.default, 1, 3_600_000),
  };
  // Between two round trips nothing is confirmed: the timeout must leave room for the next answer.
  if (settings.pingIntervalMs >= settings.timeoutMs) throw new Error(`${ping.env} must be less than ${timeout.env}.`);
  return settings;
}

export function readSettings(env: NodeJS.ProcessEnv = process.env): Settings {
  return {
    port: integer(env, "PORT", 4000, 0, 65535),
    host: env.HOST || "127.0.0.1",
    dataDir: dataDir(env),
    databaseUrl: databaseUrl(env),
    rateLimitPerMinute: integer(env, "RATE_LIMIT_PER_MINUTE", 0, 0, 1_000_000_000),
    limits: Object.fromEntries(
      (Object.entries(limitSpecs) as [LimitName, (typeof limitSpecs)[LimitName]][]).map(([name, spec]) => [
        name,
        integer(env, spec.env, spec.default, 1, 1_000_000_000),
      ]),
    ) as Limits,
    pool: {
      size: integer(env, "DATABASE_POOL_SIZE", defaultPoolSettings.size, 1, 1000),
      statementTimeoutMs: integer(env, "DATABASE_STATEMENT_TIMEOUT_MS", defaultPoolSettings.statementTimeoutMs, 0, 3_600_000),
      connectTimeoutMs: integer(env, "DATABASE_CONNECT_TIMEOUT_MS", defaultPoolSettings.connectTimeoutMs, 1, 600_000),
    },
    listener: listenerSettings(env),
    log: readLogSettings(env),
    metrics: readMetricsSettings(env),
    trustedProxies: readTrustedProxies(env),
    webhooks: readWebhookSettings(env),
  };
}
