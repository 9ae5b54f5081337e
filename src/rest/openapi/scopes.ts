// What the document says of keys' scopes (CONTRACT: Keys, scopes and origins), from where they
// are declared: the scopes' names and meanings (src/model/scopes.ts), and what each root field
// needs, its `needs(...)`, read by src/schema/scopes.ts' fieldScopes as the HTTP server reads it
// for a REST route (a query field that says nothing needs `read`, "any key" needs none).
import { scopeMeanings, scopeNames, type Scope } from "../../model/scopes";
import { schema } from "../../schema";
import { fieldScopes, neededOf, queryDefaultScope, rootTypeOf, type NeededScope } from "../../schema/scopes";

/** The scopes a key needs to run the root field ("Mutation.createVehicle"), as a REST route does: none for "any key". */
export const operationScopes = (operation: string): Scope[] => fieldScopes(schema, operation);

/** "`read`: every query, ...": a scope with its meaning. */
const scopeWithMeaning = (scope: Scope) => `\`${scope}\`: ${scopeMeanings[scope]}`;

/** Every scope with its meaning, in their declared order: a Markdown list. */
export const scopesWithMeanings = () => scopeNames.map((scope) => `- ${scopeWithMeaning(scope)}`).join("\n");

/** What a key needs for a REST operation: "Needs the `write` scope: every change of ...". */
export function neededText(scopes: readonly Scope[]): string {
  if (scopes.length === 0) return "Needs no scope: any valid key may run it.";
  if (scopes.length === 1) return `Needs the \`${scopes[0]}\` scope: ${scopeMeanings[scopes[0]]}.`;
  return `Needs the scopes ${scopes.map((scope) => `\`${scope}\``).join(" and ")}.`;
}

const listed = (names: string[]) => names.map((name) => `\`${name}\``).join(", ");

/**
 * What /graphql's root fields need: every query field `read` but the ones that say otherwise,
 * and each mutation (and subscription) field its own scope, grouped by scope.
 */
export function graphqlScopesText(): string {
  const parts: string[] = [];
  for (const root of ["Query", "Mutation", "Subscription"] as const) {
    const fields = Object.values(rootTypeOf(schema, root)?.getFields() ?? {});
    if (fields.length === 0) continue;
    const byScope = new Map<NeededScope, string[]>();
    for (const field of fields) {
      const scope = neededOf(root, field);
      if (root === "Query" && scope === queryDefaultScope) continue;
      byScope.set(scope, [...(byScope.get(scope) ?? []), field.name]);
    }
    const groups = [...byScope].map(([scope, names]) => `${listed(names)}: ${scope === "any key" ? "any key" : `\`${scope}\``}`);
    if (root !== "Query") parts.push(`${root.toLowerCase()} fields: ${groups.join("; ")}`);
    else parts.push(`every query field needs \`${queryDefaultScope}\`${groups.length > 0 ? ` (but ${groups.join("; ")})` : ""}`);
  }
  return `${parts.join("; ")}.`;
}
