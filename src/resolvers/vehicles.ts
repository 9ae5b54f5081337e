// Vehicle register of the request's network: list, read, create, update, delete.
import type { Context } from "../context";
import type { Vehicle } from "../generated/prisma/client";
import type { VehicleOrder } from "../db/store";
import { notFound } from "../errors";
import { Validator, textFault } from "./validation";
import { pageOf, pageWindow, type Page, type PageArgs } from "./pages";
import { parseStoredId } from "./ids";
import { searchNeedle, searchTextOf, vehicleChanges, type VehicleInput } from "./vehicleInput";
import { changeInOneStatement, changeWithEvents, changesBetween } from "../events/record";
import { issued } from "../db/transactions";
import { retryAsRead } from "./asRead";
import { vehicleData, vehicleFieldNames } from "../events/data";
import { unsetValueOf, vehicleFields, vehicleSortFields, type VehicleAsRead, type VehicleFieldValues, type VehicleSortField } from "../model/vehicleFields";

export { vehicleSortFields, type VehicleSortField };
export const sortOrders = ["asc", "desc"] as const;
export type SortOrder = (typeof sortOrders)[number];

/** Most characters of a search term. */
export const searchMaxLength = 255;

export interface VehicleListArgs extends PageArgs {
  search?: string | null;
  sortField?: VehicleSortField | null;
  sortOrder?: SortOrder | null;
}

export type VehiclePage = Page<VehicleAsRead>;

/** The order asked for; nulls sort last in both directions (ties by id). */
function orderOf(args: VehicleListArgs): VehicleOrder | null {
  if (!args.sortField) return null;
  return { field: args.sortField, direction: args.sortOrder ?? "asc" };
}

export async function listVehicles(ctx: Context, args: VehicleListArgs): Promise<VehiclePage> {
  const check = new Validator();
  const window = pageWindow(check, args);
  const searchFault = args.search == null ? null : textFault("search", args.search, searchMaxLength);
  if (searchFault) check.fail("search", searchFault);
  check.throwIfInvalid();
  const needle = args.search ? searchNeedle(args.search) : "";
  const request = { needle: needle === "" ? null : needle, order: orderOf(args), limit: window.limit, offset: window.offset };
  const { data, total } = await ctx.db.vehicles.page(ctx.network.id, request);
  return pageOf(data, total, window);
}

export async function findVehicle(ctx: Context, id: string | number): Promise<VehicleAsRead> {
  const vehicleId = parseStoredId(id);
  const vehicle = vehicleId === null ? null : await ctx.db.vehicles.byId(ctx.network.id, vehicleId);
  if (!vehicle) throw notFound("Vehicle");
  return vehicle;
}

export async function createVehicle(ctx: Context, input: VehicleInput): Promise<Vehicle> {
  const changes = vehicleChanges(input, { required: true });
  const now = ctx.now();
  const fields = { ...changes, plate: changes.plate! };
  const vehicle = { ...unsetVehicleFields, ...fields, networkId: ctx.network.id, searchText: searchTextOf(fields), createdAt: now, updatedAt: now };
  const reserved = await ctx.db.vehicles.reserveId();
  return changeWithEvents(ctx, async (tx, record) => {
    const created: Vehicle = { ...vehicle, id: reserved ?? (await tx.vehicles.newId()) };
    // The insert and its event go out together, and COMMIT after them (src/db/transactions.ts).
    issued(tx.vehicles.insert(created));
    record("vehicle.created", created.id, vehicleData(created));
    return created;
  });
}

/** What a new vehicle holds in the fields a create leaves out (the columns' defaults). */
const unsetVehicleFields = Object.fromEntries(vehicleFields.map((field) => [field.response, unsetValueOf(field)])) as unknown as VehicleFieldValues;

/**
 * Updates the fields sent. The search text depends on fields not sent, so the write is a
 * compare-and-set on updatedAt (which only ever grows): a concurrent update makes it retry.
 */
export async function updateVehicle(ctx: Context, id: string | number, input: VehicleInput): Promise<VehicleAsRead> {
  const changes = vehicleChanges(input, { required: false });
  for (let attempt = 0; ; attempt++) {
    const current = await findVehicle(ctx, id);
    const next = { ...current, ...changes };
    const updatedAt = new Date(Math.max(ctx.now().getTime(), current.updatedAt.getTime() + 1));
    const searchText = searchTextOf(next);
    const changed = changesBetween(current, changes, vehicleFieldNames);
    const updated = await changeInOneStatement(ctx, async (tx, record) => {
      if (!(await tx.vehicles.updateAsRead(current, changes, searchText, updatedAt))) return false;
      // updatedAt is not a change: an update that changes no field records nothing.
      if (Object.keys(changed).length > 0) record("vehicle.updated", current.id, { changes: changed });
      return true;
    });
    if (updated) return { ...next, updatedAt };
    retryAsRead("vehicle update", attempt);
  }
}

export async function deleteVehicle(ctx: Context, id: string | number): Promise<VehicleAsRead> {
  // A compare-and-set on updatedAt, as updateVehicle's: the event shows the vehicle as deleted.
  for (let attempt = 0; ; attempt++) {
    // Gone in between (deleted by a concurrent call): not found.
    const vehicle = await findVehicle(ctx, id);
    const removed = await changeInOneStatement(ctx, async (tx, record) => {
      if (!(await tx.vehicles.removeAsRead(vehicle))) return false;
      record("vehicle.deleted", vehicle.id, vehicleData(vehicle));
      return true;
    });
    if (removed) return vehicle;
    retryAsRead("vehicle delete", attempt);
  }
}
