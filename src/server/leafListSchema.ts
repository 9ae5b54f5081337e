// The schema graphql-jit compiles against (./compiledExecute.ts): the served schema with each
// list of leaves (Int, Float, String, Boolean, ID, an enum) typed as one opaque value. graphql-jit
// completes every list item through a handler that allocates two closures per item: a duty hours
// report's seconds per officer and period (200 officers by 31 days) made most of the request's
// garbage (figures: docs/performance.md, "GraphQL: lists of leaves compiled as one value"). As
// one value, the resolver's array is answered as it is. The invariant that makes this exact is
// the one of disableLeafSerialization: every resolver returns a leaf in its type's own JSON form,
// and no null inside a list whose items are non-null. Lists of objects and of custom scalars (DateTime, whose values are serialized)
// keep their type. Only execution sees this schema: documents are validated against the served
// one, and documents that introspect it (__schema, __type) are compiled against it unchanged, so
// introspection answers the served types. test/graphql.test.ts compares every query field
// interpreted and compiled.
import { MapperKind, mapSchema } from "@graphql-tools/utils";
import {
  GraphQLNonNull,
  GraphQLScalarType,
  GraphQLSchema,
  SchemaMetaFieldDef,
  TypeMetaFieldDef,
  getNamedType,
  isEnumType,
  isListType,
  isNonNullType,
  isSpecifiedScalarType,
  visit,
  BREAK,
  type DocumentNode,
  type GraphQLOutputType,
} from "graphql";

/** The type a list of leaves has in the compiled schema: the resolver's array, answered as it is. */
export const leafListType = new GraphQLScalarType({
  name: "CompiledLeafList",
  description: "A list of leaves answered as its resolver returned it (execution only; never served).",
  serialize: (value) => value,
});

/** Whether a field's type is a list (nullable or not) of leaves (nullable or not) of a built-in scalar or an enum. */
export function isLeafList(type: GraphQLOutputType): boolean {
  const list = isNonNullType(type) ? type.ofType : type;
  if (!isListType(list)) return false;
  const item = isNonNullType(list.ofType) ? list.ofType.ofType : list.ofType;
  if (isListType(item)) return false;
  const named = getNamedType(item);
  return isEnumType(named) || isSpecifiedScalarType(named);
}

const compiledSchemas = new WeakMap<GraphQLSchema, GraphQLSchema>();

/** The served schema with its lists of leaves as leafListType, made once per schema. */
export function leafListSchemaOf(schema: GraphQLSchema): GraphQLSchema {
  let compiled = compiledSchemas.get(schema);
  if (!compiled) {
    const config = schema.toConfig();
    compiled = mapSchema(new GraphQLSchema({ ...config, types: [...config.types, leafListType] }), {
      [MapperKind.OBJECT_FIELD]: (field) =>
        isLeafList(field.type) ? { ...field, type: isNonNullType(field.type) ? new GraphQLNonNull(leafListType) : leafListType } : field,
    });
    compiledSchemas.set(schema, compiled);
  }
  return compiled;
}

/** Whether a document asks for the schema itself (__schema, __type): it must see the served types. */
export function introspects(document: DocumentNode): boolean {
  let found = false;
  visit(document, {
    Field(node) {
      if (node.name.value !== SchemaMetaFieldDef.name && node.name.value !== TypeMetaFieldDef.name) return undefined;
      found = true;
      return BREAK;
    },
  });
  return found;
}
