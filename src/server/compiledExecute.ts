// GraphQL execution through graphql-jit: each operation document is compiled once into a plain
// function, which then runs the same resolvers without graphql-js walking the AST per request
// (a list page resolves ~200 fields). SOFA's route documents and Yoga's parsed documents are
// reused objects, so compiled queries are kept per document object. A document is compiled at
// its second execution: one-off documents (a stream of distinct queries) never pay compilation.
import {
  GraphQLError,
  Kind,
  execute,
  getOperationAST,
  type DocumentNode,
  type ExecutionArgs,
  type ExecutionResult,
  type FieldNode,
  type SelectionSetNode,
} from "graphql";
import { compileQuery, isCompiledQuery, type CompiledQuery } from "graphql-jit";
import { introspects, leafListSchemaOf } from "./leafListSchema";

/**
 * Leaf values are answered as the resolvers return them, without graphql-jit's serializers: its
 * code for a serialized leaf builds the field's error locations and path anew for every value (a
 * report's list of seconds per officer and period, a page's 14 fields per vehicle), garbage that
 * outweighed the report's own work. The invariant that makes this exact: every resolver returns a
 * leaf in its GraphQL type's own JSON form (numbers for Int, booleans for Boolean, strings for
 * String, an enum's name); a custom scalar (DateTime) is still serialized.
 * test/graphql.test.ts runs every query field interpreted and compiled and compares the answers.
 */
const compileOptions = { disableLeafSerialization: true };

/** "seen once", the compiled query, or null when graphql-jit cannot compile the operation. */
type CompileState = "seen" | CompiledQuery | null;

/** Per document (held weakly: entries go with their document), per operation name. */
const compiled = new WeakMap<DocumentNode, Map<string, CompileState>>();

function compiledQueryOf(args: ExecutionArgs): CompiledQuery | null {
  let byOperation = compiled.get(args.document);
  if (!byOperation) compiled.set(args.document, (byOperation = new Map()));
  const operationName = args.operationName ?? "";
  let query = byOperation.get(operationName);
  if (query === undefined) {
    byOperation.set(operationName, "seen");
    return null;
  }
  if (query === "seen") {
    // Lists of leaves compile as one value each (./leafListSchema.ts); introspection sees the served types.
    const compiledAgainst = introspects(args.document) ? args.schema : leafListSchemaOf(args.schema);
    const result = compileQuery(compiledAgainst, args.document, args.operationName ?? undefined, compileOptions);
    // A document graphql-jit cannot compile runs on graphql-js, which reports its errors.
    query = isCompiledQuery(result) ? result : null;
    byOperation.set(operationName, query);
  }
  return query;
}

/** The fields of a selection set answering to a response key, through fragments. */
function fieldsByKey(document: DocumentNode, selectionSet: SelectionSetNode, key: string, found: FieldNode[] = []): FieldNode[] {
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) {
      if ((selection.alias ?? selection.name).value === key) found.push(selection);
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      fieldsByKey(document, selection.selectionSet, key, found);
    } else {
      const fragment = document.definitions.find(
        (definition) => definition.kind === Kind.FRAGMENT_DEFINITION && definition.name.value === selection.name.value,
      );
      if (fragment?.kind === Kind.FRAGMENT_DEFINITION) fieldsByKey(document, fragment.selectionSet, key, found);
    }
  }
  return found;
}

/** The field nodes at a response path, as graphql-js attaches them to a field's error. */
function fieldNodesAt(args: ExecutionArgs, path: ReadonlyArray<string | number>): FieldNode[] {
  const operation = getOperationAST(args.document, args.operationName);
  let nodes: FieldNode[] = [];
  let selectionSets: SelectionSetNode[] = operation ? [operation.selectionSet] : [];
  for (const key of path) {
    if (typeof key === "number") continue;
    nodes = selectionSets.flatMap((selectionSet) => fieldsByKey(args.document, selectionSet, key));
    selectionSets = nodes.flatMap((node) => (node.selectionSet ? [node.selectionSet] : []));
  }
  return nodes;
}

/**
 * graphql-jit's field errors carry locations but no AST nodes, and Yoga rebuilds every error
 * from its nodes: without them the locations would be lost. Give them the nodes graphql-js
 * would have given, and the result graphql-js's order of keys (errors first), so an answer is
 * the same text whichever engine ran it.
 */
function likeGraphqlJs(args: ExecutionArgs, result: ExecutionResult): ExecutionResult {
  if (!result.errors) return result;
  const { errors: found, data, ...rest } = result;
  const errors = found.map((error) =>
    error.path && !error.nodes
      ? new GraphQLError(error.message, {
          nodes: fieldNodesAt(args, error.path),
          path: error.path,
          originalError: error.originalError,
          extensions: error.extensions,
        })
      : error,
  );
  return { errors, data, ...rest };
}

/** A drop-in for graphql-js `execute`. */
export function compiledExecute(args: ExecutionArgs): ExecutionResult | Promise<ExecutionResult> {
  const query = compiledQueryOf(args);
  if (!query) return execute(args);
  const result = query.query(args.rootValue, args.contextValue, args.variableValues ?? {}) as
    | ExecutionResult
    | Promise<ExecutionResult>;
  return result instanceof Promise ? result.then((done) => likeGraphqlJs(args, done)) : likeGraphqlJs(args, result);
}
