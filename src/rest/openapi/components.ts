// The shared components other than schemas: security schemes, parameters, request bodies,
// headers and responses. Operations reference them (./paths.ts, ./overlays.ts).
import { errorBody, graphqlErrorBody, headerRef, jsonContent, schemaRef } from "./refs";
import type { Header, Parameter, RequestBody, Response, Schema } from "./types";
import { vehicleRequestExample } from "./vehicle";
import { searchableFieldNames } from "../../model/vehicleFields";
import { perPageMax } from "../../resolvers/pages";
import { searchMaxLength } from "../../resolvers/vehicles";
import { identifierMaxLength } from "../../resolvers/officers";
import { parameterNamesOf } from "../queryParameters";
import { bodyTooLargeMessage } from "../requestBody";
import { graphqlScopesText, scopesWithMeanings } from "./scopes";
import { corsAllowedHeaders, corsMaxAgeSeconds } from "../corsHeaders";

/** What a key may do, and from which pages: the same whichever way it is sent. */
const keyPowers =
  `\n\nA key has scopes:\n${scopesWithMeanings()}\n\n` +
  "Each REST operation names the scope it needs (its security requirement and `x-scopes`); a GraphQL operation needs " +
  "those of its root fields (listed in /graphql's 403). A key without them gets 403 and nothing runs.\n\n" +
  "A key may list origins: then a request whose `Origin` header is none of them gets 403, and one that is gets " +
  "`Access-Control-Allow-Origin` and `Vary: Origin`. A key without origins gets no CORS headers: no page of another " +
  "origin can read its answers.";

export const securitySchemes: Record<string, Schema> = {
  ApiKeyHeader: {
    type: "apiKey",
    in: "header",
    name: "X-API-Key",
    description: `One of the network's API keys. Missing or invalid: 401.${keyPowers}`,
  },
  BearerAuth: {
    type: "http",
    scheme: "bearer",
    description: `The same API key as \`Authorization: Bearer <key>\`. If X-API-Key is sent too, both must be equal.${keyPowers}`,
  },
};


// The REST names of the list's arguments and their aliases (src/rest/queryParameters.ts).
const [sortField, sortFieldAlias] = parameterNamesOf("sortField");
const [sortOrder, sortOrderAlias] = parameterNamesOf("sortOrder");
const [perPage, perPageAlias] = parameterNamesOf("perPage");

