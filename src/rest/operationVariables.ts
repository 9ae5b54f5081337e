// The variables of a REST operation from the values the REST layer has read and typed
// (src/rest/variables.ts, src/rest/queryParameters.ts, the path's segments), made as SOFA's
// route handler made them from path parameters (sofa-api 0.18 parse.js `parseVariable`), so a
// request runs with the very variables it ran with when SOFA's handlers were called:
// - an absent value, undefined or null, is no variable (the argument is absent, not null);
// - a scalar is written in its external form (`serialize`): the REST layer holds values as
//   GraphQL coerced them (a DateTime as a Date), and execute coerces variables again from the
//   external form (a DateTime from its ISO text); Booleans are true for true and "true" only;
// - an input object is passed as it is: the REST layer built it field by field, and execute
//   coerces it (not serialized to be parsed again);
// - an enum's value and anything else as it is; a list item by item, a single value as a list
//   of one.
import {
  GraphQLBoolean,
  GraphQLError,
  isInputObjectType,
  isScalarType,
  Kind,
  type GraphQLSchema,
  type TypeNode,
  type VariableDefinitionNode,
} from "graphql";

type Convert = (value: unknown) => unknown;

function converterOf(type: TypeNode, schema: GraphQLSchema): Convert {
  switch (type.kind) {
    case Kind.NON_NULL_TYPE:
      return converterOf(type.type, schema);
    case Kind.LIST_TYPE: {
      const item = converterOf(type.type, schema);
      return (value) => (Array.isArray(value) ? value : [value]).map(item);
    }
    case Kind.NAMED_TYPE: {
      const named = schema.getType(type.name.value);
      if (named === GraphQLBoolean) return (value) => GraphQLBoolean.serialize(value === "true" || value === true);
      if (isScalarType(named)) return (value) => named.serialize(value);
      if (isInputObjectType(named)) return (value) => (value && typeof value === "object" ? value : JSON.parse(String(value)));
      return (value) => value;
    }
  }
}

export type Variables = Record<string, unknown>;

/**
 * The function that makes an operation's variables from typed values by argument name. It
 * throws a GraphQLError (a request error: no resolver ran) for a value its scalar refuses.
 */
export function operationVariables(definitions: readonly VariableDefinitionNode[], schema: GraphQLSchema): (values: Variables) => Variables {
  const converters = definitions.map((definition) => ({ name: definition.variable.name.value, convert: converterOf(definition.type, schema) }));
  return (values) => {
    const variables: Variables = {};
    for (const { name, convert } of converters) {
      const value = Object.hasOwn(values, name) ? values[name] : undefined;
      if (value === undefined || value === null) continue;
      try {
        variables[name] = convert(value);
      } catch (error) {
        throw new GraphQLError(error instanceof Error ? error.message : String(error));
      }
    }
    return variables;
  };
}
