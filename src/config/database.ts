import path from "node:path";

/** Where the embedded database lives when DATABASE_URL does not name another. */
export function dataDir(env: NodeJS.ProcessEnv): string {
  return path.resolve(env.DATA_DIR || "data");
}

/** DATABASE_URL, or the embedded SQLite file in DATA_DIR. */
export function databaseUrl(env: NodeJS.ProcessEnv): string {
  return env.DATABASE_URL || `file:${path.join(dataDir(env), "service.db")}`;
}

export type DatabaseProvider = "sqlite" | "postgresql";

export function providerOf(url: string): DatabaseProvider {
  if (url.startsWith("file:")) return "sqlite";
  if (/^postgres(ql)?:\/\//.test(url)) return "postgresql";
  throw new Error("DATABASE_URL must start with file: (SQLite) or postgresql:// (PostgreSQL).");
}

/** Connection settings of the PostgreSQL pool (ignored on SQLite). */
export interface PoolSettings {
  /** Connections per service process. */
  size: number;
  /** A statement running longer is cancelled (ms). */
  statementTimeoutMs: number;
  /** Waiting longer for a connection fails the request with 503 (ms). */
  connectTimeoutMs: number;
}

export const defaultPoolSettings: PoolSettings = { size: 10, statementTimeoutMs: 10_000, connectTimeoutMs: 5_000 };

/**
 * How the PostgreSQL connection that listens for notifications (src/db/postgres/listener.ts) is
 * checked for life, declared once: the settings reader and the README's table take them from here.
 */
export const listenerSettingSpecs = {
  pingIntervalMs: {
    env: "DATABASE_LISTEN_PING_INTERVAL_MS",
    default: 1_000,
    meaning: "PostgreSQL: the connection that listens for key changes is asked a round trip this often (less than `DATABASE_LISTEN_TIMEOUT_MS`)",
  },
  timeoutMs: {
    env: "DATABASE_LISTEN_TIMEOUT_MS",
    default: 3_000,
    meaning:
      "PostgreSQL: a key change is seen by every process within this, even when the listening connection dies without a word: past it without an answer, keys are looked up on every request and the connection is replaced",
  },
} as const;

export type ListenerSettings = Record<keyof typeof listenerSettingSpecs, number>;

export const defaultListenerSettings: ListenerSettings = {
  pingIntervalMs: listenerSettingSpecs.pingIntervalMs.default,
  timeoutMs: listenerSettingSpecs.timeoutMs.default,
};
