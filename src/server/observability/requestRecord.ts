// What is known of one request by the time it is answered: the fields of its log line, which the
// metrics count too (src/server/observability/requestObserver.ts). The app fills it in as it goes
// (route, network, key prefix, id and name, refusal); the guarded execute function adds the GraphQL
// operation; the observer, the client's address.
// It is the log line itself, so a request allocates nothing else for its log. Nothing of a
// request's query string, body or key goes in here beyond the key's public prefix. What is not
// known or does not apply stays undefined, which pino leaves out of the line (a null costs a
// JSON.stringify per field, ~0.4 us per line for the four a REST request lacks).
import { getOperationAST, type DocumentNode, type GraphQLError } from "graphql";
import type { Context } from "../../context";
import { shownPrefixLength } from "../../resolvers/apiKeys";

/**
 * Why a request was refused, where it was. A bounded set: it is a metrics label too.
 * - `no_key`: no API key, or two different ones; `unknown_key`: unknown, revoked or expired;
 * - `scope`: the key lacks a scope the operation needs; `origin`: the browser's origin is not one the key lists;
 * - `rate_limit`: RATE_LIMIT_PER_MINUTE;
 * - `operation_limit`: a GRAPHQL_* limit of the document's size or shape; `operation_cost`: GRAPHQL_MAX_COST;
 * - `fairness_queue`: the key's line is full (KEY_MAX_QUEUED); `timeout`: OPERATION_TIMEOUT_MS;
 * - `body_too_large`: over 1 MiB; `body_too_deep`: JSON nested too deep; `bodies_in_flight`: MAX_BODY_BYTES_IN_FLIGHT;
 * - `database_unavailable`: the database could not be reached (503).
 */
export type RefusalReason =
  | "no_key"
  | "unknown_key"
  | "scope"
  | "origin"
  | "rate_limit"
  | "operation_limit"
  | "operation_cost"
  | "fairness_queue"
  | "timeout"
  | "body_too_large"
  | "body_too_deep"
  | "bodies_in_flight"
  | "database_unavailable";

/**
 * The characters of a key sent that its log line shows, as lists show a key's prefix
 * (src/resolvers/apiKeys.ts). Public: they identify a key, not unlock it.
 */
export const keyPrefixLength = shownPrefixLength;

/** Operation names longer than this are cut in the log line (a document may be 20,000 characters). */
const maxLoggedOperationName = 100;

export class RequestRecord {
  // The order of the fields is the order of the log line's keys.
  requestId: string;
  method: string;
  /** The path's route template (`/vehicles/{vehicle}`), never the path itself; null when no route matched. */
  route: string | null = null;
  status = 0;
  durationMs = 0;
  /**
   * The client's address (./clientAddress.ts), and the trusted proxy it came through when it
   * did: set when the line is written or the request counted (./requestObserver.ts).
   */
  clientAddress: string | undefined = undefined;
  proxyAddress: string | undefined = undefined;
  /** The network of the admitted key. */
  network: number | undefined = undefined;
  /** The first characters of the key sent, when it looks like one of ours (admitted or not). */
  keyPrefix: string | undefined = undefined;
  /** The admitted key's id and name (never its secret). */
  keyId: number | undefined = undefined;
  keyName: string | undefined = undefined;
  /** GraphQL's operation name as sent (undefined: anonymous, or no operation), and its type. */
  operation: string | undefined = undefined;
  operationType: "query" | "mutation" | "subscription" | undefined = undefined;
  refusal: RefusalReason | undefined = undefined;

  constructor(requestId: string, method: string) {
    this.requestId = requestId;
    this.method = method;
  }
}

/** The context of a GraphQL operation run for an observed request (known queries and Yoga; SOFA's REST operations carry none). */
export type ObservedContext = Context & { requestRecord?: RequestRecord };

/** Notes the operation a GraphQL request runs. */
export function noteOperation(record: RequestRecord, document: DocumentNode, operationName: string | null | undefined): void {
  const operation = getOperationAST(document, operationName);
  if (!operation) return;
  const name = operation.name?.value;
  record.operation = name !== undefined && name.length > maxLoggedOperationName ? name.slice(0, maxLoggedOperationName) : name;
  record.operationType = operation.operation;
}

/** The reason of a refusal by the operation limits (src/server/operationLimits.ts). */
export const limitRefusalReason = (refusal: GraphQLError): RefusalReason => (refusal.extensions.limit === "cost" ? "operation_cost" : "operation_limit");

/** The reason of a refusal by the key's line (src/server/keyFairness.ts): line full (429) or too long (503). */
export const fairnessRefusalReason = (refusal: GraphQLError): RefusalReason =>
  (refusal.extensions.http as { status?: number } | undefined)?.status === 429 ? "fairness_queue" : "timeout";
