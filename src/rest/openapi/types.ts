// Just enough OpenAPI 3.1 typing to catch misspelt keys; schemas stay open (JSON Schema 2020-12).
import type { Scope } from "../../model/scopes";

export type Schema = { [keyword: string]: unknown };
/** A $ref; in OpenAPI 3.1 its `description` overrides the referenced object's. */
export interface Reference {
  $ref: string;
  description?: string;
}
export interface Header {
  description: string;
  schema: Schema;
}
export interface MediaType {
  /** None: any bytes (an image). */
  schema?: Schema | Reference;
  example?: unknown;
  examples?: Record<string, { summary: string; value: unknown }>;
}
export interface Response {
  description: string;
  headers?: Record<string, Header | Reference>;
  content?: Record<string, MediaType>;
}
export interface Parameter {
  name: string;
  in: "path" | "query" | "header";
  description: string;
  required?: boolean;
  schema: Schema | Reference;
  example?: unknown;
}
export interface RequestBody {
  description: string;
  required: boolean;
  content: Record<string, MediaType>;
}
export type SecurityRequirement = Record<string, string[]>;
export interface Operation {
  operationId: string;
  tags: string[];
  summary: string;
  description?: string;
  security: SecurityRequirement[];
  parameters?: (Parameter | Reference)[];
  requestBody?: RequestBody | Reference;
  responses: Record<string, Response | Reference>;
  /** The scopes a key needs to run it (an extension; the same as its security requirement's roles). */
  "x-scopes"?: Scope[];
}
/** The fixed fields of a Path Item that hold operations: OpenAPI 3.1's eight methods, in its order. */
export const operationMethods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;
export type Method = (typeof operationMethods)[number];
export type PathItem = { parameters?: (Parameter | Reference)[]; description?: string } & Partial<Record<Method, Operation>>;
export interface Components {
  securitySchemes: Record<string, Schema>;
  schemas: Record<string, Schema>;
  parameters: Record<string, Parameter>;
  requestBodies: Record<string, RequestBody>;
  headers: Record<string, Header>;
  responses: Record<string, Response>;
}
export interface OpenApiDocument {
  openapi: "3.1.0";
  info: { title: string; version: string; description: string; license?: { name: string; identifier: string } };
  servers: { url: string; description: string }[];
  tags: { name: string; description: string }[];
  security: SecurityRequirement[];
  paths: Record<string, PathItem>;
  components: Components;
}
