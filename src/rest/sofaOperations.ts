// Each REST operation's GraphQL document, built the way SOFA builds the document of its route
// for a root field, through public APIs only: sofa-api's `createSofa` settles the models, the
// ignored types and the depth from our configuration (its defaults included), and
// @graphql-tools/utils' `buildOperationNodeForField`, the function SOFA calls itself, selects
// the field's result and makes one variable per argument. test/sofaOperations.test.ts checks
// that every document is the one SOFA's own router runs for that operation.
//
// Each document is built once, when the app is created, and the same object is run every time:
// compiled queries are kept per document object (src/server/compiledExecute.ts).
import { OperationTypeNode, Kind, type DocumentNode, type GraphQLSchema, type VariableDefinitionNode } from "graphql";
import { buildOperationNodeForField } from "@graphql-tools/utils";
import { createSofa } from "sofa-api";

/** A GraphQL root field, as SOFA names its operations: "Query.vehicles", "Mutation.createVehicle". */
export type SofaOperation = `${"Query" | "Mutation"}.${string}`;

export interface OperationDocument {
  document: DocumentNode;
  /** The operation's name in the document ("vehicles_query"), as SOFA names it. */
  operationName: string;
  /** The root field: the operation's answer is its value. */
  fieldName: string;
  /** One variable per argument of the field, named as the argument. */
  variables: readonly VariableDefinitionNode[];
}

const kinds = { Query: OperationTypeNode.QUERY, Mutation: OperationTypeNode.MUTATION } as const;

/**
 * The document of each operation, over `schema` (the schema as REST sees it), selecting every
 * field of the types in `ignore` (SOFA would select only the id of a "model" type it does not
 * ignore). Fails, when the app is created, for an operation the schema has no root field for.
 */
export function sofaOperationDocuments(
  schema: GraphQLSchema,
  ignore: string[],
  operations: Iterable<SofaOperation>,
): ReadonlyMap<SofaOperation, OperationDocument> {
  const sofa = createSofa({ basePath: "", schema, ignore });
  const documents = new Map<SofaOperation, OperationDocument>();
  for (const operation of new Set(operations)) {
    const [root, fieldName] = operation.split(".") as [keyof typeof kinds, string];
    const rootType = root === "Query" ? schema.getQueryType() : schema.getMutationType();
    if (!kinds[root] || !rootType?.getFields()[fieldName]) throw new Error(`no root field for the REST operation ${operation}`);
    const definition = buildOperationNodeForField({
      kind: kinds[root],
      schema: sofa.schema,
      field: fieldName,
      models: sofa.models,
      ignore: sofa.ignore,
      circularReferenceDepth: sofa.depthLimit,
    });
    documents.set(operation, {
      document: { kind: Kind.DOCUMENT, definitions: [definition] },
      operationName: definition.name!.value,
      fieldName,
      variables: definition.variableDefinitions ?? [],
    });
  }
  return documents;
}
