// The component schemas other than the vehicle's (./vehicle.ts): the list's page envelope, the
// list's query values, dutytime, statistics, errors and health, the document itself, and
// GraphQL over HTTP.
import { vehicleSortFields } from "../../model/vehicleFields";
import { perPageDefault, perPageMax } from "../../resolvers/pages";
import { schemaRef } from "./refs";
import type { Schema } from "./types";
import { vehicleSchemas } from "./vehicle";
import { addObjectSchemas } from "./fromGraphQL";
import { schema } from "../../schema";
import { restView } from "../sofa";

/** The GraphQL schema as REST answers it (src/rest/sofa.ts). */
export const restSchema = restView(schema);

/** The objects the routes beside the specification's answer, from their GraphQL types (./fromGraphQL.ts). */
const generated: Record<string, Schema> = {};
for (const name of ["Officer", "DutytimeEntry", "DutyHoursReport", "DailyCounts", "Event"]) addObjectSchemas(restSchema, name, generated);

/** Laravel's page envelope around items of the schema `item`. */
const laravelPage = (item: string, what: string): Schema => ({
  type: "object",
  description: `A page of ${what}, in Laravel's paginator envelope.`,
  required: ["data", "links", "meta"],
  properties: {
    data: { type: "array", items: schemaRef(item) },
    links: schemaRef("PageLinks"),
    meta: schemaRef("PageMeta"),
  },
  additionalProperties: false,
});

