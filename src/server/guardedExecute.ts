// The one execute function of every path (known queries, Yoga, SOFA's REST operations): the
// operation is measured against the limits first (src/server/operationLimits.ts), then run in its
// key's line (src/server/keyFairness.ts) as a compiled query (src/server/compiledExecute.ts).
// A refusal is a result with one error and no data; the error carries its HTTP status.
import type { ExecutionResult, GraphQLSchema } from "graphql";
import type { Execute } from "../rest/sofa";
import type { Context } from "../context";
import type { Limits } from "../config/limits";
import { compiledExecute } from "./compiledExecute";
import { keyFairness, type KeyFairness } from "./keyFairness";
import { operationLimits, type OperationLimitsCheck } from "./operationLimits";

export type { Execute };

export function guardedExecute(limits: OperationLimitsCheck, fairness: KeyFairness): Execute {
  return (args) => {
    const measured = limits.measure(args.document, args.operationName, args.variableValues);
    if ("refusal" in measured) return { errors: [measured.refusal] };
    const { network } = args.contextValue as Context;
    return fairness.run(network.id, measured.cost, () => compiledExecute(args), (error): ExecutionResult => ({ errors: [error] }));
  };
}

/** The limits of documents and the execute function that enforces them with fairness, for these limits. */
export function operationGuards(schema: GraphQLSchema, limits: Limits) {
  const documentLimits = operationLimits(schema, limits);
  return { documentLimits, execute: guardedExecute(documentLimits, keyFairness(limits)) };
}
