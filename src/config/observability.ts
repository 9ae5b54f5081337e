// The settings of the request log and the metrics listener, declared once: environment variable,
// default as the README's configuration table shows it, and meaning. The settings reader
// (./env.ts) and the README's table (a test compares them: test/requestLog.test.ts) take them from
// here, as the limits' do from ./limits.ts.

/** pino's levels, and `silent` for none. */
export const logLevels = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
export type LogLevel = (typeof logLevels)[number];

export const logFormats = ["json", "pretty"] as const;
export type LogFormat = (typeof logFormats)[number];

export const observabilitySpecs = {
  logLevel: {
    env: "LOG_LEVEL",
    shown: "`info`",
    meaning: "`info`: a line per request; `warn` (answers `5xx`), `error`, `fatal`: fewer, the start and stop lines stay; `debug`, `trace`; `silent`: none",
  },
  logFormat: {
    env: "LOG_FORMAT",
    shown: "`json`",
    meaning: "`json`: one JSON line per event on stdout; `pretty`: readable lines for a terminal (needs the dev dependency `pino-pretty`)",
  },
  metricsPort: {
    env: "METRICS_PORT",
    shown: "unset (off)",
    meaning: "port of a listener of its own serving Prometheus metrics at `/metrics`",
  },
  metricsHost: {
    env: "METRICS_HOST",
    shown: "`127.0.0.1`",
    meaning: "interface of the metrics listener (not the public one unless set so)",
  },
} as const;

export interface LogSettings {
  level: LogLevel;
  format: LogFormat;
}

export interface MetricsSettings {
  /** null: no metrics listener, and no metrics counted. */
  port: number | null;
  host: string;
}

export const defaultLogSettings: LogSettings = { level: "info", format: "json" };
export const defaultMetricsHost = "127.0.0.1";

function oneOf<Value extends string>(env: NodeJS.ProcessEnv, name: string, values: readonly Value[], fallback: Value): Value {
  const text = env[name];
  if (text === undefined || text === "") return fallback;
  if (!(values as readonly string[]).includes(text)) throw new Error(`${name} must be one of ${values.join(", ")}, got "${text}".`);
  return text as Value;
}

export function readLogSettings(env: NodeJS.ProcessEnv): LogSettings {
  return {
    level: oneOf(env, observabilitySpecs.logLevel.env, logLevels, defaultLogSettings.level),
    format: oneOf(env, observabilitySpecs.logFormat.env, logFormats, defaultLogSettings.format),
  };
}

export function readMetricsSettings(env: NodeJS.ProcessEnv): MetricsSettings {
  const name = observabilitySpecs.metricsPort.env;
  const text = env[name];
  let port: number | null = null;
  if (text !== undefined && text !== "") {
    port = Number(text);
    // 0: a free port, which the start line names (tests use it).
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`${name} must be an integer from 0 to 65535, got "${text}".`);
  }
  return { port, host: env[observabilitySpecs.metricsHost.env] || defaultMetricsHost };
}
