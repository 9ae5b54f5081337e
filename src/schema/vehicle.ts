// Vehicle type, its queries and mutations. Inputs use the request field names of SPEC 2.1;
// the Vehicle type uses the response names (carType, generalInspection, ...).
import { builder } from "./builder";
import {
  createVehicle,
  deleteVehicle,
  findVehicle,
  listVehicles,
  sortOrders,
  updateVehicle,
  vehicleSortFields,
} from "../resolvers/vehicles";
import { pageComplexity } from "../resolvers/pages";
import { pageArgs, pageType } from "./page";
import { searchableFieldNames, vehicleFields, type VehicleAsRead, type VehicleField, type VehicleInput } from "../model/vehicleFields";
import { needs } from "./scopes";

/** The response field's description: what it holds, and its request name where that differs. */
const responseDescription = (field: VehicleField) =>
  field.request === field.response ? field.description : `${field.description} Request field \`${field.request}\`.`;

/** The input field's description: what it holds and the rules of its kind. */
function inputDescription(field: VehicleField, { create }: { create: boolean }): string {
  switch (field.kind) {
    case "plate":
      return `${field.description} Non-empty after trimming; max ${field.max} after trimming${create ? "" : "; never null"}.`;
    case "text":
      return `${field.description} Max ${field.max}.`;
    case "date":
      return `${field.description} A real calendar date, or null.`;
    case "flag":
      return `${field.description} Never null.`;
  }
}

export const VehicleType = builder.objectRef<VehicleAsRead>("Vehicle").implement({
  fields: (t) => {
    const fields: Record<string, ReturnType<typeof t.exposeInt>> = { id: t.exposeInt("id") };
    for (const field of vehicleFields) {
      // `expose` keeps graphql-js's default resolver: the value is read as it is stored.
      fields[field.response] = t.expose(field.response as "plate", {
        type: field.kind === "flag" ? "Boolean" : "String",
        nullable: field.kind !== "plate" && field.kind !== "flag",
        description: responseDescription(field),
      } as never);
    }
    fields.createdAt = t.expose("createdAt", { type: "DateTime" }) as never;
    fields.updatedAt = t.expose("updatedAt", { type: "DateTime" }) as never;
    return fields;
  },
});

const VehiclePageType = pageType<VehicleAsRead>("VehiclePage", VehicleType);

const VehicleSortFieldEnum = builder.enumType("VehicleSortField", { values: vehicleSortFields });
const SortOrderEnum = builder.enumType("SortOrder", { values: sortOrders });

builder.queryFields((t) => ({
  vehicle: t.field({
    type: VehicleType,
    nullable: true,
    description: "One vehicle of the key's network (NOT_FOUND otherwise).",
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, { id }, ctx) => findVehicle(ctx, id),
  }),
  vehicles: t.field({
    type: VehiclePageType,
    description:
      `A page of the network's vehicles. search: case-insensitive substring of ${searchableFieldNames("response")}. ` +
      "Sorted by sortField (ties by id, nulls last), else by id.",
    args: {
      search: t.arg.string(),
      sortField: t.arg({ type: VehicleSortFieldEnum }),
      sortOrder: t.arg({ type: SortOrderEnum, description: "Default asc." }),
      ...pageArgs(t.arg),
    },
    complexity: pageComplexity,
    resolve: (_root, args, ctx) => listVehicles(ctx, args),
  }),
}));

type SchemaTypes = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer Types> ? Types : never;

/** The vehicle's input fields, by request name: only `plate` of a create is required. */
const vehicleInputFields = (t: PothosSchemaTypes.InputFieldBuilder<SchemaTypes, "InputObject">, { create }: { create: boolean }) =>
  Object.fromEntries(
    vehicleFields.map((field) => {
      const options = { required: create && field.kind === "plate", description: inputDescription(field, { create }) };
      return [field.request, field.kind === "flag" ? t.boolean(options) : t.string(options)];
    }),
  );

const CreateVehicleInput = builder.inputType("CreateVehicleInput", {
  fields: (t) => vehicleInputFields(t, { create: true }),
});

const UpdateVehicleInput = builder.inputType("UpdateVehicleInput", {
  description: "Only the fields sent are changed.",
  fields: (t) => vehicleInputFields(t, { create: false }),
});

builder.mutationFields((t) => ({
  createVehicle: t.field({
    extensions: needs("write"),
    type: VehicleType,
    args: { input: t.arg({ type: CreateVehicleInput, required: true }) },
    resolve: (_root, { input }, ctx) => createVehicle(ctx, input as VehicleInput),
  }),
  updateVehicle: t.field({
    extensions: needs("write"),
    type: VehicleType,
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: UpdateVehicleInput, required: true }) },
    resolve: (_root, { id, input }, ctx) => updateVehicle(ctx, id, input as VehicleInput),
  }),
  deleteVehicle: t.field({
    extensions: needs("write"),
    type: VehicleType,
    description: "Deletes the vehicle and returns it as it was.",
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, { id }, ctx) => deleteVehicle(ctx, id),
  }),
}));
