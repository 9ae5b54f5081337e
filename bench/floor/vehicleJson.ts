// The vehicle as the service writes it: the fields of the GraphQL Vehicle type, in its order (id,
// the field table's fields, the two instants), with instants in UTC ISO form. The columns come
// from the field table (src/model/vehicleFields.ts), so a field it gains is selected and
// answered here without an edit; rows are read by column name.
import { vehicleFields, type VehicleFieldValues } from "../../src/model/vehicleFields";

/** Every column a vehicle's SELECT reads, in the order of the Vehicle type. */
export const vehicleColumns = ["id", ...vehicleFields.map((field) => field.column), "created_at", "updated_at"];

export const vehicleSelectList = vehicleColumns.map((column) => `"${column}"`).join(", ");

export type VehicleJson = { id: number } & VehicleFieldValues & { createdAt: string; updatedAt: string };

/**
 * A row selected with vehicleSelectList, as a driver returns it: an array (the drivers' fastest
 * form; booleans may be 0/1, instants text). Its values are found by column name through
 * columnIndex, never by a position written out here.
 */
export type VehicleRow = ArrayLike<unknown>;

/** Where each column of vehicleSelectList sits in a row. */
const columnIndex = new Map(vehicleColumns.map((column, index) => [column, index]));
const indexOf = (column: string) => columnIndex.get(column)!;

/** Each field's response name, its column's place in the row, and whether it is a flag. */
const fieldReads = vehicleFields.map((field) => ({ name: field.response, at: indexOf(field.column), flag: field.kind === "flag" }));
const idAt = indexOf("id");
const createdAt = indexOf("created_at");
const updatedAt = indexOf("updated_at");

/** The updated_at of a row as the driver gave it, for the compare-and-set of an update. */
export const rawUpdatedAt = (row: VehicleRow) => row[updatedAt];

export function vehicleJson(row: VehicleRow, instant: (value: unknown) => string): VehicleJson {
  // Built in the Vehicle type's order: JSON.stringify writes keys in insertion order.
  const vehicle: Record<string, unknown> = { id: Number(row[idAt]) };
  for (const read of fieldReads) {
    const value = row[read.at];
    // SQLite answers 0/1 for a flag, PostgreSQL true/false.
    vehicle[read.name] = read.flag ? value === true || value === 1 : value;
  }
  vehicle.createdAt = instant(row[createdAt]);
  vehicle.updatedAt = instant(row[updatedAt]);
  return vehicle as VehicleJson;
}
