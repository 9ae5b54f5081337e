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
