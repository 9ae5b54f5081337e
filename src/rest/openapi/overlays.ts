// What only the contract knows about each route, keyed by the route ("GET /vehicles"): its
// operationId, summary and description, its query parameters, its request body, its success
// response's description, schema and example, and the errors only it answers. The paths and
// their methods come from the route table (src/rest/routes.ts); the success status, the path
// parameters and the errors every route shares are added by ./paths.ts, which fails at load when
// a route has no overlay or an overlay no route. The paths the service answers besides the REST
// routes (GraphQL, health, the docs, the dashboard) are declared here alone, with their methods.
import { errorBody, graphqlContent, graphqlErrorBody, headerRef, responseRef, schemaRef } from "./refs";
import type { MediaType, Reference, Response } from "./types";
import { vehicleExample } from "./vehicle";

export interface Overlay {
  operationId: string;
  summary: string;
  description?: string;
  /** Query parameters, by component name; path parameters come from the path template. */
  parameters?: string[];
  /** The request body, by component name: exactly the routes that read a body have one. */
  requestBody?: string;
  /**
   * The success response; its status comes from the route's kind (200 on the public paths). Its
   * body: JSON of the component `schema`, or any media types in `content`; neither: no body.
   */
  success: { description: string; schema?: string; example?: unknown; content?: Record<string, MediaType> };
  /** Errors this route answers beyond the ones every route shares. */
  errors?: Record<string, Response | Reference>;
  /** Answers something without the key too (GraphiQL's page): the key is optional in its `security`. */
  keyOptional?: boolean;
}

const notFound = { "404": responseRef("NotFound") };
const invalid = { "422": responseRef("ValidationFailed") };

const vehicleResource = (description: string): Overlay["success"] => ({ description, schema: "VehicleResource", example: { data: vehicleExample } });

/** POST of a dutytime action. */
const dutytime = (action: "toggle" | "stop", summary: string, description: string): Overlay => ({
  operationId: `${action}Dutytime`,
  summary,
  description,
  requestBody: "Dutytime",
  success: {
    description: "The officer's state after the call.",
    schema: "DutytimeResponse",
    example:
      action === "toggle"
        ? { data: { identifier: "steam:110000112345678", onDuty: true, startedAt: "2026-11-21T22:10:00.000Z", stoppedEntries: 0 } }
        : { data: { identifier: "steam:110000112345678", onDuty: false, startedAt: null, stoppedEntries: 1 } },
  },
  errors: { ...notFound, ...invalid },
});

/** GET of one count statistic. */
const count = (operationId: string, summary: string, detail: string): Overlay => ({
  operationId,
  summary,
  description: `${detail} Only the key's network is counted.`,
  success: { description: "The count.", schema: "RecordCount", example: { count: 12, timestampAvailable: true } },
});

const sevenDays =
  "Counts records whose creation time is at or after the instant seven days before the request; " +
  "records with an unknown creation time are never counted here (even when `timestampAvailable` " +
  "is true). When creation times cannot be evaluated the answer is `count: null` with " +
  "`timestampAvailable: false` (null is not 0).";
const total =
  "Counts every record, including those with an unknown creation time; stays available when the " +
  "seven-day count cannot be evaluated.";

/** GET of records per day. */
const perDay = (operationId: string, summary: string, what: string): Overlay => ({
  operationId,
  summary,
  description:
    `${what}, counted per calendar day of the time zone (default: the network's) in [from, to). Records with an ` +
    "unknown creation time are in no day: `unknown` counts them. When creation times cannot be evaluated, `days` and " +
    "`unknown` are null with `timestampAvailable: false` (null is not 0).",
  success: {
    description: "The counts per day.",
    schema: "DailyCounts",
    example: {
      timeZone: "Europe/Berlin",
      timestampAvailable: true,
      days: [{ date: "2026-11-24", start: "2026-11-23T23:00:00.000Z", end: "2026-11-24T23:00:00.000Z", count: 5 }],
      unknown: 2,
    },
  },
  errors: invalid,
});

