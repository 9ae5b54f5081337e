// Every limit that protects the service from hostile or careless clients, declared once: its
// environment variable, default and meaning. The settings reader, the README's table (a test
// compares them) and the code that enforces each limit all take it from here.
//
// The defaults are chosen so that no game-server connector or dashboard query meets them:
// every query in the README and GraphiQL's introspection pass with room to spare, and a page
// of 100 vehicles with all their fields costs ~1,400 of the 5,000 a GraphQL operation may cost.

/**
 * The cost of a write (each root field of a mutation), in the units of GRAPHQL_MAX_COST: a write
 * holds the database (on SQLite, the whole process) about as long as reading a few hundred fields.
 */
export const writeCost = 400;

/**
 * The cost of a report (dutyHours, missionsPerDay, filesPerDay) per month of its range (31 days or
 * part of them): it reads every entry or hour of its range and splits them in JavaScript, about as
 * much work per month as a write. A year's report is twelve months' work, and holds its rows in
 * memory while it is counted: so that one key holds only a few such reports at once
 * (KEY_MAX_COST_IN_FLIGHT: two year reports, so that on PostgreSQL one's query runs in the
 * database while the process counts the other), its cost follows its range, up to `maxReportCost`.
 */
export const reportCostPerMonth = 400;
/** The most a report costs, so that any report fits in the default GRAPHQL_MAX_COST with room for its fields. */
export const maxReportCost = 4_000;

const dayMs = 86_400_000;

/** A report's cost for the range [from, to) (to: now when not given); a month's when the range cannot be read. */
export function reportCost({ from, to }: { from?: unknown; to?: unknown }, now = Date.now()): number {
  const start = from instanceof Date ? from.getTime() : NaN;
  const end = to instanceof Date ? to.getTime() : to === null || to === undefined ? now : NaN;
  const months = Math.ceil((end - start) / (31 * dayMs));
  if (!Number.isFinite(months) || months < 1) return reportCostPerMonth;
  return Math.min(maxReportCost, months * reportCostPerMonth);
}

/** A report field's `complexity` option: Pothos passes (args, ctx, field), of which the cost reads the args only. */
export const reportComplexity = (args: { from?: unknown; to?: unknown }) => reportCost(args);

export const limitSpecs = {
  graphqlMaxDocumentLength: {
    env: "GRAPHQL_MAX_DOCUMENT_LENGTH",
    default: 20_000,
    meaning: "characters of a GraphQL document (the `query` text)",
  },
  graphqlMaxTokens: { env: "GRAPHQL_MAX_TOKENS", default: 1_000, meaning: "tokens of a GraphQL document (names, punctuation, values)" },
  graphqlMaxDepth: { env: "GRAPHQL_MAX_DEPTH", default: 10, meaning: "nesting of selections (introspection fields not counted)" },
  graphqlMaxAliases: { env: "GRAPHQL_MAX_ALIASES", default: 15, meaning: "aliases in a GraphQL document" },
  graphqlMaxDirectives: { env: "GRAPHQL_MAX_DIRECTIVES", default: 50, meaning: "directives in a GraphQL document" },
  graphqlMaxRootFields: {
    env: "GRAPHQL_MAX_ROOT_FIELDS",
    // Writes on SQLite hold the whole process: five per request keep another network's wait
    // for one request of them short (bench/results/abuse-sqlite.md).
    default: 5,
    meaning: "root fields of a mutation (e.g. `createVehicle` calls in one request)",
  },
  graphqlMaxCost: {
    env: "GRAPHQL_MAX_COST",
    default: 5_000,
    meaning: `cost of an operation: 1 per field, the fields of a page's items once per \`perPage\`, of other lists 10 times, ${writeCost} per write, ${reportCostPerMonth} per month (31 days) of a report's range, at most ${maxReportCost.toLocaleString("en-US")}`,
  },
  keyMaxOperationsInFlight: {
    env: "KEY_MAX_OPERATIONS_IN_FLIGHT",
    default: 32,
    meaning: "operations (REST or GraphQL) of one network's key running at once; more wait in line",
  },
  keyMaxCostInFlight: {
    env: "KEY_MAX_COST_IN_FLIGHT",
    default: 10_000,
    meaning: "cost of one key's operations running at once (two of the costliest allowed); more wait in line",
  },
  keyMaxQueued: {
    env: "KEY_MAX_QUEUED",
    default: 64,
    meaning: "operations of one key waiting in line; beyond it: `429` with `Retry-After`",
  },
  operationTimeoutMs: {
    env: "OPERATION_TIMEOUT_MS",
    default: 10_000,
    meaning: "an operation waiting or running longer answers `503`",
  },
  maxBodyBytesInFlight: {
    env: "MAX_BODY_BYTES_IN_FLIGHT",
    default: 64 * 1024 * 1024,
    meaning: "bytes of admitted requests' bodies being read at once; beyond it: `503` with `Retry-After`",
  },
  httpHeadersTimeoutMs: { env: "HTTP_HEADERS_TIMEOUT_MS", default: 10_000, meaning: "time to receive a request's headers; then `408`" },
  httpRequestTimeoutMs: {
    env: "HTTP_REQUEST_TIMEOUT_MS",
    default: 30_000,
    meaning: "time to receive a whole request, body included; then `408`",
  },
  httpKeepAliveTimeoutMs: {
    env: "HTTP_KEEP_ALIVE_TIMEOUT_MS",
    default: 65_000,
    meaning: "an idle connection is closed after this (longer than the 60 s of common load balancers)",
  },
  httpMaxConnections: { env: "HTTP_MAX_CONNECTIONS", default: 1_000, meaning: "open connections; more are refused" },
  keyMaxSubscriptions: {
    env: "KEY_MAX_SUBSCRIPTIONS",
    default: 20,
    meaning: "live subscriptions (SSE or WebSocket) of one key in one process; more: `429`",
  },
  maxSubscriptions: {
    env: "MAX_SUBSCRIPTIONS",
    default: 5_000,
    meaning: "live subscriptions of all keys in one process (each holds a connection: see HTTP_MAX_CONNECTIONS); more: `429`",
  },
  subscriptionMaxQueued: {
    env: "SUBSCRIPTION_MAX_QUEUED",
    default: 1_000,
    meaning: "events waiting to be sent to one subscriber that reads too slowly; beyond it the subscription ends with its last sequence sent, to be resumed with `after`",
  },
  subscriptionHeartbeatMs: {
    env: "SUBSCRIPTION_HEARTBEAT_MS",
    default: 15_000,
    meaning: "a subscription's heartbeat: an SSE comment, a WebSocket ping",
  },
} as const;

/** Bytes of a request body; over it: 413. No valid body comes near it (the longest field holds 5,000 characters). */
export const maxBodyBytes = 1024 * 1024;

/** Levels of nesting of a JSON body; deeper: 400. No valid body has more than three. */
export const maxJsonDepth = 64;

/** After a refusal, the rest of an upload is read and dropped, up to this much and this long, so the client sees the answer. */
export const discardAfterRefusal = { bytes: 16 * 1024 * 1024, ms: 10_000 };

export type LimitName = keyof typeof limitSpecs;
export type Limits = Record<LimitName, number>;

export const defaultLimits: Limits = Object.fromEntries(
  Object.entries(limitSpecs).map(([name, spec]) => [name, spec.default]),
) as Limits;
