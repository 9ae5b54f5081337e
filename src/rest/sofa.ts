// SOFA turns the schema's operations into REST operations; this module runs the operations the
// REST routes call, with the app's guarded execute function, and maps GraphQL errors to the
// contract's statuses and bodies. Each operation's document is the one SOFA builds for its
// route (src/rest/sofaOperations.ts); the REST layer's own router has matched the public path
// already, so the operation runs directly: no second routing, no fetch Request or Response.
import { GraphQLError, isObjectType, type execute as graphqlExecute, type GraphQLSchema } from "graphql";
import { filterSchema } from "@graphql-tools/utils";
import type { Context, KeyScope, NetworkScope } from "../context";
import type { Database } from "../db/client";
import { ErrorCode, codeOf, statusOfCode } from "../errors";
import { logInternalError, publicError } from "../publicError";
import { errorJson, validationJson, type Reply } from "./responses";
import { operationVariables, type Variables } from "./operationVariables";
import { sofaOperationDocuments, type SofaOperation } from "./sofaOperations";

export type { SofaOperation };

/** An operation's answer as JSON text (passed on as text, not parsed again), or its errors. */
export type SofaResult = { ok: true; json: string } | { ok: false; errors: ReadonlyArray<unknown> };

/**
 * GraphQL errors of a REST call, as the contract's error reply; `rename` gives the REST name of
 * a field a 422 names (a query parameter for an argument).
 */
export function restErrorReply(errors: ReadonlyArray<unknown>, rename?: (field: string) => string): Reply {
  for (const error of errors) {
    const exposed = publicError(error);
    const code = codeOf(exposed);
    if (!exposed || !code) continue;
    const status = statusOfCode[code];
    if (code === ErrorCode.BAD_USER_INPUT) {
      const fields = (exposed.extensions.errors as Record<string, string[]>) ?? {};
      return validationJson(exposed.message, rename ? Object.fromEntries(Object.entries(fields).map(([field, messages]) => [rename(field), messages])) : fields);
    }
    const retryAfter = exposed.extensions.retryAfter;
    return errorJson(status, exposed.message, retryAfter ? { "Retry-After": String(retryAfter) } : {});
  }
  const first = errors[0];
  // A GraphQL request error (no resolver ran): the input did not fit the schema's types.
  if (first instanceof GraphQLError && !first.originalError) {
    return validationJson(first.message, {});
  }
  logInternalError(first);
  return errorJson(500, "Server Error.");
}

/**
 * The execute function the operations run with: any of graphql-js's signature. The app gives its
 * guarded one (src/server/guardedExecute.ts, which declares it as `Execute`); it is not
 * imported from there, as the REST layer imports nothing of the HTTP server above it.
 */
type RunOperation = typeof graphqlExecute;

/**
 * The schema as REST sees it: without the fields a schema file marks `extensions: { restOmitted:
 * true }`. SOFA selects every field of an operation's result, and turns each argument of a nested
 * field into a variable of the operation: a field whose arguments no REST route gives (an
 * officer's seconds on duty in a range) would make every call fail, or cost a statement per item.
 */
export const restView = (schema: GraphQLSchema) =>
  filterSchema({ schema, objectFieldFilter: (_type, _name, field) => field.extensions?.restOmitted !== true });

/**
 * The types SOFA is told to ignore: all object types. REST answers nested objects whole (a page's
 * vehicles, an officer's open entry): SOFA would select only the id of each object with an id
 * (a "model"), unless its type is ignored.
 */
export const restIgnoredTypes = (view: GraphQLSchema) =>
  Object.values(view.getTypeMap())
    .filter((type) => isObjectType(type) && !type.name.startsWith("__"))
    .map((type) => type.name);

/**
 * Runs the operations with typed variables (checked by the REST layer). An operation's answer is
 * its root field's value as JSON; errors, whether execute answers or throws them, come back as
 * they are, for restErrorReply.
 */
export function createSofaClient(schema: GraphQLSchema, db: Database, now: () => Date, execute: RunOperation, operations: Iterable<SofaOperation>) {
  const view = restView(schema);
  const runners = new Map(
    [...sofaOperationDocuments(view, restIgnoredTypes(view), operations)].map(([operation, { document, operationName, fieldName, variables }]) => {
      const variablesOf = operationVariables(variables, view);
      const run: SofaRunner = async (values, network, key) => {
        try {
          const variableValues = variablesOf(values);
          const contextValue: Context = { db, network, key, now };
          const result = await execute({ schema: view, document, contextValue, variableValues, operationName });
          if (result.errors) return { ok: false, errors: result.errors };
          // What SOFA answered: the root field's value as JSON (nothing for undefined).
          return { ok: true, json: JSON.stringify(result.data?.[fieldName]) ?? "" };
        } catch (error) {
          return { ok: false, errors: [error] };
        }
      };
      return [operation, run] as const;
    }),
  );

  /** The runner of an operation, found once: a route keeps it (./routes.ts). */
  return function runnerOf(operation: SofaOperation): SofaRunner {
    const run = runners.get(operation);
    if (!run) throw new Error(`no SOFA route for ${operation}`);
    return run;
  };
}

/** Runs one operation with the REST layer's typed variables, for a network and key. */
export type SofaRunner = (values: Variables, network: NetworkScope, key: KeyScope) => Promise<SofaResult>;

export type SofaRunners = ReturnType<typeof createSofaClient>;
