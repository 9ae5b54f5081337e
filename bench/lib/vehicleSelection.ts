// A whole vehicle as a GraphQL selection, from the field table (src/model/vehicleFields.ts): a
// field the table gains is asked for without an edit in bench/.
import { vehicleFields } from "../../src/model/vehicleFields";

/** Every field of the service's Vehicle type: the id, the table's response names, the instants. */
export const vehicleSelection = ["id", ...vehicleFields.map((field) => field.response), "createdAt", "updatedAt"].join(" ");

/** Platformatic names its fields after the columns, camelCased (car_type -> carType). */
const camelCase = (column: string) => column.replace(/_([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());

/** The same vehicle in Platformatic's GraphQL, whose fields are the table's columns (bench/peers). */
export const platformaticVehicleSelection = ["id", ...vehicleFields.map((field) => camelCase(field.column)), "createdAt", "updatedAt"].join(" ");