export const parameters: Record<string, Parameter> = {
  Vehicle: {
    name: "vehicle",
    in: "path",
    required: true,
    description:
      "The vehicle's `id`. A segment that is not a positive integer, or the id of a vehicle of " +
      "another network, answers 404.",
    schema: { type: "integer", minimum: 1 },
    example: 42,
  },
  Identifier: {
    name: "identifier",
    in: "path",
    required: true,
    description:
      "The officer's identifier `type:value`, URL-encoded (a `/` in the value as `%2F`). The type " +
      `must be the network's configured identifier type; at most ${identifierMaxLength} characters. Otherwise 422 ` +
      "with `errors.identifier`. No such officer in the key's network: 404.",
    schema: { type: "string", maxLength: identifierMaxLength, pattern: "^[^:]+:.*\\S.*$" },
    example: "steam:110000112345678",
  },
  Search: {
    name: "search",
    in: "query",
    description:
      `Case-insensitive substring match (every alphabet, umlauts included) over ${searchableFieldNames("request")}; ` +
      `\`%\`, \`_\` and \`\\\` match literally (no wildcards). Empty: no filter. At most ${searchMaxLength} characters.`,
    schema: { type: "string", maxLength: searchMaxLength },
  },
  SortField: {
    name: sortField,
    in: "query",
    description:
      "Sort by this field (`tuv` sorts by the inspection date). Ties are broken by `id` in the sort " +
      "direction; nulls sort last in both orders. Without it the order is `id` ascending.",
    schema: schemaRef("SortField"),
  },
  SortFieldAlias: {
    name: sortFieldAlias,
    in: "query",
    description: `Alias of \`${sortField}\`; ignored when \`${sortField}\` is sent.`,
    schema: schemaRef("SortField"),
  },
  SortOrder: {
    name: sortOrder,
    in: "query",
    description: `Direction for \`${sortField}\` (no effect without it).`,
    schema: schemaRef("SortOrder"),
  },
  SortOrderAlias: {
    name: sortOrderAlias,
    in: "query",
    description: `Alias of \`${sortOrder}\`; ignored when \`${sortOrder}\` is sent.`,
    schema: schemaRef("SortOrder"),
  },
  Page: {
    name: "page",
    in: "query",
    description: "1-based page number. A page past the end answers 200 with empty `data`.",
    schema: { type: "integer", minimum: 1, default: 1 },
  },
  PerPage: {
    name: perPage,
    in: "query",
    description: `Vehicles per page, 1 to ${perPageMax}.`,
    schema: schemaRef("PerPage"),
  },
  PerPageAlias: {
    name: perPageAlias,
    in: "query",
    description: `Alias of \`${perPage}\`; ignored when \`${perPage}\` is sent.`,
    schema: schemaRef("PerPage"),
  },
  File: {
    name: "file",
    in: "path",
    required: true,
    description:
      "A file the page links to (its scripts, stylesheets and icons). Any other name answers 404, to every method: " +
      "the file is looked up before the method.",
    schema: { type: "string" },
  },

  // GraphQL over HTTP, GET: the request in the query string (Yoga parses it).
  GraphQLQuery: {
    name: "query",
    in: "query",
    description: "The GraphQL document: a query (a mutation sent with GET answers 405 with `Allow: POST`). Left out: 200 with an error.",
    schema: { type: "string" },
    example: "{ vehicles(perPage: 5) { data { id plate } meta { total } } }",
  },
  GraphQLVariables: {
    name: "variables",
    in: "query",
    description: "The operation's variables, a JSON object as text. Not JSON, or not an object: 400.",
    schema: { type: "string" },
  },
  GraphQLOperationName: {
    name: "operationName",
    in: "query",
    description: "Which operation of the document to run, when it has several.",
    schema: { type: "string" },
  },
  GraphQLExtensions: {
    name: "extensions",
    in: "query",
    description: "Request extensions, a JSON object as text. Not JSON, or not an object: 400.",
    schema: { type: "string" },
  },

  // A CORS preflight's (OPTIONS): what a browser sends before a request from a page of another origin.
  Origin: {
    name: "Origin",
    in: "header",
    description:
      "The origin of the page that would send the request (a browser sets it; a page's script cannot, nor can Swagger " +
      "UI's Try it out). Answered 204 when a valid key lists it; none, or one no key lists: 403.",
    schema: { type: "string" },
    example: "https://dashboard.example",
  },
  AccessControlRequestMethod: {
    name: "Access-Control-Request-Method",
    in: "header",
    description:
      "The method of the request the browser asks about: what makes an OPTIONS a preflight. Without it, OPTIONS is a " +
      "method the path does not serve (405).",
    schema: { type: "string" },
    example: "GET",
  },
};

export const requestBodies: Record<string, RequestBody> = {
  VehicleCreate: {
    description: "The vehicle's fields as a flat JSON object; `plate` is required.",
    required: true,
    content: jsonContent(schemaRef("VehicleCreate"), vehicleRequestExample),
  },
  VehicleUpdate: {
    description: "Any subset of the vehicle's fields as a flat JSON object; only the fields sent change.",
    required: false,
    content: jsonContent(schemaRef("VehicleUpdate"), { color: "red", wanted: 0, wanted_reason: null }),
  },
  Dutytime: {
    description: "Optional. When sent, it must be a JSON object (an empty one); its fields are ignored.",
    required: false,
    content: jsonContent(schemaRef("IgnoredBody"), {}),
  },
  GraphQLRequest: {
    description:
      "The GraphQL request: as JSON, or the document alone as `application/graphql`. Yoga also reads " +
      "`application/x-www-form-urlencoded` and GraphQL multipart requests (`multipart/form-data`); any other " +
      "Content-Type answers 415.",
    required: true,
    content: {
      "application/json": { schema: schemaRef("GraphQLRequest"), example: { query: "query Plates($n: Int) { vehicles(perPage: $n) { data { id plate } } }", variables: { n: 5 } } },
      "application/graphql": { schema: { type: "string" }, example: "{ vehicles { meta { total } } }" },
    },
  },
};

