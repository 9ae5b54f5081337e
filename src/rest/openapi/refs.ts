// Building blocks: $refs into the components, and JSON bodies.
import type { MediaType, Reference, Schema } from "./types";

export const schemaRef = (name: string): Reference => ({ $ref: `#/components/schemas/${name}` });
export const parameterRef = (name: string): Reference => ({ $ref: `#/components/parameters/${name}` });
export const responseRef = (name: string): Reference => ({ $ref: `#/components/responses/${name}` });
export const bodyRef = (name: string): Reference => ({ $ref: `#/components/requestBodies/${name}` });
export const headerRef = (name: string): Reference => ({ $ref: `#/components/headers/${name}` });

/** The component name a $ref of this kind points to, or null for another kind or an inline object. */
export function refName(kind: "schemas" | "parameters" | "responses" | "requestBodies" | "headers", value: object): string | null {
  const ref = (value as Partial<Reference>).$ref;
  const prefix = `#/components/${kind}/`;
  return typeof ref === "string" && ref.startsWith(prefix) ? ref.slice(prefix.length) : null;
}

export const jsonContent = (schema: Schema | Reference, example?: unknown): Record<string, MediaType> => ({
  "application/json": example === undefined ? { schema } : { schema, example },
});

export const errorBody = (message: string) => jsonContent(schemaRef("Error"), { message });

/**
 * The media types of /graphql's JSON answers (its errors included), as the Accept header asks:
 * application/graphql-response+json when the client prefers it, else application/json.
 */
export const graphqlMediaTypes = ["application/json", "application/graphql-response+json"] as const;

export const graphqlContent = (schema: Schema | Reference, example?: unknown): Record<string, MediaType> =>
  Object.fromEntries(graphqlMediaTypes.map((mediaType) => [mediaType, example === undefined ? { schema } : { schema, example }]));

/** A refusal at /graphql in GraphQL's shape: `{"errors": [{"message", "extensions": {"code"}}]}`. */
export const graphqlErrorBody = (message: string, code: string, extensions: Record<string, unknown> = {}) =>
  graphqlContent(schemaRef("GraphQLErrors"), { errors: [{ message, extensions: { code, ...extensions } }] });
