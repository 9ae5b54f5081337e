// The vehicles table's columns, derived from the field table (src/model/vehicleFields.ts): the
// column lists of SELECT and INSERT, a row read back as a vehicle (by column name), and a
// vehicle's values in column order. Both databases share the table's definition.
import { Prisma, type Vehicle } from "../generated/prisma/client";
import { vehicleFields, type StoredVehicle, type VehicleField } from "../model/vehicleFields";
import type { RowTable } from "./adapterReads";
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

type Column = (typeof vehicleColumnNames)[number];

/**
 * A vehicle made of a row's values, found by `placeOf` each column: by name in a row object, or
 * by position in the values of a row whose statement selected vehicleColumns first.
 */
function vehicleOfValuesAt<Place extends string | number>(placeOf: (column: Column) => Place) {
  const id = placeOf("id");
  const networkId = placeOf("network_id");
  const fields = vehicleFields.map((field) => ({ name: field.response, at: placeOf(field.column as Column), flag: field.kind === "flag" }));
  const searchText = placeOf("search_text");
  const createdAt = placeOf("created_at");
  const updatedAt = placeOf("updated_at");
  return (values: { readonly [at in Place]: unknown }): StoredVehicle => {
    const vehicle: Record<string, unknown> = { id: Number(values[id]), networkId: Number(values[networkId]) };
    for (const field of fields) {
      const value = values[field.at];
      vehicle[field.name] = field.flag ? isTrue(value) : value;
    }
    vehicle.searchText = values[searchText];
    vehicle.createdAt = storedInstant(values[createdAt] as Date | string);
    vehicle.updatedAt = storedInstant(values[updatedAt] as Date | string);
    return vehicle as StoredVehicle;
  };
}

/** The vehicle of a row read with vehicleColumns (other columns of the row are left out). */
export const vehicleOfRow: (row: VehicleRow) => StoredVehicle = vehicleOfValuesAt((column) => column);

const vehicleOfPositions = vehicleOfValuesAt((column) => vehicleColumnNames.indexOf(column));

/**
 * The vehicles of a table whose statement selected vehicleColumns first (other columns after
 * them are left out): read by position, with no object by column name made per row.
 */
export function vehiclesOfTable(table: RowTable): StoredVehicle[] {
  for (let i = 0; i < vehicleColumnNames.length; i++) {
    if (table.columns[i] !== vehicleColumnNames[i]) throw new Error(`not a vehicle row: column ${i} is ${table.columns[i]}`);
  }
  return table.rows.map(vehicleOfPositions);
}
