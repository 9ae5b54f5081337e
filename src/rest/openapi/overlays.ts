// What only the contract knows about each route, keyed by the route ("GET /vehicles"): its
// operationId, summary and description, its query parameters, its request body, its success
// response's description, schema and example, and the errors only it answers. The paths and
// their methods come from the route table (src/rest/routes.ts); the success status, the path
// parameters and the errors every route shares are added by ./paths.ts, which fails at load when
// a route has no overlay or an overlay no route.
import { errorBody, responseRef } from "./refs";
import type { Reference, Response } from "./types";
import { vehicleExample } from "./vehicle";

export interface Overlay {
  operationId: string;
  summary: string;
  description?: string;
  /** Query parameters, by component name; path parameters come from the path template. */
  parameters?: string[];
  /** The request body, by component name: exactly the routes that read a body have one. */
  requestBody?: string;
  /** The success response; its status comes from the route's kind. No schema: no body. */
  success: { description: string; schema?: string; example?: unknown };
  /** Errors this route answers beyond the ones every route shares. */
  errors?: Record<string, Response | Reference>;
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
 * The public endpoints the document describes (src/server/publicEndpoints.ts): health checks,
 * without key or rate limit. They are not REST routes, so their key is their only declaration here.
 */
export const publicOverlays: Record<string, Overlay> = {
  "GET /healthz": {
    operationId: "healthz",
    summary: "Liveness",
    description: "Answers 200 while the process runs. No API key needed.",
    success: { description: "The process is up.", schema: "Health", example: { status: "ok" } },
  },
  "GET /readyz": {
    operationId: "readyz",
    summary: "Readiness",
    description: "200 when the database is reachable, else 503. No API key needed.",
    success: { description: "The database is reachable.", schema: "Health", example: { status: "ready" } },
    errors: { "503": { description: "The database is unreachable.", content: errorBody("The database is unreachable.") } },
  },
};
