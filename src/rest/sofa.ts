// SOFA turns the schema's operations into REST operations; this module configures it for the
// operations the REST routes run and maps GraphQL errors to the contract's statuses and bodies.
import { useSofa } from "sofa-api";
import { GraphQLError, isObjectType, type ExecutionArgs, type ExecutionResult, type GraphQLSchema } from "graphql";
import { filterSchema } from "@graphql-tools/utils";
import type { Context, NetworkScope } from "../context";
import type { Database } from "../db/client";
import { ErrorCode, codeOf, statusOfCode } from "../errors";
import { logInternalError, publicError } from "../publicError";
import { errorJson, validationJson, type Reply } from "./responses";
import { keepErrors, sofaHandlers, type SofaResult } from "./sofaHandlers";

/** A GraphQL root field, as SOFA names its operations: "Query.vehicles", "Mutation.createVehicle". */
export type SofaOperation = `${"Query" | "Mutation"}.${string}`;

/**
 * SOFA's route of each operation the REST routes run. Clients never see these paths: the REST
 * routes (src/rest/routes.ts) hold the public ones and call the operations' handlers directly.
 */
const internalRoutes = (operations: Iterable<SofaOperation>) =>
  Object.fromEntries([...new Set(operations)].map((operation) => [operation, { method: "POST" as const, path: `/${operation}` }]));

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

/** The execute function SOFA runs operations with: the app's guarded one (limits, fairness). */
export type Execute = (args: ExecutionArgs) => Promise<ExecutionResult> | ExecutionResult;

/**
 * The schema as REST sees it: without the fields a schema file marks `extensions: { restOmitted:
 * true }`. SOFA selects every field of an operation's result, and turns each argument of a nested
 * field into a variable of the operation: a field whose arguments no REST route gives (an
 * officer's seconds on duty in a range) would make every call fail, or cost a statement per item.
 */
export const restView = (schema: GraphQLSchema) =>
  filterSchema({ schema, objectFieldFilter: (_type, _name, field) => field.extensions?.restOmitted !== true });

/** Runs the operations through SOFA with typed variables (checked by the REST layer). */
export function createSofaClient(schema: GraphQLSchema, db: Database, now: () => Date, execute: Execute, operations: Iterable<SofaOperation>) {
  const routes = internalRoutes(operations);
  const view = restView(schema);
  const router = useSofa({
    basePath: "",
    schema: view,
    routes,
    // REST answers nested objects whole (a page's vehicles, an officer's open entry): SOFA would
    // answer each object with an id as a reference, its id alone, unless its type is ignored.
    ignore: Object.values(view.getTypeMap())
      .filter((type) => isObjectType(type) && !type.name.startsWith("__"))
      .map((type) => type.name),
    context: ({ network }: { network?: NetworkScope }): Context => ({ db, network: network!, now }),
    execute: execute as NonNullable<Parameters<typeof useSofa>[0]["execute"]>,
    errorHandler: keepErrors,
  });
  const handlers = sofaHandlers<{ network: NetworkScope }>(router, routes);

  return async function callSofa(operation: SofaOperation, variables: Record<string, unknown>, network: NetworkScope): Promise<SofaResult> {
    const handler = handlers.get(operation);
    if (!handler) throw new Error(`no SOFA route for ${operation}`);
    return handler(variables, { network });
  };
}

export type CallSofa = ReturnType<typeof createSofaClient>;
