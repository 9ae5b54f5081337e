// The limits of a GraphQL operation (src/config/limits.ts), the same on every path: the known
// queries, Yoga's pipeline and SOFA's REST operations. A document is parsed within its length and
// token limits (so parsing never recurses deeper than the tokens allow), then measured: depth,
// aliases and directives with graphql-armor's rules, root fields of a mutation, and the cost of
// the operation with its variables with Pothos' complexity plugin. A refusal is a GraphQLError
// with code BAD_USER_INPUT, `extensions.limit` naming the limit, and HTTP status 400.
import {
  GraphQLError,
  Kind,
  parse,
  validate,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionNode,
  type ValidationRule,
  TypeInfo,
  visit,
  visitWithTypeInfo,
} from "graphql";
import { maxAliasesRule } from "@escape.tech/graphql-armor-max-aliases";
import { maxDepthRule } from "@escape.tech/graphql-armor-max-depth";
import { maxDirectivesRule } from "@escape.tech/graphql-armor-max-directives";
import { complexityFromQuery } from "@pothos/plugin-complexity";
import { writeCost, type Limits } from "../config/limits";
import { ErrorCode } from "../errors";

export type OperationLimits = Pick<
  Limits,
  | "graphqlMaxDocumentLength"
  | "graphqlMaxTokens"
  | "graphqlMaxDepth"
  | "graphqlMaxAliases"
  | "graphqlMaxDirectives"
  | "graphqlMaxRootFields"
  | "graphqlMaxCost"
>;

type LimitKind = "documentLength" | "tokens" | "depth" | "aliases" | "directives" | "rootFields" | "cost";

/** A document over a limit: refused with 400 before anything runs. */
export function limitRefusal(limit: LimitKind, max: number, message: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code: ErrorCode.BAD_USER_INPUT, limit, max, http: { status: 400 } } });
}

/** Whether an error is a refusal of the document by one of these limits. */
const isLimitRefusal = (error: GraphQLError) => typeof error.extensions?.limit === "string";

/** The operation a request runs, with the fragments it may use: what the cost is measured on. */
function operationDocument(document: DocumentNode, operationName: string | null | undefined): DocumentNode | null {
  const operations = document.definitions.filter((definition): definition is OperationDefinitionNode => definition.kind === Kind.OPERATION_DEFINITION);
  const operation = operationName ? operations.find((candidate) => candidate.name?.value === operationName) : operations.length === 1 ? operations[0] : undefined;
  if (!operation) return null;
  return { ...document, definitions: [operation, ...document.definitions.filter((definition) => definition.kind === Kind.FRAGMENT_DEFINITION)] };
}

/** The root fields of an operation, counted through its fragments (each named fragment once). */
function rootFieldCount(operation: OperationDefinitionNode, fragment: (name: string) => FragmentDefinitionNode | null | undefined): number {
  let count = 0;
  const seen = new Set<string>();
  const countIn = (selections: readonly SelectionNode[]) => {
    for (const selection of selections) {
      if (selection.kind === Kind.FIELD) count += 1;
      else if (selection.kind === Kind.INLINE_FRAGMENT) countIn(selection.selectionSet.selections);
      else if (!seen.has(selection.name.value)) {
        seen.add(selection.name.value);
        const definition = fragment(selection.name.value);
        if (definition) countIn(definition.selectionSet.selections);
      }
    }
  };
  countIn(operation.selectionSet.selections);
  return count;
}

interface CostShape {
  /** The operation with its fragments. */
  operation: DocumentNode;
  /** The variables the cost depends on: those in arguments of fields whose cost is computed. */
  variables: string[];
  costs: Map<string, number | null>;
}

const maxCostsPerDocument = 64;
/**
 * Costs are kept only for short keys: the variables a cost depends on include free text (a
 * search term), and 64 near-megabyte keys per kept document would be memory kept for one client.
 */
const maxCostKeyLength = 256;

/**
 * The key of a cost among a document's: the values of the variables it depends on, each `[value]`
 * when sent and `[]` when absent. An absent variable and an explicit null differ: a default
 * written in the document applies only to an absent one (`$p: Int = 100` is 100 when absent,
 * null when sent as null), so they may cost very different amounts.
 */
function costKey(names: readonly string[], variables: Record<string, unknown> | null | undefined): string {
  return JSON.stringify(names.map((name) => (variables != null && Object.hasOwn(variables, name) ? [variables[name]] : [])));
}

/** The variables used in arguments of fields whose complexity is a function of their arguments. */
function costVariables(schema: GraphQLSchema, operation: DocumentNode): string[] {
  const found = new Set<string>();
  const typeInfo = new TypeInfo(schema);
  visit(
    operation,
    visitWithTypeInfo(typeInfo, {
      Field(node) {
        if (typeof typeInfo.getFieldDef()?.extensions?.complexity !== "function") return;
        for (const argument of node.arguments ?? []) {
          visit(argument.value, { Variable: (variable) => void found.add(variable.name.value) });
        }
      },
    }),
  );
  return [...found].sort();
}

/** Root fields of each mutation: each is a write of its own. */
function rootFieldsRule(max: number, report: (error: GraphQLError) => void): ValidationRule {
  return (context) => ({
    OperationDefinition(operation) {
      if (operation.operation !== "mutation") return;
      const count = rootFieldCount(operation, (name) => context.getFragment(name));
      if (count > max) report(limitRefusal("rootFields", max, `A mutation may have at most ${max} root fields; this one has ${count}.`));
    },
  });
}

