// Schemas of the routes beside the specification's, generated from the GraphQL types their
// operations answer (as REST sees them, src/rest/sofa.ts): REST passes those objects through
// as they are, so the graph's fields, nullability and descriptions are the contract's.
import {
  getNamedType,
  isEnumType,
  isListType,
  isNonNullType,
  isObjectType,
  type GraphQLArgument,
  type GraphQLInputType,
  type GraphQLOutputType,
  type GraphQLSchema,
} from "graphql";
import { parameterNamesOf } from "../queryParameters";
import { schemaRef } from "./refs";
import type { Parameter, Schema } from "./types";

const scalars: Record<string, Schema> = {
  Int: { type: "integer" },
  Float: { type: "number" },
  String: { type: "string" },
  ID: { type: "string" },
  Boolean: { type: "boolean" },
  DateTime: { type: "string", format: "date-time" },
  EventData: { type: "object", description: "What it holds depends on the event's type." },
};

function fail(message: string): never {
  throw new Error(`OpenAPI document: ${message}`);
}

/** A property of this GraphQL type: objects as $refs (added to `out`), null where GraphQL allows it. */
function propertyOf(type: GraphQLOutputType, schema: GraphQLSchema, out: Record<string, Schema>): Schema {
  const nullable = !isNonNullType(type);
  const inner = isNonNullType(type) ? type.ofType : type;
  if (isListType(inner)) {
    const list: Schema = { type: nullable ? ["array", "null"] : "array", items: propertyOf(inner.ofType, schema, out) };
    return list;
  }
  const named = getNamedType(inner);
  if (isObjectType(named)) {
    addObjectSchemas(schema, named.name, out);
    const ref: Schema = { ...schemaRef(named.name) };
    return nullable ? { oneOf: [ref, { type: "null" }] } : ref;
  }
  const base: Schema = isEnumType(named) ? { type: "string", enum: named.getValues().map((value) => value.name) } : (scalars[named.name] ?? fail(`no JSON type for the scalar ${named.name}`));
  const jsonType = base.type as string;
  return { ...base, type: nullable ? [jsonType, "null"] : jsonType, ...(base.enum && nullable ? { enum: [...(base.enum as string[]), null] } : {}) };
}

/** The schema of the object type `name` and of every object type it holds, into `out` by type name. */
export function addObjectSchemas(schema: GraphQLSchema, name: string, out: Record<string, Schema>): void {
  if (name in out) return;
  const type = schema.getType(name);
  if (!isObjectType(type)) fail(`${name} is no object type of the schema`);
  const properties: Record<string, Schema> = {};
  out[name] = {};
  for (const field of Object.values(type.getFields())) {
    const property = propertyOf(field.type, schema, out);
    properties[field.name] = field.description ? { ...property, description: field.description } : property;
  }
  out[name] = {
    type: "object",
    ...(type.description && { description: type.description }),
    required: Object.keys(properties),
    properties,
    additionalProperties: false,
  };
}

/** An argument's type as a parameter's schema: scalars, enums, and lists of them (a repeated parameter). */
function argumentSchema(type: GraphQLInputType): Schema {
  const inner = isNonNullType(type) ? type.ofType : type;
  if (isListType(inner)) return { type: "array", items: argumentSchema(inner.ofType) };
  const named = getNamedType(inner);
  if (isEnumType(named)) return { type: "string", enum: named.getValues().map((value) => value.name) };
  return scalars[named.name] ?? fail(`no JSON type for the scalar ${named.name}`);
}

/**
 * The query parameters of a GET route, from its operation's arguments the path does not give:
 * each under its snake_case name, and its GraphQL name as an alias where that differs
 * (src/rest/queryParameters.ts).
 */
export function queryParametersOf(args: readonly GraphQLArgument[], fromPath: ReadonlySet<string>): Parameter[] {
  return args
    .filter((arg) => !fromPath.has(arg.name))
    .flatMap((arg) => {
      const [name, ...aliases] = parameterNamesOf(arg.name);
      const schema = argumentSchema(arg.type);
      const list = schema.type === "array" ? ` Repeat the parameter for each value (\`${name}=a&${name}=b\`, or \`${name}[]=a\`).` : "";
      const main: Parameter = {
        name,
        in: "query",
        ...(isNonNullType(arg.type) && { required: true }),
        description: `${arg.description ?? `The operation's argument \`${arg.name}\`.`}${list}`,
        schema,
      };
      return [main, ...aliases.map((alias): Parameter => ({ name: alias, in: "query", description: `Alias of \`${name}\`.`, schema }))];
    });
}