export const schemas: Record<string, Schema> = {
  ...vehicleSchemas,
  ...generated,
  OfficerPage: laravelPage("Officer", "officers"),
  DutytimeEntryPage: laravelPage("DutytimeEntry", "dutytime entries"),
  EventCursorPage: {
    type: "object",
    description: "A page of events, newest first, in Laravel's cursor paginator envelope.",
    required: ["data", "links", "meta"],
    properties: {
      data: { type: "array", items: schemaRef("Event") },
      links: {
        type: "object",
        description: "Absolute URLs of the newer (prev) and older (next) page; they keep the request's other query parameters and set `cursor`.",
        required: ["prev", "next"],
        properties: { prev: { type: ["string", "null"], format: "uri" }, next: { type: ["string", "null"], format: "uri" } },
        additionalProperties: false,
      },
      meta: {
        type: "object",
        required: ["path", "per_page", "prev_cursor", "next_cursor"],
        properties: {
          path: { type: "string", format: "uri" },
          per_page: { type: "integer" },
          prev_cursor: { type: ["string", "null"] },
          next_cursor: { type: ["string", "null"] },
        },
        additionalProperties: false,
      },
    },
    additionalProperties: false,
  },
  OfficerResource: {
    type: "object",
    required: ["data"],
    properties: { data: schemaRef("Officer") },
    additionalProperties: false,
  },

  // --- lists: Laravel paginator envelope
  PageLinks: {
    type: "object",
    description:
      "Absolute URLs of other pages. They keep the request's other query parameters and only change `page`.",
    required: ["first", "last", "prev", "next"],
    properties: {
      first: { type: "string", format: "uri" },
      last: { type: "string", format: "uri" },
      prev: {
        type: ["string", "null"],
        format: "uri",
        description: "null on page 1; past the end it points to the last page.",
      },
      next: { type: ["string", "null"], format: "uri", description: "null on the last page and past the end." },
    },
    additionalProperties: false,
  },
  PageMeta: {
    type: "object",
    required: ["current_page", "from", "last_page", "path", "per_page", "to", "total"],
    properties: {
      current_page: { type: "integer", minimum: 1 },
      from: { type: ["integer", "null"], minimum: 1, description: "Position of the page's first item; null when the page is empty." },
      last_page: { type: "integer", minimum: 1, description: "At least 1, also when the list is empty." },
      path: { type: "string", format: "uri", description: "The list's URL without query string." },
      per_page: { type: "integer", minimum: 1, maximum: perPageMax },
      to: { type: ["integer", "null"], minimum: 1, description: "Position of the page's last item; null when the page is empty." },
      total: { type: "integer", minimum: 0, description: "Items of the list (matching its search and filters), on all pages." },
    },
    additionalProperties: false,
  },
  VehiclePage: laravelPage("Vehicle", "vehicles"),

  // --- GET /vehicles query values, shared by a parameter and its alias
  SortField: { type: "string", enum: vehicleSortFields },
  SortOrder: { type: "string", enum: ["asc", "desc"], default: "asc" },
  PerPage: { type: "integer", minimum: 1, maximum: perPageMax, default: perPageDefault },

  // --- dutytime
  DutytimeStatus: {
    type: "object",
    description: "The officer's duty state after the call.",
    required: ["identifier", "onDuty", "startedAt", "stoppedEntries"],
    properties: {
      identifier: { type: "string", description: "The officer's identifier (decoded), `type:value`." },
      onDuty: { type: "boolean", description: "State after the call." },
      startedAt: {
        type: ["string", "null"],
        format: "date-time",
        description: "Start of the open dutytime entry; null when not on duty.",
      },
      stoppedEntries: { type: "integer", minimum: 0, description: "How many open entries this call closed." },
    },
    additionalProperties: false,
  },
  DutytimeResponse: {
    type: "object",
    required: ["data"],
    properties: { data: schemaRef("DutytimeStatus") },
    additionalProperties: false,
  },
  IgnoredBody: {
    type: "object",
    description: "An empty JSON object; any fields are ignored.",
    additionalProperties: true,
  },

  // --- statistics
  ActiveUser: {
    type: "object",
    required: ["identifier", "name", "startedAt"],
    properties: {
      identifier: { type: "string", description: "The officer's identifier, `type:value`." },
      name: { type: "string" },
      startedAt: { type: "string", format: "date-time", description: "Start of the open dutytime entry." },
    },
    additionalProperties: false,
  },
  ActiveUsers: {
    type: "object",
    required: ["data", "count"],
    properties: {
      data: { type: "array", items: schemaRef("ActiveUser"), description: "Ordered by startedAt, earliest first." },
      count: { type: "integer", minimum: 0, description: "Number of entries in data." },
    },
    additionalProperties: false,
  },
  RecordCount: {
    type: "object",
    description:
      "`count` is null, with `timestampAvailable` false, when creation times cannot be evaluated " +
      "(SPEC 4.2 rule 4; seven-day endpoints only). **null means unknown and must not be read as 0.** " +
      "The /total endpoints always answer an integer and `timestampAvailable: true`.",
    required: ["count", "timestampAvailable"],
    properties: {
      count: { type: ["integer", "null"], minimum: 0 },
      timestampAvailable: { type: "boolean" },
    },
    additionalProperties: false,
  },

  // --- errors and health
  Error: {
    type: "object",
    required: ["message"],
    properties: { message: { type: "string" } },
    additionalProperties: false,
  },
  ValidationError: {
    type: "object",
    required: ["message", "errors"],
    properties: {
      message: { type: "string", description: "The first message, plus how many more follow (Laravel's summary)." },
      errors: {
        type: "object",
        description: "Messages per field, keyed by the name the client uses (request field, snake_case query parameter, `identifier`).",
        additionalProperties: { type: "array", items: { type: "string" }, minItems: 1 },
      },
    },
    additionalProperties: false,
  },
  Health: {
    type: "object",
    required: ["status"],
    properties: { status: { type: "string", enum: ["ok", "ready"] } },
    additionalProperties: false,
  },

  // --- the document itself, and GraphQL over HTTP at /graphql (its schema is GraphQL's: schema.graphql)
  OpenApiDocument: {
    type: "object",
    description: "This document: OpenAPI 3.1.",
    required: ["openapi", "info", "paths"],
    properties: { openapi: { type: "string", const: "3.1.0" }, info: { type: "object" }, paths: { type: "object" } },
  },
  GraphQLRequest: {
    type: "object",
    description: "A GraphQL request (GraphQL over HTTP). One operation per request: a JSON array (a batch) is refused with 400.",
    required: ["query"],
    properties: {
      query: { type: "string", description: "The GraphQL document." },
      variables: { type: ["object", "null"], description: "The operation's variables." },
      operationName: { type: ["string", "null"], description: "Which operation of the document to run, when it has several." },
      extensions: { type: ["object", "null"] },
    },
  },
  GraphQLError: {
    type: "object",
    required: ["message"],
    properties: {
      message: { type: "string" },
      locations: {
        type: "array",
        items: { type: "object", required: ["line", "column"], properties: { line: { type: "integer" }, column: { type: "integer" } } },
      },
      path: { type: "array", items: { type: ["string", "integer"] } },
      extensions: {
        type: "object",
        description:
          "`code`: the service's error codes (UNAUTHENTICATED, NOT_FOUND, BAD_USER_INPUT, CONFLICT, RATE_LIMITED, UNAVAILABLE, " +
          "METHOD_NOT_ALLOWED) or Yoga's (BAD_REQUEST, GRAPHQL_PARSE_FAILED, GRAPHQL_VALIDATION_FAILED); a refusal by a " +
          "limit names it in `limit` and its maximum in `max`.",
        properties: { code: { type: "string" } },
      },
    },
  },
  GraphQLResponse: {
    type: "object",
    description: "A GraphQL response: `data` when the operation ran, `errors` when something failed (both when part of it did).",
    properties: {
      data: { type: ["object", "null"] },
      errors: { type: "array", items: schemaRef("GraphQLError"), minItems: 1 },
      extensions: { type: "object" },
    },
  },
  GraphQLErrors: {
    type: "object",
    description: "A GraphQL response of a request refused before any operation ran: errors only.",
    required: ["errors"],
    properties: { errors: { type: "array", items: schemaRef("GraphQLError"), minItems: 1 } },
    additionalProperties: false,
  },
};
