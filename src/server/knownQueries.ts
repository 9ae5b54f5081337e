// The everyday GraphQL request, a dashboard's query POSTed as JSON again and again, answered from
// documents parsed and validated before, straight from node's request as REST requests are
// (src/server/app.ts): without a fetch Request and Response and Yoga's per-request pipeline
// (request parsers, envelop's hooks, result processors), which cost much of a list query's CPU
// (figures: docs/performance.md). Everything else goes to Yoga unchanged: other methods and media
// types, mutations, new or invalid documents. A result with errors is handed to Yoga as it is,
// for Yoga's own error response (masking, status, media type) without running the query again
// (src/server/graphql.ts); refusals by the limits, which run nothing, are answered here in Yoga's
// shape. A test compares the answers of both ways byte for byte. Only requests whose key was admitted come here, and the documents kept are
// bounded by their total length.
import { GraphQLError, getOperationAST, validate, type DocumentNode, type ExecutionResult, type GraphQLSchema } from "graphql";
import type { Reply } from "../rest/responses";
import type { Execute } from "./guardedExecute";
import type { OperationLimitsCheck } from "./operationLimits";
import { LengthBoundedCache } from "./lengthBoundedCache";
import { cacheCounts } from "../config/cacheCounts";

/** Documents longer than this are left to Yoga: the known ones stay small. */
const maxQueryLength = 10_000;
/** The documents kept: at most this many, of at most this many characters in all. */
const maxDocuments = 500;
const maxDocumentCharacters = 1_000_000;

/** The parameters of a GraphQL request, as Yoga accepts them in a JSON body. */
interface GraphqlParams {
  query: string;
  variables?: Record<string, unknown> | null;
  operationName?: string | null;
  extensions?: Record<string, unknown> | null;
}

const isObjectOrNull = (value: unknown) => value === null || (typeof value === "object" && !Array.isArray(value));

/** The body's parameters when they are exactly what Yoga accepts without complaint, else null. */
function paramsOf(body: string): GraphqlParams | null {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return null;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return null;
  const params = value as Record<string, unknown>;
  for (const key of Object.keys(params)) {
    if (key !== "query" && key !== "variables" && key !== "operationName" && key !== "extensions") return null;
  }
  const { query, variables, operationName, extensions } = params;
  if (typeof query !== "string") return null;
  if (variables !== undefined && !isObjectOrNull(variables)) return null;
  if (extensions !== undefined && !isObjectOrNull(extensions)) return null;
  if (operationName !== undefined && operationName !== null && typeof operationName !== "string") return null;
  return params as unknown as GraphqlParams;
}

/** The `query` of a JSON body, when it is one with a text query. */
export function documentTextOf(body: string): string | null {
  try {
    const query = (JSON.parse(body) as { query?: unknown } | null)?.query;
    return typeof query === "string" ? query : null;
  } catch {
    return null;
  }
}

/** Media types of Yoga's result processors, in Yoga's order; only the last one is "regular". */
const processorMediaTypes = [["text/event-stream"], ["multipart/mixed"], ["application/graphql-response+json", "application/json"]];

/**
 * The media type Yoga answers a plain result with for this Accept header, when it is one of the
 * JSON ones; null when Yoga would stream it (event stream, multipart) or refuse it. The same
 * choice as Yoga's result processors: the last matching processor media type wins.
 */
export function jsonMediaTypeFor(accept: string | null): string | null {
  const asked = (accept || "*/*")
    .replace(/\s/g, "")
    .toLowerCase()
    .split(",")
    .flatMap((entry) => {
      const [mediaType, ...params] = entry.split(";");
      const charset = params.find((param) => param.includes("charset=")) ?? "charset=utf-8";
      return charset === "charset=utf-8" ? [mediaType] : [];
    })
    .reverse();
  const matches = (offered: string, wanted: string) => {
    const [offeredType, offeredSubtype] = offered.split("/");
    const [type, subtype] = wanted.split("/");
    return (type === "*" || type === offeredType) && (subtype === "*" || subtype === offeredSubtype);
  };
  let chosen: string | null = null;
  let regular = false;
  for (const [index, mediaTypes] of processorMediaTypes.entries()) {
    for (const wanted of asked) {
      for (const offered of mediaTypes) {
        if (!matches(offered, wanted)) continue;
        chosen = offered;
        regular = index === processorMediaTypes.length - 1;
      }
    }
  }
  return regular ? chosen : null;
}

/** Clients send a few distinct Accept headers, each over and over: the choice is kept per short header. */
const mediaTypeByAccept = new Map<string | null, string | null>();
const maxAcceptHeaders = 100;
const maxKeptAcceptLength = 256;

