// Vehicle type, its queries and mutations. Inputs use the request field names of SPEC 2.1;
// the Vehicle type uses the response names (carType, generalInspection, ...).
import { builder } from "./builder";
import {
  createVehicle,
  deleteVehicle,
  findVehicle,
  listVehicles,
  perPageDefault,
  perPageMax,
  sortOrders,
  updateVehicle,
  vehicleSortFields,
  type VehiclePage,
  type PageMeta,
} from "../resolvers/vehicles";

export const VehicleType = builder.prismaObject("Vehicle", {
  fields: (t) => ({
    id: t.exposeInt("id"),
    plate: t.exposeString("plate"),
    carType: t.exposeString("carType", { nullable: true, description: "Make or type (request field `cartyp`)." }),
    car: t.exposeString("car", { nullable: true, description: "Model or name." }),
    owner: t.exposeString("owner", { nullable: true }),
    generalInspection: t.exposeString("generalInspection", {
      nullable: true,
      description: "General inspection date YYYY-MM-DD (request field `tuv`).",
    }),
    comment: t.exposeString("comment", { nullable: true }),
    color: t.exposeString("color", { nullable: true }),
    wanted: t.exposeBoolean("wanted"),
    wantedReason: t.exposeString("wantedReason", { nullable: true }),
    synced: t.exposeBoolean("synced"),
    syncId: t.exposeString("syncId", { nullable: true }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    updatedAt: t.expose("updatedAt", { type: "DateTime" }),
  }),
});

const PageMetaType = builder.objectRef<PageMeta>("PageMeta").implement({
  fields: (t) => ({
    currentPage: t.exposeInt("currentPage"),
    perPage: t.exposeInt("perPage"),
    total: t.exposeInt("total"),
    lastPage: t.exposeInt("lastPage"),
    from: t.exposeInt("from", { nullable: true, description: "Position of the first item of the page; null when empty." }),
    to: t.exposeInt("to", { nullable: true, description: "Position of the last item of the page; null when empty." }),
  }),
});

const VehiclePageType = builder.objectRef<VehiclePage>("VehiclePage").implement({
  fields: (t) => ({
    // The page's size is counted once, by `vehicles` below.
    data: t.field({ type: [VehicleType], complexity: { field: 1, multiplier: 1 }, resolve: (page) => page.data }),
    meta: t.field({ type: PageMetaType, resolve: (page) => page.meta }),
  }),
});

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
      "A page of the network's vehicles. search: case-insensitive substring of plate, car, car type, owner, color " +
      "and wanted reason. Sorted by sortField (ties by id, nulls last), else by id.",
    args: {
      search: t.arg.string(),
      sortField: t.arg({ type: VehicleSortFieldEnum }),
      sortOrder: t.arg({ type: SortOrderEnum, description: "Default asc." }),
      page: t.arg.int({ description: "1-based, default 1." }),
      perPage: t.arg.int({ description: `1..100, default ${perPageDefault}.` }),
    },
    // Each vehicle of the page costs its selected fields; an out-of-range perPage is refused by
    // the resolver with its own message, so it counts as the most the resolver allows.
    complexity: ({ perPage }) => ({ field: 1, multiplier: Math.min(Math.max(perPage ?? perPageDefault, 1), perPageMax) }),
    resolve: (_root, args, ctx) => listVehicles(ctx, args),
  }),
}));

type SchemaTypes = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer Types> ? Types : never;

/** The optional vehicle fields, shared by create and update. */
const vehicleFields = (t: PothosSchemaTypes.InputFieldBuilder<SchemaTypes, "InputObject">) => ({
  cartyp: t.string({ description: "Make or type; max 255." }),
  car: t.string({ description: "Model or name; max 255." }),
  owner: t.string({ description: "Max 255." }),
  tuv: t.string({ description: "General inspection date YYYY-MM-DD, or null." }),
  comment: t.string({ description: "Max 5000." }),
  color: t.string({ description: "Max 255." }),
  wanted: t.boolean(),
  wanted_reason: t.string({ description: "Max 1000." }),
  synced: t.boolean(),
  sync_id: t.string({ description: "Max 255." }),
});

const CreateVehicleInput = builder.inputType("CreateVehicleInput", {
  fields: (t) => ({
    plate: t.string({ required: true, description: "Non-empty after trimming; max 32." }),
    ...vehicleFields(t),
  }),
});

const UpdateVehicleInput = builder.inputType("UpdateVehicleInput", {
  description: "Only the fields sent are changed.",
  fields: (t) => ({
    plate: t.string({ description: "Non-empty after trimming; max 32; never null." }),
    ...vehicleFields(t),
  }),
});

builder.mutationFields((t) => ({
  createVehicle: t.field({
    type: VehicleType,
    args: { input: t.arg({ type: CreateVehicleInput, required: true }) },
    resolve: (_root, { input }, ctx) => createVehicle(ctx, input),
  }),
  updateVehicle: t.field({
    type: VehicleType,
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: UpdateVehicleInput, required: true }) },
    resolve: (_root, { id, input }, ctx) => updateVehicle(ctx, id, input),
  }),
  deleteVehicle: t.field({
    type: VehicleType,
    description: "Deletes the vehicle and returns it as it was.",
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, { id }, ctx) => deleteVehicle(ctx, id),
  }),
}));