const officerExample = {
  id: 3,
  identifier: "steam:110000112345678",
  name: "Max Mustermann",
  createdAt: "2026-11-01T18:00:00.000Z",
  removedAt: null,
  onDuty: true,
  currentEntry: { id: 7, startedAt: "2026-11-21T22:10:00.000Z", endedAt: null, open: true, durationSeconds: 1800, autoStopped: false },
};

/** One overlay per route of restRouteTable. */
export const restOverlays: Record<string, Overlay> = {
  "GET /vehicles": {
    operationId: "listVehicles",
    summary: "List the network's vehicles, a page at a time",
    description:
      "Laravel-style page of the key's network's vehicles. Every parameter is optional; an out-of-range " +
      "or unknown value is a 422 (reported under the snake_case name).",
    parameters: ["Search", "SortField", "SortFieldAlias", "SortOrder", "SortOrderAlias", "Page", "PerPage", "PerPageAlias"],
    success: {
      description: "A page of vehicles.",
      schema: "VehiclePage",
      example: {
        data: [vehicleExample],
        links: {
          first: "https://records.example/vehicles?sort_field=plate&page=1",
          last: "https://records.example/vehicles?sort_field=plate&page=3",
          prev: "https://records.example/vehicles?sort_field=plate&page=1",
          next: "https://records.example/vehicles?sort_field=plate&page=3",
        },
        meta: {
          current_page: 2,
          from: 16,
          last_page: 3,
          path: "https://records.example/vehicles",
          per_page: 15,
          to: 30,
          total: 38,
        },
      },
    },
    errors: invalid,
  },
  "POST /vehicles": {
    operationId: "createVehicle",
    summary: "Create a vehicle",
    description: "Creates a vehicle in the key's network. `wanted` and `synced` default to false.",
    requestBody: "VehicleCreate",
    success: vehicleResource("Created."),
    errors: invalid,
  },
  "GET /vehicles/{vehicle}": {
    operationId: "getVehicle",
    summary: "Read a vehicle",
    success: vehicleResource("The vehicle."),
    errors: notFound,
  },
  "PUT /vehicles/{vehicle}": {
    operationId: "putVehicle",
    summary: "Update a vehicle (partial, like PATCH)",
    description: "Updates only the fields sent, exactly like PATCH; fields left out keep their values.",
    requestBody: "VehicleUpdate",
    success: vehicleResource("The updated vehicle."),
    errors: { ...notFound, ...invalid },
  },
  "PATCH /vehicles/{vehicle}": {
    operationId: "patchVehicle",
    summary: "Update some fields of a vehicle",
    description: "Updates only the fields sent; fields left out keep their values.",
    requestBody: "VehicleUpdate",
    success: vehicleResource("The updated vehicle."),
    errors: { ...notFound, ...invalid },
  },
  "DELETE /vehicles/{vehicle}": {
    operationId: "deleteVehicle",
    summary: "Delete a vehicle",
    success: { description: "Deleted; no body." },
    errors: notFound,
  },
  "POST /dutytime/{identifier}/toggle": dutytime(
    "toggle",
    "Switch an officer's duty state",
    "Starts dutytime when the officer is not on duty; otherwise stops the open entries. For clients " +
      "that intentionally switch. An officer never has two open entries, even under concurrent calls.",
  ),
  "POST /dutytime/{identifier}/stop": dutytime(
    "stop",
    "Stop an officer's dutytime",
    "Stops the officer's open entries. When the officer is not on duty the call still succeeds " +
      "(`stoppedEntries: 0`), so it is safe for retries and targeted stops.",
  ),
  "GET /statistics/active-users": {
    operationId: "getActiveUsers",
    summary: "Officers on duty now",
    description: "The key's network's officers with an open dutytime entry and when it started, earliest first.",
    success: {
      description: "Officers on duty.",
      schema: "ActiveUsers",
      example: {
        data: [{ identifier: "steam:110000112345678", name: "Max Mustermann", startedAt: "2026-11-21T22:10:00.000Z" }],
        count: 1,
      },
    },
  },
  "GET /statistics/missions/last-7-days": count("getMissionsLastSevenDays", "Mission reports of the last seven days", sevenDays),
  "GET /statistics/missions/total": count("getMissionsTotal", "All mission reports", total),
  "GET /statistics/files/last-7-days": count(
    "getFilesLastSevenDays",
    "Patient and offender files of the last seven days",
    `Patient files and offender files together. ${sevenDays}`,
  ),
  "GET /statistics/files/total": count("getFilesTotal", "All patient and offender files", `Patient files and offender files together. ${total}`),

  // Beside the specification's routes: dashboards' reads. Their query parameters and schemas
  // come from their GraphQL operations (./paths.ts, ./fromGraphQL.ts).
  "GET /officers": {
    operationId: "listOfficers",
    summary: "List the network's officers, a page at a time",
    description:
      "Laravel-style page of the key's network's officers (removed ones not), by name, each with whether it is on duty " +
      "and its open entry. An out-of-range or unknown value is a 422 (reported under the snake_case name).",
    success: {
      description: "A page of officers.",
      schema: "OfficerPage",
      example: {
        data: [officerExample],
        links: { first: "https://records.example/officers?page=1", last: "https://records.example/officers?page=1", prev: null, next: null },
        meta: { current_page: 1, from: 1, last_page: 1, path: "https://records.example/officers", per_page: 15, to: 1, total: 1 },
      },
    },
    errors: invalid,
  },
  "GET /officers/{identifier}": {
    operationId: "getOfficer",
    summary: "Read an officer",
    description: "One officer of the key's network, a removed one too (`removedAt` set).",
    success: { description: "The officer.", schema: "OfficerResource", example: { data: officerExample } },
    errors: { ...notFound, ...invalid },
  },
  "GET /officers/{identifier}/dutytime": {
    operationId: "listOfficerDutytime",
    summary: "An officer's dutytime entries, newest first",
    description: "Laravel-style page of the officer's entries that meet [from, to) (either bound optional). An open entry's duration counts up to now.",
    success: {
      description: "A page of dutytime entries.",
      schema: "DutytimeEntryPage",
      example: {
        data: [{ id: 7, startedAt: "2026-11-21T22:10:00.000Z", endedAt: "2026-11-22T01:40:00.000Z", open: false, durationSeconds: 12600, autoStopped: false }],
        links: {
          first: "https://records.example/officers/steam%3A110000112345678/dutytime?page=1",
          last: "https://records.example/officers/steam%3A110000112345678/dutytime?page=1",
          prev: null,
          next: null,
        },
        meta: { current_page: 1, from: 1, last_page: 1, path: "https://records.example/officers/steam%3A110000112345678/dutytime", per_page: 15, to: 1, total: 1 },
      },
    },
    errors: { ...notFound, ...invalid },
  },
  "GET /events": {
    operationId: "listEvents",
    summary: "The audit log: the network's events, newest first",
    description:
      "Every committed change of the key's network's data, with who made it (a key, the admin command, or the service's " +
      "auto-stop rule), recorded in the change's transaction. Filters: `type` (comma-separated; `vehicle.*` names a family), " +
      "`subject_type` and `subject_id`, `key_id`, `from` (inclusive) and `to` (exclusive) instants, `after` and `before` " +
      "(sequences, exclusive). Laravel's cursor pages: follow `links.next` for older events.",
    success: {
      description: "A page of events.",
      schema: "EventCursorPage",
      example: {
        data: [
          {
            id: "evt_1_42",
            sequence: 42,
            type: "vehicle.updated",
            occurredAt: "2026-11-21T22:10:00.000Z",
            actor: { kind: "key", keyId: 3, keyName: "game server" },
            subject: { type: "vehicle", id: "4711" },
            data: { changes: { wanted: { from: false, to: true } } },
          },
        ],
        links: { prev: null, next: "https://records.example/events?cursor=eyJzZXF1ZW5jZSI6NDIsIl9wb2ludHNUb05leHRJdGVtcyI6dHJ1ZX0" },
        meta: { path: "https://records.example/events", per_page: 50, prev_cursor: null, next_cursor: "eyJzZXF1ZW5jZSI6NDIsIl9wb2ludHNUb05leHRJdGVtcyI6dHJ1ZX0" },
      },
    },
    errors: invalid,
  },
  "GET /statistics/duty-hours": {
    operationId: "getDutyHours",
    summary: "Hours on duty per officer and day, week or month",
    description:
      "Seconds on duty in [from, to) per officer and calendar period of the time zone (default: the network's; weeks start " +
      "on Monday), split at the periods' local boundaries (a daylight-saving day has 23 or 25 hours). Open entries count up " +
      "to now; overlapping entries of one officer count once; removed officers' hours stay (`removed: true`).",
    success: {
      description: "The report.",
      schema: "DutyHoursReport",
      example: {
        from: "2026-11-23T00:00:00.000Z",
        to: "2026-11-25T00:00:00.000Z",
        groupBy: "DAY",
        timeZone: "UTC",
        buckets: [
          { label: "2026-11-23", start: "2026-11-23T00:00:00.000Z", end: "2026-11-24T00:00:00.000Z", seconds: 14400 },
          { label: "2026-11-24", start: "2026-11-24T00:00:00.000Z", end: "2026-11-25T00:00:00.000Z", seconds: 3600 },
        ],
        officers: [
          {
            identifier: "steam:110000112345678",
            name: "Max Mustermann",
            removed: false,
            seconds: [14400, 3600],
            totalSeconds: 18000,
            shifts: 2,
            averageShiftSeconds: 9000,
            longestShiftSeconds: 14400,
          },
        ],
      },
    },
    errors: invalid,
  },
  "GET /statistics/missions/per-day": perDay("getMissionsPerDay", "Mission reports per day", "Mission reports"),
  "GET /statistics/files/per-day": perDay("getFilesPerDay", "Patient and offender files per day", "Patient files and offender files together"),
};

