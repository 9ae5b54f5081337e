// The vehicles table's columns, derived from the field table (src/model/vehicleFields.ts): the
// column lists of SELECT and INSERT, a row read back as a vehicle (by column name), and a
// vehicle's values in column order. Both databases share the table's definition.
import { Prisma, type Vehicle } from "../generated/prisma/client";
import { vehicleFields, type StoredVehicle, type VehicleAsRead, type VehicleField } from "../model/vehicleFields";
import type { RowTable } from "./adapterReads";
import { storedInstant } from "./storedInstant";

// Prisma's Vehicle (the Prisma schemas) and the field table describe the same row: a field in
// one and not in the other fails to compile here.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const prismaSchemaMatchesFieldTable: Same<Vehicle, StoredVehicle> = true;
void prismaSchemaMatchesFieldTable;

const fieldColumns = vehicleFields.map((field) => field.column);

/** Every column, in the order of a vehicle's INSERT. */
const vehicleColumnNames = ["id", "network_id", ...fieldColumns, "search_text", "created_at", "updated_at"] as const;
export const vehicleColumns = Prisma.raw(vehicleColumnNames.join(", "));

/** The columns a read selects, in the order of its SELECT: all but the search text (VehicleAsRead). */
const readColumnNames = vehicleColumnNames.filter((column) => column !== "search_text");
export const vehicleReadColumns = Prisma.raw(readColumnNames.join(", "));

/** A new vehicle's values in the order of vehicleColumns (its id taken before: VehicleStore.newId). */
export const insertValues = (vehicle: StoredVehicle): unknown[] => [
  vehicle.id,
  vehicle.networkId,
  ...vehicleFields.map((field) => vehicle[field.response]),
  vehicle.searchText,
  vehicle.createdAt,
  vehicle.updatedAt,
];

/** How many values a vehicle's row has (insertValues). */
export const vehicleColumnCount = vehicleColumnNames.length;

/** The column of a field, for a statement's text: from the table, never from a client. */
export const columnOf = (field: VehicleField) => Prisma.raw(field.column);

/** SQLite answers 0/1, PostgreSQL true/false. */
const isTrue = (value: unknown) => value === true || Number(value) === 1;

type Column = Exclude<(typeof vehicleColumnNames)[number], "search_text">;

/** A vehicle row as the read paths answer it: values by column name. */
export type VehicleRow = Record<Column, unknown>;

/**
 * A vehicle made of a row's values, found by `placeOf` each column: by name in a row object, or
 * by position in the values of a row whose statement selected vehicleColumns first.
 * Written out once from the field table as one object literal that names every property, so
 * each vehicle is made with one shape in one allocation: a loop of keyed stores looked each name
 * up anew per row (figures: docs/performance.md). Names and places are the table's and the
 * column list's, JSON-quoted; nothing of a row reaches the code.
 */
function vehicleOfValuesAt(placeOf: (column: Column) => string | number): (values: object) => VehicleAsRead {
  const at = (column: Column) => `values[${JSON.stringify(placeOf(column))}]`;
  const properties = [
    `id: Number(${at("id")})`,
    `networkId: Number(${at("network_id")})`,
    ...vehicleFields.map((field) => `${JSON.stringify(field.response)}: ${field.kind === "flag" ? `isTrue(${at(field.column as Column)})` : at(field.column as Column)}`),
    `createdAt: instant(${at("created_at")})`,
    `updatedAt: instant(${at("updated_at")})`,
  ];
  const make = new Function("isTrue", "instant", `return (values) => ({ ${properties.join(", ")} });`);
  return make(isTrue, storedInstant) as (values: object) => VehicleAsRead;
}

/** The vehicle of a row read with vehicleReadColumns (other columns of the row are left out). */
export const vehicleOfRow: (row: VehicleRow) => VehicleAsRead = vehicleOfValuesAt((column) => column);

const vehicleOfPositions = vehicleOfValuesAt((column) => readColumnNames.indexOf(column));

/**
 * The vehicles of a table whose statement selected vehicleReadColumns first (other columns after
 * them are left out): read by position, with no object by column name made per row.
 */
export function vehiclesOfTable(table: RowTable): VehicleAsRead[] {
  for (let i = 0; i < readColumnNames.length; i++) {
    if (table.columns[i] !== readColumnNames[i]) throw new Error(`not a vehicle row: column ${i} is ${table.columns[i]}`);
  }
  return table.rows.map(vehicleOfPositions);
}
