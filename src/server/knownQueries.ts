// The everyday GraphQL request, a dashboard's query POSTed as JSON again and again, answered
// from documents parsed and validated before, straight from node's request as REST requests
// are (src/server/app.ts): without a fetch Request and Response and Yoga's per-request
// pipeline (request parsers, envelop's hooks, result processors), which cost about half of a
// list query's CPU. Everything else goes to Yoga unchanged: other methods and media types,
// mutations, new or invalid documents, and every result with errors, which Yoga answers by
// running the query again (queries change nothing) to give its own error response. A test
// compares the answers of both ways byte for byte.
import { getOperationAST, parse, validate, type DocumentNode, type GraphQLSchema } from "graphql";
import type { Reply } from "../rest/responses";
import { compiledExecute } from "./compiledExecute";

/** Documents longer than this are left to Yoga's own cache: the known ones stay small. */
const maxQueryLength = 10_000;
const maxDocuments = 500;

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

/** Clients send a few distinct Accept headers, each over and over: the choice is kept per header. */
const mediaTypeByAccept = new Map<string | null, string | null>();
const maxAcceptHeaders = 100;

function keptMediaTypeFor(accept: string | null): string | null {
  let mediaType = mediaTypeByAccept.get(accept);
  if (mediaType === undefined) {
    if (mediaTypeByAccept.size >= maxAcceptHeaders) mediaTypeByAccept.clear();
    mediaTypeByAccept.set(accept, (mediaType = jsonMediaTypeFor(accept)));
  }
  return mediaType;
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

export function knownQueries(schema: GraphQLSchema) {
  /** Valid query documents by their text; null for a text that is no valid query. */
  const documents = new Map<string, DocumentNode | null>();

  function validQuery(params: GraphqlParams): DocumentNode | null {
    let document = documents.get(params.query);
    if (document === undefined) {
      try {
        const parsed = parse(params.query);
        document = validate(schema, parsed).length === 0 ? parsed : null;
      } catch {
        document = null;
      }
      if (documents.size >= maxDocuments) documents.clear();
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

    /** The answer to a known query; null when its result has errors (Yoga answers those). */
    async answer({ params, document, mediaType }: KnownQuery, contextValue: unknown): Promise<Reply | null> {
      const result = await compiledExecute({
        schema,
        document,
        contextValue,
        variableValues: params.variables ?? undefined,
        operationName: params.operationName ?? undefined,
      });
      if (result.errors || result.extensions) return null;
      return { status: 200, headers: { "Content-Type": `${mediaType}; charset=utf-8` }, body: JSON.stringify(result) };
    },
  };
}

export type KnownQueries = ReturnType<typeof knownQueries>;
