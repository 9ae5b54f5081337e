// A whole vehicle as a GraphQL selection, from the field table (src/model/vehicleFields.ts): a
// field the table gains is asked for without an edit in bench/.
import { vehicleFields } from "../../src/model/vehicleFields";

/** Every field of the service's Vehicle type: the id, the table's response names, the instants. */
export const vehicleSelection = ["id", ...vehicleFields.map((field) => field.response), "createdAt", "updatedAt"].join(" ");

/** The peers name their fields after the columns, camelCased (car_type -> carType). */
const camelCase = (column: string) => column.replace(/_([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());

/** The vehicle's columns as a peer's GraphQL names them, its id field first. */
const columnSelection = (idField: string) => [idField, ...vehicleFields.map((field) => camelCase(field.column)), "createdAt", "updatedAt"].join(" ");

/** The same vehicle in Platformatic's GraphQL, whose fields are the table's columns (bench/peers). */
export const platformaticVehicleSelection = columnSelection("id");

/**
 * The same vehicle in PostGraphile's GraphQL (amber preset): the columns camelCased too, but the
 * primary key column `id` is `rowId` (its `id` is the Relay global Node ID).
 */
export const postgraphileVehicleSelection = columnSelection("rowId");
