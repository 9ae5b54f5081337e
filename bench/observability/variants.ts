// The ways the observability bench runs the service, each as `npm start` runs it with some
// variables added: the report's columns, in this order. The twin is the unobserved service
// again: what it differs from the first shows the bench's own noise (the machine, the order of
// slices, where each process lands), against which observed/unobserved is read.

export interface Variant {
  env: NodeJS.ProcessEnv;
  /** What the service does per request with these variables, for the report. */
  meaning: string;
}

// warn, not silent: a 2xx answer's log.info is pino's no-op at both, and warn keeps the start
// line the bench waits for. An empty METRICS_PORT is unset (one in the bench's own environment
// would otherwise pass on).
const unobservedEnv = { LOG_LEVEL: "warn", METRICS_PORT: "" };

export const variants = {
  observed: {
    env: { LOG_LEVEL: "info", LOG_FORMAT: "json", METRICS_PORT: "0" },
    meaning: "a JSON line per request on stdout (read and dropped by the bench), Prometheus metrics counted (served on a free port)",
  },
  unobserved: {
    env: unobservedEnv,
    meaning: "no line for a 2xx answer, no metrics",
  },
  twin: {
    env: unobservedEnv,
    meaning: "a second unobserved service, measured the same way: twin/unobserved is the bench's own noise",
  },
} as const satisfies Record<string, Variant>;

export type VariantName = keyof typeof variants;

export const variantNames = Object.keys(variants) as VariantName[];

/** `LOG_LEVEL=warn, METRICS_PORT unset`: a variant's variables as the report names them. */
export const variablesOf = (name: VariantName) =>
  Object.entries(variants[name].env)
    .map(([variable, value]) => (value === "" ? `${variable} unset` : `${variable}=${value}`))
    .join(", ");
