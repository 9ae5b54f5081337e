// The tables the seed writes, with their real column names (snake_case, as the migrations create
// them) and a value kind per column, so each database sink can encode the values its own way.
import { vehicleFields, type VehicleFieldKind } from "../../src/model/vehicleFields";

export type ColumnKind = "int" | "text" | "bool" | "timestamp";

export interface TableSpec {
  name: string;
  columns: ReadonlyArray<readonly [string, ColumnKind]>;
}

/**
 * A row is an array in column order: int -> number, text -> string | null, bool -> boolean,
 * timestamp -> epoch milliseconds | null (each sink formats instants as the service stores them).
 */
export type Row = Array<number | string | boolean | null>;

const table = (name: string, columns: Array<readonly [string, ColumnKind]>): TableSpec => ({ name, columns });

export const networksTable = table("networks", [
  ["id", "int"],
  ["name", "text"],
  ["identifier_type", "text"],
  ["key_grace_seconds", "int"],
  ["created_at", "timestamp"],
]);

export const apiKeysTable = table("api_keys", [
  ["id", "int"],
  ["network_id", "int"],
  ["name", "text"],
  ["prefix", "text"],
  ["hash", "text"],
  ["scopes", "text"],
  ["origins", "text"],
  ["created_at", "timestamp"],
  ["expires_at", "timestamp"],
  ["revoked_at", "timestamp"],
  ["last_used_at", "timestamp"],
]);

/**
 * The column kind of each field kind (src/model/vehicleFields.ts): dates are stored as their
 * YYYY-MM-DD text (String in the Prisma schemas), flags as booleans.
 */
const fieldColumnKind: Record<VehicleFieldKind, ColumnKind> = { plate: "text", text: "text", date: "text", flag: "bool" };

/** The vehicles table: its fields' columns come from the field table, in its order. */
export const vehiclesTable = table("vehicles", [
  ["id", "int"],
  ["network_id", "int"],
  ...vehicleFields.map((field) => [field.column, fieldColumnKind[field.kind]] as const),
  ["search_text", "text"],
  ["created_at", "timestamp"],
  ["updated_at", "timestamp"],
]);

/** A vehicle's row in vehiclesTable's column order; its fields' values by response name. */
export function vehicleRow(vehicle: {
  id: number;
  networkId: number;
  fields: Record<string, string | boolean | null>;
  searchText: string;
  createdAt: number;
  updatedAt: number;
}): Row {
  const row: Row = [vehicle.id, vehicle.networkId];
  for (const field of vehicleFields) row.push(vehicle.fields[field.response] ?? null);
  row.push(vehicle.searchText, vehicle.createdAt, vehicle.updatedAt);
  return row;
}

export const officersTable = table("officers", [
  ["id", "int"],
  ["network_id", "int"],
  ["identifier", "text"],
  ["name", "text"],
  ["created_at", "timestamp"],
  ["removed_at", "timestamp"],
]);

export const dutytimeTable = table("dutytime_entries", [
  ["id", "int"],
  ["network_id", "int"],
  ["officer_id", "int"],
  ["started_at", "timestamp"],
  ["ended_at", "timestamp"],
]);

const recordTable = (name: string, textColumn: string) =>
  table(name, [
    ["id", "int"],
    ["network_id", "int"],
    [textColumn, "text"],
    ["created_at", "timestamp"],
  ]);

export const missionReportsTable = recordTable("mission_reports", "title");
export const patientFilesTable = recordTable("patient_files", "patient_name");
export const offenderFilesTable = recordTable("offender_files", "offender_name");

/** Tables that get bulk rows: their non-unique indexes are dropped for the load and rebuilt after. */
export const bulkTables = [vehiclesTable, dutytimeTable, missionReportsTable, patientFilesTable, offenderFilesTable];

/** Every table the seed fills, in foreign-key order. */
export const allTables = [networksTable, apiKeysTable, officersTable, ...bulkTables];
