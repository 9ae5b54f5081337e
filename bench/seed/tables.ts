// The tables the seed writes, with their real column names (snake_case, as the migrations create
// them) and a value kind per column, so each database sink can encode the values its own way.

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
  ["prefix", "text"],
  ["hash", "text"],
  ["created_at", "timestamp"],
  ["expires_at", "timestamp"],
]);

export const vehiclesTable = table("vehicles", [
  ["id", "int"],
  ["network_id", "int"],
  ["plate", "text"],
  ["car_type", "text"],
  ["car", "text"],
  ["owner", "text"],
  ["general_inspection", "text"],
  ["comment", "text"],
  ["color", "text"],
  ["wanted", "bool"],
  ["wanted_reason", "text"],
  ["synced", "bool"],
  ["sync_id", "text"],
  ["search_text", "text"],
  ["created_at", "timestamp"],
  ["updated_at", "timestamp"],
]);

export const officersTable = table("officers", [
  ["id", "int"],
  ["network_id", "int"],
  ["identifier", "text"],
  ["name", "text"],
  ["created_at", "timestamp"],
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
