// The scope each root field needs (src/model/scopes.ts), declared where the field is: a field's
// `extensions: needs("write")`. The guarded execution reads it before anything runs
// (src/server/operationScopes.ts): a key without it gets FORBIDDEN (403) and nothing runs. A
// query field needs `read` unless it says otherwise; a mutation must say, or the schema is not
// built (checkDeclaredScopes), so a new mutation cannot be forgotten.
import type { GraphQLObjectType, GraphQLSchema } from "graphql";
import type { Scope } from "../model/scopes";

/** What a root field needs: a scope, or only an admitted key ("any key": the key's own view). */
export type NeededScope = Scope | "any key";

export const neededScopeExtension = "neededScope";

/** The field's extension saying what it needs. */
export const needs = (scope: NeededScope) => ({ [neededScopeExtension]: scope });

/** What a query field needs when it says nothing: `read` is every query. */
export const queryDefaultScope: NeededScope = "read";

/** The scope a root field declares, or undefined. */
export const declaredScope = (field: { extensions?: Readonly<Record<string, unknown>> | null }): NeededScope | undefined =>
  field.extensions?.[neededScopeExtension] as NeededScope | undefined;

/** Fails when a mutation declares no scope: every change states who may make it. */
export function checkDeclaredScopes(schema: GraphQLSchema): GraphQLSchema {
  const mutation = schema.getMutationType();
  const missing = Object.values(mutation?.getFields() ?? {}).filter((field) => declaredScope(field) === undefined);
  if (missing.length > 0) throw new Error(`Mutations without a declared scope (extensions: needs(...)): ${missing.map((field) => field.name).join(", ")}`);
  return schema;
}

export type RootTypeName = "Query" | "Mutation" | "Subscription";

export const rootTypeOf = (schema: GraphQLSchema, root: RootTypeName): GraphQLObjectType | null | undefined =>
  root === "Query" ? schema.getQueryType() : root === "Mutation" ? schema.getMutationType() : schema.getSubscriptionType();

/** What a root field needs: its declared scope, else `read` for a query (a mutation always declares). */
export function neededOf(root: RootTypeName, field: { name: string; extensions?: Readonly<Record<string, unknown>> | null }): NeededScope {
  const scope = declaredScope(field) ?? (root === "Query" ? queryDefaultScope : undefined);
  if (scope === undefined) throw new Error(`${root}.${field.name} declares no scope`);
  return scope;
}

/**
 * The scopes a key needs to run a root field ("Mutation.createVehicle"): what a REST route running
 * it needs (src/server/app.ts checks it before the body is read; the OpenAPI document says it).
 */
export function fieldScopes(schema: GraphQLSchema, operation: string): Scope[] {
  const [root, name] = operation.split(".") as [RootTypeName, string];
  const field = rootTypeOf(schema, root)?.getFields()[name];
  if (!field) throw new Error(`No root field ${operation}`);
  const scope = neededOf(root, field);
  return scope === "any key" ? [] : [scope];
}