/**
 * A path the service answers besides the REST routes: GraphQL (src/server/app.ts), and the
 * endpoints that need no key (src/server/publicEndpoints.ts, src/server/docs.ts,
 * src/dashboard/serve.ts). Its methods are the keys of `operations`, HEAD wherever GET is; every
 * other method answers 405 (./paths.ts adds those operations).
 */
export interface PublicPath {
  tag: string;
  operations: Partial<Record<"GET" | "POST", Overlay>>;
  /** Needs the API key (401, 429, 503): /graphql only. Else no key and no rate limit. */
  authenticated?: boolean;
  /** The shape of its errors: the contract's `{"message"}`, or GraphQL's `{"errors"}` (/graphql). */
  errorShape: "contract" | "graphql";
  /** Answered to every method, served or not, before the method is looked at (an unknown file). */
  anyMethod?: Record<string, Response | Reference>;
}

const text = { schema: { type: "string" } };
const page = (description: string): Overlay["success"] => ({ description, content: { "text/html": text } });

/** /graphql's 200: the result in the media type the Accept header asks for; GraphiQL's page on GET. */
const graphqlResult = (graphiql: boolean): Overlay["success"] => ({
  description:
    "The operation's result: `data`, and `errors` for what failed (an operation's own errors, such as NOT_FOUND or " +
    "BAD_USER_INPUT, answer 200 with `errors`; so does, as `application/json`, a document that does not parse or " +
    "validate). With `Accept: text/event-stream` or `multipart/mixed` the result comes as one event or part." +
    (graphiql ? " To a browser (`Accept` naming `text/html`): GraphiQL's page, without key." : ""),
  content: {
    ...graphqlContent(schemaRef("GraphQLResponse"), { data: { vehicles: { data: [{ id: 42, plate: "LSPD-1042" }], meta: { total: 38 } } } }),
    "text/event-stream": text,
    "multipart/mixed": text,
    ...(graphiql && { "text/html": text }),
  },
});

