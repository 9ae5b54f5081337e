// Vehicle register of the request's network: list, read, create, update, delete.
import type { Context } from "../context";
import type { Vehicle } from "../generated/prisma/client";
import type { VehicleOrder } from "../db/store";
import { notFound } from "../errors";
import { Validator, messages, textFault } from "./validation";
import { searchNeedle, searchTextOf, vehicleChanges, type VehicleInput } from "./vehicleInput";
import { unsetValueOf, vehicleFields, vehicleSortFields, type VehicleFieldValues, type VehicleSortField } from "../model/vehicleFields";

export { vehicleSortFields, type VehicleSortField };
export const sortOrders = ["asc", "desc"] as const;
export type SortOrder = (typeof sortOrders)[number];

export const perPageDefault = 15;
export const perPageMax = 100;
/** Most characters of a search term. */
export const searchMaxLength = 255;

export interface VehicleListArgs {
  search?: string | null;
  sortField?: VehicleSortField | null;
  sortOrder?: SortOrder | null;
  page?: number | null;
  perPage?: number | null;
}

export interface PageMeta {
  currentPage: number;
  perPage: number;
  total: number;
  lastPage: number;
  from: number | null;
  to: number | null;
}

export interface VehiclePage {
  data: Vehicle[];
  meta: PageMeta;
}

/** The order asked for; nulls sort last in both directions (ties by id). */
function orderOf(args: VehicleListArgs): VehicleOrder | null {
  if (!args.sortField) return null;
  return { field: args.sortField, direction: args.sortOrder ?? "asc" };
}

/** Vehicle ids are positive integers; any other path segment names no vehicle. */
export function parseVehicleId(id: string | number): number | null {
  const text = String(id);
  if (!/^[1-9]\d{0,15}$/.test(text)) return null;
  const value = Number(text);
  return Number.isSafeInteger(value) && value <= 2 ** 53 - 1 ? value : null;
}

function checkListArgs(args: VehicleListArgs) {
  const check = new Validator();
  const page = args.page ?? 1;
  const perPage = args.perPage ?? perPageDefault;
  if (page < 1) check.fail("page", messages.min("page", 1));
  if (perPage < 1 || perPage > perPageMax) check.fail("perPage", messages.between("perPage", 1, perPageMax));
  const searchFault = args.search == null ? null : textFault("search", args.search, searchMaxLength);
  if (searchFault) check.fail("search", searchFault);
  check.throwIfInvalid();
  return { page, perPage };
}

export async function listVehicles(ctx: Context, args: VehicleListArgs): Promise<VehiclePage> {
  const { page, perPage } = checkListArgs(args);
  const needle = args.search ? searchNeedle(args.search) : "";
  const request = { needle: needle === "" ? null : needle, order: orderOf(args), limit: perPage, offset: (page - 1) * perPage };
  const { data, total } = await ctx.db.vehicles.page(ctx.network.id, request);
  const from = data.length > 0 ? (page - 1) * perPage + 1 : null;
  return {
    data,
    meta: {
      currentPage: page,
      perPage,
      total,
      lastPage: Math.max(1, Math.ceil(total / perPage)),
      from,
      to: from === null ? null : from + data.length - 1,
    },
  };
}

export async function findVehicle(ctx: Context, id: string | number): Promise<Vehicle> {
  const vehicleId = parseVehicleId(id);
  const vehicle = vehicleId === null ? null : await ctx.db.vehicles.byId(ctx.network.id, vehicleId);
  if (!vehicle) throw notFound("Vehicle");
  return vehicle;
}

export async function createVehicle(ctx: Context, input: VehicleInput): Promise<Vehicle> {
  const changes = vehicleChanges(input, { required: true });
  const now = ctx.now();
  const fields = { ...changes, plate: changes.plate! };
  return ctx.db.vehicles.insert({ ...unsetVehicleFields, ...fields, networkId: ctx.network.id, searchText: searchTextOf(fields), createdAt: now, updatedAt: now });
}

/** What a new vehicle holds in the fields a create leaves out (the columns' defaults). */
const unsetVehicleFields = Object.fromEntries(vehicleFields.map((field) => [field.response, unsetValueOf(field)])) as unknown as VehicleFieldValues;

/**
 * Updates the fields sent. The search text depends on fields not sent, so the write is a
 * compare-and-set on updatedAt (which only ever grows): a concurrent update makes it retry.
 */
export async function updateVehicle(ctx: Context, id: string | number, input: VehicleInput): Promise<Vehicle> {
  const changes = vehicleChanges(input, { required: false });
  for (let attempt = 0; ; attempt++) {
    const current = await findVehicle(ctx, id);
    const next = { ...current, ...changes };
    const updatedAt = new Date(Math.max(ctx.now().getTime(), current.updatedAt.getTime() + 1));
    const searchText = searchTextOf(next);
    if (await ctx.db.vehicles.updateAsRead(current, changes, searchText, updatedAt)) return { ...next, searchText, updatedAt };
    if (attempt >= 20) throw new Error("vehicle update kept colliding with concurrent updates");
  }
}

export async function deleteVehicle(ctx: Context, id: string | number): Promise<Vehicle> {
  const vehicle = await findVehicle(ctx, id);
  // Gone in between: deleted by a concurrent call.
  if (!(await ctx.db.vehicles.remove(ctx.network.id, vehicle.id))) throw notFound("Vehicle");
  return vehicle;
}
