// The GraphQL endpoint (graphql-yoga) with GraphiQL served from npm, so it works offline.
import { Response } from "@whatwg-node/fetch";
import { createYoga, maskError as yogaMaskError, type Plugin, type YogaServerOptions } from "graphql-yoga";
import type { renderGraphiQL as RenderGraphiQL } from "@graphql-yoga/render-graphiql";
import { GraphQLError, type ExecutionResult, type GraphQLSchema } from "graphql";
import type { Context, KeyScope, NetworkScope } from "../context";
import type { Database } from "../db/client";
import { logInternalError, originalErrorOf } from "../publicError";
import { isDatabaseUnavailable } from "../db/databaseErrors";
import { ErrorCode, unavailable } from "../errors";
import type { Execute } from "./guardedExecute";
import type { Subscribe } from "./guardedSubscribe";
import type { EventFeed } from "../events/feed";
import type { WebhookServices } from "../resolvers/webhooks";
import { eventStreamsWithIds } from "./eventStream";
import type { OperationLimitsCheck } from "./operationLimits";
import type { ObservedContext, RequestRecord } from "./observability/requestRecord";

/**
 * An error as a client may see it, over HTTP (Yoga's masked errors) and WebSocket alike: domain
 * errors pass as they are, with their path; the database away is UNAVAILABLE; anything else is
 * logged and answered "Unexpected error.".
 */
export function maskedError(error: unknown, message = "Unexpected error."): Error {
  if (isDatabaseUnavailable(originalErrorOf(error))) return unavailable();
  const masked = yogaMaskError(error, message, false);
  if (masked !== error) logInternalError(error);
  return masked;
}

/** Set by the app once the request's API key has been checked. */
export type ServerContext = {
  network: NetworkScope;
  key: KeyScope;
  /** A reconnecting SSE subscriber's Last-Event-ID (src/server/app.ts). */
  lastEventId?: number;
  /**
   * The result of this very request's operation, run already as a known query
   * (src/server/knownQueries.ts): Yoga answers it without running the operation again.
   */
  executed?: ExecutionResult;
  /** The request's record: the guarded execute function notes the operation in it (src/server/guardedExecute.ts). */
  requestRecord?: RequestRecord;
};

const exampleQuery = `# Put your network's API key into the Headers tab below:
#   {"X-API-Key": "vrd_..."}
query FirstPage {
  network { name identifierType }
  vehicles(perPage: 5, sortField: plate) {
    data { id plate carType owner generalInspection wanted wantedReason }
    meta { currentPage lastPage total }
  }
  activeUsers { count data { identifier name startedAt } }
}
`;

/**
 * Variables that do not fit their types: a GraphQL error of the request, without a code. Under
 * application/graphql-response+json such a request error answers 400 (the GraphQL-over-HTTP
 * spec's rule; Yoga's `spec` flag), under application/json 200 as before.
 */
const isVariableError = (error: GraphQLError) =>
  !error.extensions?.code && !error.path && error.message.startsWith("Variable \"$");

/** Gives variable errors the contract's BAD_USER_INPUT code, like every other input error. */
const codeVariableErrors: Plugin = {
  onExecute: () => ({
    onExecuteDone({ result, setResult }) {
      if (!("errors" in result) || !result.errors?.some(isVariableError)) return;
      setResult({
        ...result,
        errors: result.errors.map((error) =>
          isVariableError(error)
            ? new GraphQLError(error.message, {
                nodes: error.nodes,
                extensions: { ...error.extensions, code: ErrorCode.BAD_USER_INPUT, http: { status: 400, spec: true } },
              })
            : error,
        ),
      });
    },
  }),
};

/**
 * GraphiQL's page is a bundle of several megabytes that costs tens of megabytes of memory once
 * loaded (figures: docs/performance.md): it is loaded when a browser first asks for it, not by
 * every service process at start.
 */
const renderGraphiqlOnDemand: typeof RenderGraphiQL = (options) => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { renderGraphiQL } = require("@graphql-yoga/render-graphiql") as { renderGraphiQL: typeof RenderGraphiQL };
  return renderGraphiQL(options);
};

/**
 * GraphiQL introspects the schema once, with the headers it starts with: before a key is typed
 * into the Headers tab that fails, and Docs says "Error fetching schema" until the page is
 * reloaded. This script, added to the page, presses GraphiQL's own "Re-fetch GraphQL schema"
 * button whenever the active tab's headers change, as GraphiQL stores them (shouldPersistHeaders:
 * its tabs in localStorage). Both are GraphiQL's page as a user sees it, not its code:
 * test/graphiql.test.ts types a key in chromium and fails when either moves.
 */
