// The service's settings, read once from the environment.
import { databaseUrl, dataDir } from "./database";

export interface Settings {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string;
  rateLimitPerMinute: number;
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

export function readSettings(env: NodeJS.ProcessEnv = process.env): Settings {
  return {
    port: integer(env, "PORT", 4000, 0, 65535),
    host: env.HOST || "127.0.0.1",
    dataDir: dataDir(env),
    databaseUrl: databaseUrl(env),
    rateLimitPerMinute: integer(env, "RATE_LIMIT_PER_MINUTE", 0, 0, 1_000_000_000),
  };
}
