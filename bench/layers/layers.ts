// The layers of the service a request passes through, and which source files (and, for the few
// files that hold two layers, which functions) make up each: the one declaration the cost table
// of bench/layers/ attributes CPU samples by (./attribute.ts). test/benchLayers.test.ts fails when
// a file under src/ belongs to no layer, or a layer names a file that does not exist.

export const layerNames = [
  "HTTP (node's server: parse, write)",
  "routing (app, REST routes, variables)",
  "admission (API key, rate limit, CORS)",
  "scope check",
  "limits (bodies, documents, costs, deadlines)",
  "fairness (per-key queue)",
  "execution (GraphQL, resolvers)",
  "database (stores, SQL, driver)",
  "event write",
  "serialization (JSON of the answer)",
  "request log",
  "metrics",
  "webhooks",
  "garbage collection (main thread)",
  "other (V8, native, unattributed)",
] as const;

export type LayerName = (typeof layerNames)[number];

interface LayerFiles {
  layer: LayerName;
  /** Source paths from the repository root; a path ending in "/" holds every file under it. */
  files: string[];
  /** Packages whose frames count here when no project frame is above them (a callback from the event loop). */
  packages?: string[];
}

/** Source that never runs in the service process: the admin command, the dashboard page's browser code. */
export const notInTheService = ["src/admin/", "src/dashboard/page/"];

/** Each project file's layer; the first entry naming a file (or the longest folder) wins. */
export const layerFiles: LayerFiles[] = [
  {
    layer: "HTTP (node's server: parse, write)",
    files: ["src/server/httpServer.ts", "src/server/nodeRequests.ts", "src/server/sendResponse.ts", "src/server/forwardedScheme.ts", "src/main.ts"],
  },
  {
    layer: "routing (app, REST routes, variables)",
    files: [
      "src/server/app.ts",
      "src/server/answer.ts",
      "src/server/fetchIncoming.ts",
      "src/server/publicEndpoints.ts",
      "src/server/docs.ts",
      "src/rest/",
      "src/dashboard/pageFiles.ts",
      "src/dashboard/serve.ts",
    ],
    packages: ["sofa-api", "fets", "@graphql-tools/utils"],
  },
  {
    layer: "admission (API key, rate limit, CORS)",
    files: [
      "src/resolvers/admittedKeys.ts",
      "src/resolvers/apiKeys.ts",
      "src/db/apiKeys.ts",
      "src/db/keyChanges.ts",
      "src/db/postgres/keyChanges.ts",
      "src/model/keyValidity.ts",
      "src/server/rateLimit.ts",
      "src/server/cors.ts",
    ],
  },
  { layer: "scope check", files: ["src/server/operationScopes.ts", "src/schema/scopes.ts", "src/model/scopes.ts"] },
  {
    layer: "limits (bodies, documents, costs, deadlines)",
    files: [
      "src/server/operationLimits.ts",
      "src/server/knownQueries.ts",
      "src/server/deadlines.ts",
      "src/server/requestBodies.ts",
      "src/server/lengthBoundedCache.ts",
      "src/rest/incoming.ts",
      "src/rest/requestBody.ts",
      "src/config/limits.ts",
    ],
    packages: ["@escape.tech/graphql-armor-max-aliases", "@escape.tech/graphql-armor-max-depth", "@escape.tech/graphql-armor-max-directives"],
  },
  { layer: "fairness (per-key queue)", files: ["src/server/keyFairness.ts"] },
  {
    layer: "execution (GraphQL, resolvers)",
    files: [
      "src/server/guardedExecute.ts",
      "src/server/guardedSubscribe.ts",
      "src/server/compiledExecute.ts",
      "src/server/leafListSchema.ts",
      "src/server/graphql.ts",
      "src/server/eventStream.ts",
      "src/server/webSocket.ts",
      "src/server/graphqlWsTypes.d.ts",
      "src/schema/",
      "src/resolvers/",
      "src/model/",
      "src/context.ts",
      "src/errors.ts",
      "src/publicError.ts",
      "src/generated/",
    ],
    packages: ["graphql", "graphql-jit", "graphql-yoga", "@graphql-yoga", "@envelop", "@whatwg-node", "@pothos", "dataloader", "luxon", "graphql-ws"],
  },
  {
    layer: "database (stores, SQL, driver)",
    files: ["src/db/", "src/config/database.ts", "src/config/cacheCounts.ts"],
    packages: ["pg", "pg-protocol", "pg-pool", "pg-types", "postgres-array", "postgres-date", "libsql", "@libsql", "@prisma", "prisma"],
  },
  { layer: "event write", files: ["src/events/", "src/db/events.ts", "src/db/eventNotices.ts"] },
  { layer: "serialization (JSON of the answer)", files: ["src/rest/responses.ts", "src/rest/laravelPage.ts"] },
  {
    layer: "request log",
    files: [
      "src/server/observability/requestLog.ts",
      "src/server/observability/requestRecord.ts",
      "src/server/observability/requestObserver.ts",
      "src/server/observability/requestId.ts",
      "src/server/observability/clientAddress.ts",
      "src/server/observability/sourceStack.ts",
      "src/server/observability/webhookAttemptLog.ts",
      "src/config/observability.ts",
      "src/config/proxies.ts",
      "src/config/env.ts",
    ],
    packages: ["pino", "sonic-boom", "thread-stream", "pino-std-serializers", "on-exit-leak-free"],
  },
  {
    layer: "metrics",
    files: [
      "src/server/observability/metrics.ts",
      "src/server/observability/requestSeries.ts",
      "src/server/observability/metricsServer.ts",
      "src/server/observability/webhookMetrics.ts",
    ],
    packages: ["prom-client", "tdigest", "bintrees"],
  },
  {
    layer: "webhooks",
    files: ["src/webhooks/", "src/db/webhooks.ts", "src/config/webhooks.ts"],
    packages: ["standardwebhooks", "request-filtering-agent", "ipaddr.js"],
  },
];

/**
 * Functions of a file of one layer that do another's work: the app's admission lives in app.ts
 * beside its routing; the functions that turn an executed result into the answer's JSON text
 * (JSON.stringify, a built-in, has no frame of its own in the profile: its time is its caller's).
 */
export const layerFunctions: { file: string; functions: string[]; layer: LayerName }[] = [
  { file: "src/server/app.ts", functions: ["admit", "refuse"], layer: "admission (API key, rate limit, CORS)" },
  { file: "src/rest/sofa.ts", functions: ["run"], layer: "serialization (JSON of the answer)" },
  { file: "src/server/knownQueries.ts", functions: ["answer"], layer: "serialization (JSON of the answer)" },
];

/** The project file's layer, or null (a file under none: the test fails on it). */
export function layerOfFile(file: string, functionName = ""): LayerName | null {
  for (const entry of layerFunctions) if (entry.file === file && entry.functions.includes(functionName)) return entry.layer;
  let best: { layer: LayerName; length: number } | null = null;
  for (const { layer, files } of layerFiles) {
    for (const path of files) {
      const matches = path.endsWith("/") ? file.startsWith(path) : file === path;
      // An exact file beats any folder; a longer folder beats a shorter one.
      const length = path.endsWith("/") ? path.length : Number.MAX_SAFE_INTEGER;
      if (matches && (!best || length > best.length)) best = { layer, length };
    }
  }
  return best?.layer ?? null;
}

/** The layer of a package's frames when no project frame is above them. */
export function layerOfPackage(name: string): LayerName | null {
  for (const { layer, packages = [] } of layerFiles) if (packages.includes(name)) return layer;
  return null;
}
