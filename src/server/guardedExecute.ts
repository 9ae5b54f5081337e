// The one execute function of every path (known queries, Yoga, SOFA's REST operations): the
// key's scopes are checked first (src/server/operationScopes.ts), the operation is measured
// against the limits (src/server/operationLimits.ts), then run in its key's line
// (src/server/keyFairness.ts) as a compiled query (src/server/compiledExecute.ts).
// A refusal is a result with one error and no data; the error carries its HTTP status.
import type { ExecutionArgs, ExecutionResult, GraphQLError, GraphQLSchema } from "graphql";
import type { Limits } from "../config/limits";
import { compiledExecute } from "./compiledExecute";
import { keyFairness, type KeyFairness } from "./keyFairness";
import { operationLimits, type OperationLimitsCheck } from "./operationLimits";
import { mayRun, operationScopes, type NeededScopes } from "./operationScopes";
import { forbidden } from "../errors";
import { guardedSubscribe } from "./guardedSubscribe";
import { fairnessRefusalReason, limitRefusalReason, noteOperation, type ObservedContext } from "./observability/requestRecord";

/**
 * An execute function of graphql-js's signature: what every path runs its operations with (the
 * known queries, Yoga, the REST layer, which takes any function of this signature without
 * importing this module: src/rest/sofa.ts).
 */
export type Execute = (args: ExecutionArgs) => Promise<ExecutionResult> | ExecutionResult;

const refused = (error: GraphQLError): ExecutionResult => ({ errors: [error] });

export function guardedExecute(scopes: NeededScopes, limits: OperationLimitsCheck, fairness: KeyFairness): Execute {
  return (args) => {
    // A GraphQL request's record (none for SOFA's REST operations: their routes say enough).
    const { network, key, requestRecord: record } = args.contextValue as ObservedContext;
    if (record) noteOperation(record, args.document, args.operationName);
    if (!mayRun(key.scopes, scopes(args.document, args.operationName))) {
      if (record) record.refusal = "scope";
      return refused(forbidden());
    }
    const measured = limits.measure(args.document, args.operationName, args.variableValues);
    if ("refusal" in measured) {
      if (record) record.refusal = limitRefusalReason(measured.refusal);
      return refused(measured.refusal);
    }
    const refusedFor = record
      ? (error: GraphQLError) => {
          record.refusal = fairnessRefusalReason(error);
          return refused(error);
        }
      : refused;
    return fairness.run(network.id, measured.cost, () => compiledExecute(args), refusedFor);
  };
}

/**
 * The limits of documents, the execute function that enforces them with fairness, and the
 * subscribe function that enforces them with the subscription limits (./guardedSubscribe.ts).
 */
export function operationGuards(schema: GraphQLSchema, limits: Limits) {
  const documentLimits = operationLimits(schema, limits);
  const scopes = operationScopes(schema);
  return {
    documentLimits,
    execute: guardedExecute(scopes, documentLimits, keyFairness(limits)),
    subscribe: guardedSubscribe(scopes, documentLimits, limits),
  };
}