export const publicPaths: Record<string, PublicPath> = {
  "/graphql": {
    tag: "GraphQL",
    authenticated: true,
    errorShape: "graphql",
    operations: {
      GET: {
        operationId: "graphqlQuery",
        summary: "Run a GraphQL query (in a browser: GraphiQL)",
        description:
          "GraphQL over HTTP, the request in the query string: queries only. The schema is GraphQL's own (schema.graphql, " +
          "or GraphiQL's Docs), not described here. A browser's request (`Accept` naming `text/html`) gets GraphiQL's page " +
          "instead, which needs no key.",
        parameters: ["GraphQLQuery", "GraphQLVariables", "GraphQLOperationName", "GraphQLExtensions"],
        keyOptional: true,
        success: graphqlResult(true),
        errors: {
          "400": responseRef("GraphQLBadRequest"),
          "405": {
            description: "A mutation sent with GET: Yoga answers 405 with `Allow: POST`.",
            headers: { Allow: headerRef("Allow") },
            content: graphqlErrorBody("Can only perform a mutation operation from a POST request.", "BAD_REQUEST"),
          },
          "406": responseRef("NotAcceptable"),
        },
      },
      POST: {
        operationId: "graphqlOperation",
        summary: "Run a GraphQL operation",
        description:
          "GraphQL over HTTP, the request in the body: queries and mutations. The schema is GraphQL's own (schema.graphql, " +
          "or GraphiQL's Docs at GET /graphql), not described here.",
        requestBody: "GraphQLRequest",
        success: graphqlResult(false),
        errors: { "406": responseRef("NotAcceptable") },
      },
    },
  },
  "/healthz": {
    tag: "Health",
    errorShape: "contract",
    operations: {
      GET: {
        operationId: "healthz",
        summary: "Liveness",
        description: "Answers 200 while the process runs. No API key needed.",
        success: { description: "The process is up.", schema: "Health", example: { status: "ok" } },
      },
    },
  },
  "/readyz": {
    tag: "Health",
    errorShape: "contract",
    operations: {
      GET: {
        operationId: "readyz",
        summary: "Readiness",
        description: "200 when the database is reachable, else 503. No API key needed.",
        success: { description: "The database is reachable.", schema: "Health", example: { status: "ready" } },
        errors: { "503": { description: "The database is unreachable.", content: errorBody("The database is unreachable.") } },
      },
    },
  },
  "/openapi.json": {
    tag: "Documentation",
    errorShape: "contract",
    operations: {
      GET: {
        operationId: "getOpenApiDocument",
        summary: "This document",
        description: "This OpenAPI 3.1 document, browsable at /docs. No API key needed.",
        success: { description: "The document.", schema: "OpenApiDocument" },
      },
    },
  },
  "/docs": {
    tag: "Documentation",
    errorShape: "contract",
    operations: {
      GET: {
        operationId: "getDocs",
        summary: "This document in Swagger UI",
        description: "Swagger UI's page on /openapi.json, with all its files served from here (it works offline). No API key needed.",
        success: page("Swagger UI's page."),
      },
    },
  },
  "/docs/assets/{file}": {
    tag: "Documentation",
    errorShape: "contract",
    anyMethod: { "404": responseRef("FileNotFound") },
    operations: {
      GET: {
        operationId: "getDocsFile",
        summary: "A file of Swagger UI's page",
        description: "The scripts, stylesheets and icons /docs links to. No API key needed.",
        success: { description: "The file.", content: { "text/javascript": text, "text/css": text, "image/png": {} } },
      },
    },
  },
  "/dashboard": {
    tag: "Dashboard",
    errorShape: "contract",
    operations: {
      GET: {
        operationId: "getDashboard",
        summary: "The dashboard page",
        description:
          "A page of the network's duty hours, officers and counts; it asks for the API key and sends it with each GraphQL " +
          "operation, the only thing it calls. The page itself needs no key.",
        success: page("The dashboard's page."),
      },
    },
  },
  "/dashboard/assets/{file}": {
    tag: "Dashboard",
    errorShape: "contract",
    anyMethod: { "404": responseRef("FileNotFound") },
    operations: {
      GET: {
        operationId: "getDashboardFile",
        summary: "A file of the dashboard page",
        description: "The script and the stylesheet /dashboard links to. No API key needed.",
        success: { description: "The file.", content: { "text/javascript": text, "text/css": text } },
      },
    },
  },
};