export function operationLimits(schema: GraphQLSchema, limits: OperationLimits) {
  /** The refusal by a structural limit, per document (it does not depend on variables). */
  const structureRefusals = new WeakMap<DocumentNode, GraphQLError | null>();
  /** Per document and operation name: the variables the cost depends on, and the costs seen. */
  const costShapes = new WeakMap<DocumentNode, Map<string, CostShape>>();

  function structureRefusal(document: DocumentNode): GraphQLError | null {
    let refusal = structureRefusals.get(document);
    if (refusal !== undefined) return refusal;
    const found: GraphQLError[] = [];
    const report = (error: GraphQLError) => found.push(error);
    // armor's rules report through onReject; they would throw their own error otherwise.
    const reject = (limit: LimitKind, max: number, what: string) => ({
      n: max,
      propagateOnRejection: false,
      onReject: [() => report(limitRefusal(limit, max, `The document exceeds the limit of ${max} ${what}.`))],
    });
    validate(
      schema,
      document,
      [
        maxDepthRule({ ...reject("depth", limits.graphqlMaxDepth, "levels of nesting"), ignoreIntrospection: true }),
        // Aliases of __typename count too: armor lets them pass by default, and thousands of them were an attack.
        maxAliasesRule({ ...reject("aliases", limits.graphqlMaxAliases, "aliases"), allowList: [] }),
        maxDirectivesRule(reject("directives", limits.graphqlMaxDirectives, "directives")),
        rootFieldsRule(limits.graphqlMaxRootFields, report),
      ],
      // The first refusal is enough.
      { maxErrors: 1 },
    );
    refusal = found[0] ?? null;
    structureRefusals.set(document, refusal);
    return refusal;
  }

  /**
   * The operation's cost, or null when it cannot be measured (its variables do not fit: execution
   * reports that). Costs are kept per document by the values of the few variables they depend
   * on (a page's perPage), so a document sent again costs a look-up.
   */
  function costOf(document: DocumentNode, operationName: string | null | undefined, variables: Record<string, unknown> | null | undefined): number | null {
    const name = operationName ?? "";
    let byName = costShapes.get(document);
    if (!byName) costShapes.set(document, (byName = new Map()));
    let shape = byName.get(name);
    if (!shape) {
      const operation = operationDocument(document, operationName);
      if (!operation) return null;
      byName.set(name, (shape = { operation, variables: costVariables(schema, operation), costs: new Map() }));
    }
    const key = shape.variables.length === 0 ? "" : costKey(shape.variables, variables);
    let cost = shape.costs.get(key);
    if (cost !== undefined) return cost;
    const definition = shape.operation.definitions[0] as OperationDefinitionNode;
    const fragments = new Map(
      shape.operation.definitions.flatMap((each) => (each.kind === Kind.FRAGMENT_DEFINITION ? [[each.name.value, each] as const] : [])),
    );
    const writes = definition.operation === "mutation" ? rootFieldCount(definition, (fragment) => fragments.get(fragment)) : 0;
    try {
      cost = complexityFromQuery(shape.operation, { schema, variables: variables ?? {} }).complexity + writes * writeCost;
    } catch {
      cost = null;
    }
    if (shape.costs.size < maxCostsPerDocument && key.length <= maxCostKeyLength) shape.costs.set(key, cost);
    return cost;
  }

  return {
    structureRefusal,

    /**
     * Parses a client's document within the length and token limits. Throws the refusal, or
     * graphql-js's syntax error, as a GraphQLError with HTTP status 400.
     */
    parse(text: string): DocumentNode {
      const max = limits.graphqlMaxDocumentLength;
      if (text.length > max) throw limitRefusal("documentLength", max, `The document exceeds the limit of ${max} characters.`);
      try {
        return parse(text, { maxTokens: limits.graphqlMaxTokens });
      } catch (error) {
        if (error instanceof GraphQLError && /contains more that \d+ tokens/.test(error.message)) {
          throw limitRefusal("tokens", limits.graphqlMaxTokens, `The document exceeds the limit of ${limits.graphqlMaxTokens} tokens.`);
        }
        throw error;
      }
    },

    /**
     * The refusal of a client's document text by the limits that need no schema: length, tokens
     * and structure (depth, aliases, directives, root fields); null when it is within them, or
     * is no document at all (GraphQL's own errors say why). Checked before the document is
     * validated, so that no validation rule walks a document past these limits.
     */
    refusalOfText(text: string): GraphQLError | null {
      let document: DocumentNode;
      try {
        document = this.parse(text);
      } catch (error) {
        return error instanceof GraphQLError && isLimitRefusal(error) ? error : null;
      }
      return structureRefusal(document);
    },

    /**
     * The refusal of an operation by a limit, or its cost when it is within them. The document is
     * a valid one (validated against the schema before).
     */
    measure(document: DocumentNode, operationName: string | null | undefined, variables: Record<string, unknown> | null | undefined): { refusal: GraphQLError } | { cost: number } {
      const refusal = structureRefusal(document);
      if (refusal) return { refusal };
      const cost = costOf(document, operationName, variables) ?? 1;
      const max = limits.graphqlMaxCost;
      if (cost > max) return { refusal: limitRefusal("cost", max, `The operation costs ${cost}, more than the limit of ${max}.`) };
      return { cost };
    },
  };
}

export type OperationLimitsCheck = ReturnType<typeof operationLimits>;