export function keptMediaTypeFor(accept: string | null): string | null {
  let mediaType = mediaTypeByAccept.get(accept);
  if (mediaType === undefined) {
    mediaType = jsonMediaTypeFor(accept);
    if (accept === null || accept.length <= maxKeptAcceptLength) {
      if (mediaTypeByAccept.size >= maxAcceptHeaders) mediaTypeByAccept.clear();
      mediaTypeByAccept.set(accept, mediaType);
    }
  }
  return mediaType;
}

/**
 * Errors that refuse the request as a whole (they carry their HTTP status: src/server/
 * operationLimits.ts, src/server/keyFairness.ts) as Yoga answers them: the highest status, the
 * errors' headers, and the errors without their `http` extension.
 */
export function refusalReply(errors: readonly GraphQLError[], mediaType: string): Reply | null {
  if (!errors.every((error) => error.extensions?.http)) return null;
  let status = 0;
  const headers: Record<string, string> = { "Content-Type": `${mediaType}; charset=utf-8` };
  const shown = errors.map((error) => {
    const { http, ...extensions } = error.extensions as { http: { status?: number; headers?: Record<string, string> } };
    status = Math.max(status, http.status ?? 0);
    Object.assign(headers, http.headers);
    return new GraphQLError(error.message, { nodes: error.nodes, path: error.path, extensions });
  });
  return { status: status || 200, headers, body: JSON.stringify({ errors: shown }) };
}

/** Yoga's test for a JSON body: the first of the listed content types, parameters allowed. */
function isJsonBody(contentType: string | null): boolean {
  const first = contentType?.split(",")[0];
  return first === "application/json" || !!first?.startsWith("application/json;");
}

/** A request this process can answer without Yoga: its parameters, document and media type. */
export interface KnownQuery {
  params: GraphqlParams;
  document: DocumentNode;
  mediaType: string;
}

export function knownQueries(schema: GraphQLSchema, limits: OperationLimitsCheck, execute: Execute) {
  /** Valid query documents by their text; null for a text that is no valid query. */
  const documents = new LengthBoundedCache<DocumentNode | null>(maxDocuments, maxDocumentCharacters);

  function validQuery(params: GraphqlParams): DocumentNode | null {
    let document = documents.get(params.query);
    cacheCounts.knownQueries[document === undefined ? "misses" : "hits"] += 1;
    if (document === undefined) {
      // Only a document within the limits is kept (as a valid query, or as not one); one over
      // them is left to Yoga's path, which refuses it (src/server/app.ts).
      let parsed: DocumentNode;
      try {
        parsed = limits.parse(params.query);
      } catch {
        return null;
      }
      if (limits.structureRefusal(parsed)) return null;
      document = validate(schema, parsed).length === 0 ? parsed : null;
      documents.set(params.query, document);
    }
    if (!document) return null;
    return getOperationAST(document, params.operationName ?? undefined)?.operation === "query" ? document : null;
  }

  return {
    /**
     * A POST with a JSON body of a valid query that Yoga would answer as plain JSON; null for
     * anything else (other methods and media types, mutations, new or invalid documents).
     * @param header a request header by its lower-case name
     */
    recognize(method: string, header: (name: string) => string | null, body: string): KnownQuery | null {
      if (method !== "POST" || !isJsonBody(header("content-type"))) return null;
      const mediaType = keptMediaTypeFor(header("accept"));
      if (!mediaType) return null;
      const params = body.length <= maxQueryLength ? paramsOf(body) : null;
      const document = params && validQuery(params);
      return params && document ? { params, document, mediaType } : null;
    },

    /**
     * The answer to a known query; or its result when the operation ran and has errors, for Yoga
     * to answer; or null when the request failed before anything ran (variables that do not fit
     * their types: Yoga answers those its own way, and nothing is run twice). Refusals of the
     * whole request by the limits are answered here.
     */
    async answer({ params, document, mediaType }: KnownQuery, contextValue: unknown): Promise<Reply | { executed: ExecutionResult } | null> {
      const result: ExecutionResult = await execute({
        schema,
        document,
        contextValue,
        variableValues: params.variables ?? undefined,
        operationName: params.operationName ?? undefined,
      });
      if (result.errors) return result.data === undefined ? refusalReply(result.errors, mediaType) : { executed: result };
      if (result.extensions) return { executed: result };
      return { status: 200, headers: { "Content-Type": `${mediaType}; charset=utf-8` }, body: JSON.stringify(result) };
    },
  };
}

export type KnownQueries = ReturnType<typeof knownQueries>;
