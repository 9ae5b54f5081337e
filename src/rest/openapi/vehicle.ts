// The vehicle's schemas and examples, derived from the field table (src/model/vehicleFields.ts):
// the response record, the flat request fields, and the values examples show.
import { vehicleFields, type VehicleField } from "../../model/vehicleFields";
import { schemaRef } from "./refs";
import type { Schema } from "./types";

/** The other name of a field, where requests and responses name it differently. */
const otherName = (field: VehicleField, side: "request" | "response") =>
  field.request === field.response ? "" : ` (${side} field \`${field[side]}\`)`;

/** A vehicle field as a response holds it. */
function responseProperty(field: VehicleField): Schema {
  const description = `${field.description}${otherName(field, "request")}`;
  switch (field.kind) {
    case "plate":
      return { type: "string", maxLength: field.max, description: `${description} Trimmed.` };
    case "text":
      return { type: ["string", "null"], description };
    case "date":
      return { type: ["string", "null"], format: "date", description };
    case "flag":
      return { type: "boolean", description: `${description} Default false.` };
  }
}

/**
 * What the server accepts for a plate, as a pattern: after trimming (JavaScript's trim, the
 * whitespace of `\s`) 1 to `max` characters without NUL. A maxLength would count the spaces
 * the server trims away.
 */
export const platePattern = (max: number) =>
  `^\\s*[^\\s\\u0000]${max > 1 ? `(?:[^\\u0000]{0,${max - 2}}[^\\s\\u0000])?` : ""}\\s*$`;

/** A vehicle field as a request sends it. */
function requestProperty(field: VehicleField): Schema {
  const description = `${field.description}${otherName(field, "response")}`;
  switch (field.kind) {
    case "plate":
      return {
        type: "string",
        // Trimmed before it is checked: surrounding spaces do not count against the maximum.
        pattern: platePattern(field.max),
        description: `${description} Trimmed; must not be empty after trimming; at most ${field.max} characters after trimming; never null.`,
      };
    case "text":
      return { type: ["string", "null"], maxLength: field.max, description };
    case "date":
      return {
        type: ["string", "null"],
        format: "date",
        pattern: "^\\d{4}-\\d{2}-\\d{2}$",
        description: `${description} A real calendar date YYYY-MM-DD (no 2026-02-30), or null.`,
      };
    case "flag":
      return { ...schemaRef("Flag"), description: `${description} Never null.` };
  }
}

export const vehicleExample = {
  id: 42,
  ...Object.fromEntries(vehicleFields.map((field) => [field.response, field.example])),
  createdAt: "2026-11-21T22:10:00.000Z",
  updatedAt: "2026-11-21T22:15:31.412Z",
};

export const vehicleRequestExample = Object.fromEntries(vehicleFields.map((field) => [field.request, field.example]));

/** The vehicle's schemas: the record as answered, and the flat fields as sent. */
export const vehicleSchemas: Record<string, Schema> = {
  // --- response
  Vehicle: {
    type: "object",
    description: "A vehicle record. Absent values are null; wanted and synced are always booleans.",
    required: ["id", ...vehicleFields.map((field) => field.response), "createdAt", "updatedAt"],
    properties: {
      id: { type: "integer", minimum: 1, description: "Identifier; the `{vehicle}` path segment." },
      ...Object.fromEntries(vehicleFields.map((field) => [field.response, responseProperty(field)])),
      createdAt: { type: "string", format: "date-time" },
      updatedAt: { type: "string", format: "date-time" },
    },
    additionalProperties: false,
    example: vehicleExample,
  },
  VehicleResource: {
    type: "object",
    required: ["data"],
    properties: { data: schemaRef("Vehicle") },
    additionalProperties: false,
  },

  // --- request (flat JSON, request field names of SPEC 2.1)
  Flag: {
    description: "A boolean; `0` and `1` are accepted for false and true. null or any other value: 422.",
    oneOf: [{ type: "boolean" }, { type: "integer", enum: [0, 1] }],
  },
  VehicleFields: {
    type: "object",
    description:
      "Vehicle fields as sent (flat, not wrapped). Lengths count characters (Unicode code points). " +
      "A field of the wrong type is a 422 for that field. `network`, `network_id` and `networkId` " +
      "are prohibited (422: the network comes from the API key). Other unknown fields are ignored.",
    properties: {
      ...Object.fromEntries(vehicleFields.map((field) => [field.request, requestProperty(field)])),
    },
    // Prohibited names, in JSON Schema terms; the server answers 422 for each one sent.
    propertyNames: { not: { enum: ["network", "network_id", "networkId"] } },
    additionalProperties: true,
  },
  VehicleCreate: {
    description: "Create: `plate` is required; every other field is optional.",
    allOf: [schemaRef("VehicleFields")],
    required: ["plate"],
  },
  VehicleUpdate: {
    description: "PUT and PATCH alike: every field is optional and only the fields sent change.",
    allOf: [schemaRef("VehicleFields")],
  },
};
