// The vehicles table's columns, derived from the field table (src/model/vehicleFields.ts): the
// column lists of SELECT and INSERT, a row read back as a vehicle (by column name), and a
// vehicle's values in column order. Both databases share the table's definition.
import { Prisma, type Vehicle } from "../generated/prisma/client";
import { vehicleFields, type StoredVehicle, type VehicleField } from "../model/vehicleFields";
import { storedInstant } from "./storedInstant";

// Prisma's Vehicle (the Prisma schemas) and the field table describe the same row: a field in
// one and not in the other fails to compile here.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const prismaSchemaMatchesFieldTable: Same<Vehicle, StoredVehicle> = true;
void prismaSchemaMatchesFieldTable;

const fieldColumns = vehicleFields.map((field) => field.column);

/** Every column, in the order of a vehicle's SELECT. */
const vehicleColumnNames = ["id", "network_id", ...fieldColumns, "search_text", "created_at", "updated_at"] as const;
export const vehicleColumns = Prisma.raw(vehicleColumnNames.join(", "));

/** A new vehicle's values in the order of vehicleColumns (its id taken before: VehicleStore.newId). */
export const insertValues = (vehicle: StoredVehicle) =>
  Prisma.join([vehicle.id, vehicle.networkId, ...vehicleFields.map((field) => vehicle[field.response]), vehicle.searchText, vehicle.createdAt, vehicle.updatedAt]);

/** The column of a field, for a statement's text: from the table, never from a client. */
export const columnOf = (field: VehicleField) => Prisma.raw(field.column);

/** SQLite answers 0/1, PostgreSQL true/false. */
const isTrue = (value: unknown) => value === true || Number(value) === 1;

/** A vehicle row as the read paths answer it: values by column name. */
export type VehicleRow = Record<(typeof vehicleColumnNames)[number], unknown>;

/** The vehicle of a row read with vehicleColumns (other columns of the row are left out). */
export function vehicleOfRow(row: VehicleRow): StoredVehicle {
  const vehicle: Record<string, unknown> = {
    id: Number(row.id),
    networkId: Number(row.network_id),
  };
  for (const field of vehicleFields) {
    const value = row[field.column];
    vehicle[field.response] = field.kind === "flag" ? isTrue(value) : (value as string | null);
  }
  vehicle.searchText = row.search_text;
  vehicle.createdAt = storedInstant(row.created_at as Date | string);
  vehicle.updatedAt = storedInstant(row.updated_at as Date | string);
  return vehicle as StoredVehicle;
}
