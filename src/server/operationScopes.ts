// The scopes an operation needs: those its root fields declare (src/schema/scopes.ts), found by
// walking the operation's root selection (through fragments) once per document and operation
// name. The guarded execution (./guardedExecute.ts) refuses a key without them before anything
// runs, on every path: known queries, Yoga, REST (whose routes are operations), subscriptions.
import { Kind, type DocumentNode, type FragmentDefinitionNode, type GraphQLObjectType, type GraphQLSchema, type SelectionSetNode } from "graphql";
import { grants, type Scope } from "../model/scopes";
import { declaredScope, queryDefaultScope } from "../schema/scopes";

/** Root fields every key may ask, whatever its scopes: introspection shows the public schema. */
const openToEveryKey = new Set(["__typename", "__schema", "__type"]);

export type NeededScopes = (document: DocumentNode, operationName: string | null | undefined) => readonly Scope[];

export function operationScopes(schema: GraphQLSchema): NeededScopes {
  const kept = new WeakMap<DocumentNode, Map<string, readonly Scope[]>>();

  function rootType(operation: "query" | "mutation" | "subscription"): GraphQLObjectType | null | undefined {
    if (operation === "query") return schema.getQueryType();
    return operation === "mutation" ? schema.getMutationType() : schema.getSubscriptionType();
  }

  function neededBy(document: DocumentNode, operationName: string | null | undefined): readonly Scope[] {
    const operations = document.definitions.filter((definition) => definition.kind === Kind.OPERATION_DEFINITION);
    const operation = operationName ? operations.find((candidate) => candidate.name?.value === operationName) : operations.length === 1 ? operations[0] : undefined;
    // No such operation: execution answers that; nothing of it can run.
    if (!operation) return [];
    const fragments = new Map<string, FragmentDefinitionNode>();
    for (const definition of document.definitions) if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
    const type = rootType(operation.operation);
    const needed = new Set<Scope>();
    const seen = new Set<string>();
    const visit = (selections: SelectionSetNode) => {
      for (const selection of selections.selections) {
        if (selection.kind === Kind.FIELD) {
          const name = selection.name.value;
          if (openToEveryKey.has(name)) continue;
          const field = type?.getFields()[name];
          // An unknown field fails validation; its scope is the root type's default meanwhile.
          const scope = (field && declaredScope(field)) ?? (operation.operation === "mutation" ? "admin" : queryDefaultScope);
          if (scope !== "any key") needed.add(scope);
        } else if (selection.kind === Kind.INLINE_FRAGMENT) visit(selection.selectionSet);
        else if (!seen.has(selection.name.value)) {
          seen.add(selection.name.value);
          const fragment = fragments.get(selection.name.value);
          if (fragment) visit(fragment.selectionSet);
        }
      }
    };
    visit(operation.selectionSet);
    return [...needed];
  }

  return (document, operationName) => {
    let byName = kept.get(document);
    if (!byName) kept.set(document, (byName = new Map()));
    const name = operationName ?? "";
    let needed = byName.get(name);
    if (!needed) byName.set(name, (needed = neededBy(document, operationName)));
    return needed;
  };
}

/** Whether a key holding `held` may run an operation that needs `needed`. */
export const mayRun = (held: readonly Scope[], needed: readonly Scope[]) => needed.every((scope) => grants(held, scope));