const refetchSchemaOnNewHeaders = `<script>
(function () {
  var seen = null;
  function activeHeaders() {
    try {
      var state = JSON.parse(localStorage.getItem("graphiql:tabState") || "null");
      return state ? String(state.tabs[state.activeTabIndex].headers) : null;
    } catch (error) {
      return null;
    }
  }
  setInterval(function () {
    var headers = activeHeaders();
    if (headers === seen) return;
    var first = seen === null;
    seen = headers;
    var button = document.querySelector('[aria-label^="Re-fetch GraphQL schema"]');
    if (!first && button) button.click();
  }, 500);
})();
</script>`;

/** GraphiQL's page (renderGraphiqlOnDemand) with the script above before its end. */
function graphiqlPage(html: string): string {
  const end = html.lastIndexOf("</body>");
  return end === -1 ? html + refetchSchemaOnNewHeaders : html.slice(0, end) + refetchSchemaOnNewHeaders + html.slice(end);
}

/**
 * Documents parsed within the limits, and operations run by the guarded execute function of
 * every path (src/server/guardedExecute.ts).
 */
const limitedOperations = (limits: OperationLimitsCheck, execute: Execute, subscribe: Subscribe): Plugin => ({
  onSubscribe: ({ setSubscribeFn }) => setSubscribeFn(subscribe as Parameters<typeof setSubscribeFn>[0]),
  onParse: ({ setParseFn }) => setParseFn((source) => limits.parse(typeof source === "string" ? source : source.body)),
  onExecute: ({ args, setExecuteFn }) => {
    // Yoga puts the server context's fields into the operation's context. The result is handed
    // over as the execute function's, not by stopping execution, so the plugins after this one
    // (masked errors) still see it.
    const executed = (args.contextValue as Partial<ServerContext>).executed;
    setExecuteFn((executed ? () => executed : execute) as Parameters<typeof setExecuteFn>[0]);
  },
});

/** Work a plugin leaves running after the response (none of ours does): errors are logged. */
const leaveRunning = (work: unknown) => void Promise.resolve(work).catch(logInternalError);

const graphiqlOptions = {
  title: "Vehicle Records and Duty Time",
  defaultQuery: exampleQuery,
  headers: JSON.stringify({ "X-API-Key": "" }),
  shouldPersistHeaders: true,
};

/**
 * Yoga (createYoga: its server inside a fetch server adapter), called by the app's own HTTP
 * handling for the GraphQL requests the app does not answer itself (src/server/knownQueries.ts).
 * The app routes /graphql, answers health checks itself, and renders GraphiQL below. There is
 * no CORS: operations need the X-API-Key header, which no cross-origin preflight gets past, and
 * GraphiQL is served from the same origin.
 */
export function createGraphqlServer(
  schema: GraphQLSchema,
  db: Database,
  now: () => Date,
  limits: OperationLimitsCheck,
  execute: Execute,
  subscriptions: { subscribe: Subscribe; feed: EventFeed; heartbeatMs: number },
  webhooks?: WebhookServices,
) {
  const { feed } = subscriptions;
  const contextOf = ({ network, key, requestRecord, lastEventId }: ServerContext): ObservedContext => ({
    db,
    network,
    key,
    now,
    requestRecord,
    feed,
    lastEventId,
    webhooks,
  });
  const options: YogaServerOptions<ServerContext, Context> = {
    schema,
    graphqlEndpoint: "/graphql",
    landingPage: false,
    cors: false,
    graphiql: false,
    // The app refuses bodies over 1 MiB before Yoga sees them (src/server/app.ts), and Yoga's
    // own limit would pipe every body through a web TransformStream.
    maxRequestBodySize: false,
    logging: false,
    plugins: [limitedOperations(limits, execute, subscriptions.subscribe), codeVariableErrors, eventStreamsWithIds(subscriptions.heartbeatMs)],
    // Yoga would keep up to 1,000 parsed documents of any size, whoever sent them; the documents
    // worth keeping are the known queries' (src/server/knownQueries.ts), bounded by length.
    parserAndValidationCache: false,
    context: contextOf,
    maskedErrors: { isDev: false, maskError: (error, message) => maskedError(error, message) },
  };
  const yoga = createYoga<ServerContext, Context>(options);
  return {
    /** The context of a network's operations for this request, as Yoga builds it. */
    contextOf: (network: NetworkScope, key: KeyScope, requestRecord?: RequestRecord): Context => contextOf({ network, key, requestRecord }),
    /** Runs the GraphQL request (GET or POST) of a network. */
    handle: (request: Request, context: ServerContext): Promise<Response> =>
      Promise.resolve(yoga.fetch(request, { ...context, waitUntil: leaveRunning } as ServerContext)),
    /** GraphiQL's page, for a browser that asks /graphql for HTML. */
    graphiql: async (): Promise<Response> =>
      new Response(graphiqlPage(await renderGraphiqlOnDemand({ ...graphiqlOptions, endpoint: "/graphql" })), {
        headers: { "Content-Type": "text/html; charset=utf-8" },
      }),
  };
}