export const headers: Record<string, Header> = {
  Allow: { description: "The methods this path supports, e.g. `GET, POST`.", schema: { type: "string" } },
  RetryAfter: { description: "Seconds until the key may send requests again.", schema: { type: "integer", minimum: 1 } },
  // CORS (src/server/cors.ts): on a preflight's answer, and on the answers to a key that lists the request's Origin.
  AccessControlAllowOrigin: {
    description: "The request's `Origin`, which a valid key lists: a page of that origin may read the answer. Absent otherwise.",
    schema: { type: "string" },
  },
  Vary: { description: "Names `Origin` (besides any other header the answer depends on): the CORS headers depend on it.", schema: { type: "string" } },
  AccessControlAllowMethods: { description: "The methods the path serves.", schema: { type: "string" } },
  AccessControlAllowHeaders: {
    description: "The request headers a page may send: the key's, JSON's Content-Type, and an event stream's resume point.",
    schema: { type: "string", const: corsAllowedHeaders },
  },
  AccessControlMaxAge: {
    description: "Seconds a browser may keep this answer.",
    schema: { type: "integer", const: corsMaxAgeSeconds },
  },
};

export const responses: Record<string, Response> = {
  MalformedJson: {
    description: "The body is not valid JSON, or not a JSON object.",
    content: errorBody("The request body is not valid JSON."),
  },
  Unauthenticated: {
    description: "No API key, an unknown, revoked or expired one, or X-API-Key and Bearer token that differ.",
    content: errorBody("Unauthenticated."),
  },
  Forbidden: {
    description:
      "The key lacks the scope the operation needs, or it lists origins and the request's `Origin` is none of them. " +
      "Answered before the body is read; nothing ran.",
    content: errorBody("This action is unauthorized."),
  },
  NotFound: {
    description:
      "No such record in the key's network (a record of another network is reported the same way), " +
      "or a path parameter that is not validly URL-encoded.",
    content: {
      "application/json": {
        schema: schemaRef("Error"),
        examples: {
          vehicle: { summary: "Vehicle", value: { message: "Vehicle not found." } },
          officer: { summary: "Officer", value: { message: "Officer not found." } },
          encoding: { summary: "Path parameter not validly URL-encoded", value: { message: "Not Found." } },
        },
      },
    },
  },
  PathNotFound: {
    description:
      "No route at this path: only the paths of this document are served; any other path, such as " +
      "one with a misspelt or extra segment, answers 404. Answered before the API key is checked.",
    content: errorBody("Not Found."),
  },
  MethodNotAllowed: {
    description:
      "The path exists but not with this method; `Allow` lists the methods it has. Answered before " +
      "the API key is checked.",
    headers: { Allow: headerRef("Allow") },
    content: errorBody("The DELETE method is not supported for this route. Supported: GET, HEAD."),
  },
  BodyTooLarge: {
    description: "The body is larger than 1 MiB (no valid body comes near it); the connection is closed.",
    content: errorBody(bodyTooLargeMessage),
  },
  UnsupportedMediaType: {
    description: "A body was sent with a Content-Type that is not JSON (`application/json` or `application/*+json`).",
    content: errorBody("The request body must be JSON (Content-Type: application/json)."),
  },
  ValidationFailed: {
    description: "Validation failed; `errors` holds the messages per field.",
    content: jsonContent(schemaRef("ValidationError"), {
      message: "The plate field is required. (and 1 more error)",
      errors: {
        plate: ["The plate field is required."],
        tuv: ["The tuv field must be a valid date in the format YYYY-MM-DD."],
      },
    }),
  },
  TooManyRequests: {
    description: "The key is over `RATE_LIMIT_PER_MINUTE` (only when that limit is configured).",
    headers: { "Retry-After": headerRef("RetryAfter") },
    content: errorBody("Too Many Attempts."),
  },
  ServiceUnavailable: {
    description: "The database is unavailable; retry later.",
    content: errorBody("The service is temporarily unavailable. Please retry."),
  },
  PreflightAllowed: {
    description: "A CORS preflight from an origin a valid key lists: the browser may send the request. No body.",
    headers: {
      "Access-Control-Allow-Origin": headerRef("AccessControlAllowOrigin"),
      "Access-Control-Allow-Methods": headerRef("AccessControlAllowMethods"),
      "Access-Control-Allow-Headers": headerRef("AccessControlAllowHeaders"),
      "Access-Control-Max-Age": headerRef("AccessControlMaxAge"),
      Vary: headerRef("Vary"),
    },
  },
  PreflightRefused: {
    description:
      "A CORS preflight without an `Origin`, or from one no valid key lists: without CORS headers, so the browser does " +
      "not send the request. In the contract's shape, on /graphql too.",
    content: errorBody("No API key lists this origin: its pages may not use the API."),
  },
  FileNotFound: {
    description: "No such file: only the files the page links to are served. Answered to every method, before the method is looked at.",
    content: errorBody("Not Found."),
  },

  // /graphql: its errors in GraphQL's shape, as the Accept header asks (application/json or application/graphql-response+json).
  GraphQLBadRequest: {
    description:
      "Refused before any operation ran: a document over a limit (`extensions.limit`, `extensions.max`), a `variables` " +
      "or `extensions` parameter that is not a JSON object, a body that is not valid JSON or is nested too deep, a batch " +
      "(a JSON array); and, only when the client accepts `application/graphql-response+json`, a document that does not " +
      "parse or validate (as `application/json` those answer 200 with `errors`, as GraphQL over HTTP has it).",
    content: graphqlErrorBody("The document exceeds the limit of 15 aliases.", "BAD_USER_INPUT", { limit: "aliases", max: 15 }),
  },
  GraphQLUnauthenticated: {
    description: "No API key, an unknown, revoked or expired one, or X-API-Key and Bearer token that differ.",
    content: graphqlErrorBody("Unauthenticated.", "UNAUTHENTICATED"),
  },
  GraphQLForbidden: {
    description:
      "The key lacks a scope one of the operation's root fields needs, or it lists origins and the request's `Origin` is " +
      "none of them; nothing ran. With `Accept: text/event-stream` or `multipart/mixed`, a refusal by scope comes as one " +
      `event or part (a refusal by origin as JSON). What the fields need: ${graphqlScopesText()}`,
    content: { ...graphqlErrorBody("This action is unauthorized.", "FORBIDDEN"), "text/event-stream": { schema: { type: "string" } }, "multipart/mixed": { schema: { type: "string" } } },
  },
  GraphQLTooManyRequests: {
    description: "The key is over `RATE_LIMIT_PER_MINUTE` (only when that limit is configured), or its line of operations is full.",
    headers: { "Retry-After": headerRef("RetryAfter") },
    content: graphqlErrorBody("Too Many Attempts.", "RATE_LIMITED"),
  },
  GraphQLServiceUnavailable: {
    description: "The database is unavailable, or the operation waited too long for its turn; retry later.",
    content: graphqlErrorBody("The service is temporarily unavailable. Please retry.", "UNAVAILABLE"),
  },
  GraphQLMethodNotAllowed: {
    description: "The path is not served with this method; `Allow` lists the methods it is. Answered before the API key is checked.",
    headers: { Allow: headerRef("Allow") },
    content: graphqlErrorBody("The PUT method is not supported for /graphql. Supported: GET, HEAD, POST.", "METHOD_NOT_ALLOWED"),
  },
  GraphQLBodyTooLarge: {
    description: "The body is larger than 1 MiB; the connection is closed.",
    content: graphqlErrorBody(bodyTooLargeMessage, "BAD_USER_INPUT"),
  },
  GraphQLUnsupportedMediaType: {
    description: "The body's Content-Type is none that Yoga reads (see the request body); no body.",
  },
  NotAcceptable: {
    description:
      "The Accept header names none of the media types /graphql answers in (application/graphql-response+json, " +
      "application/json, text/event-stream, multipart/mixed; and text/html for GraphiQL's page, GET only); no body.",
  },
};
