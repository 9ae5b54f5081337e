// The vehicle's fields, declared once. Everything that names a vehicle field derives from this
// table: the GraphQL type and inputs (src/schema/vehicle.ts), the REST request checks and their
// messages (src/resolvers/vehicleInput.ts), the SQL column lists and row mapping
// (src/db/vehicleColumns.ts), the search text, the sort fields, the OpenAPI document, and the
// benchmark's floor and seed. The Prisma schemas and the migrations declare the columns for the
// database; a compile-time check (src/db/vehicleColumns.ts) and the round trip of every field
// (test/vehicleFields.test.ts) fail when they and this table disagree.
//
// Kinds:
// - plate: required text, trimmed, not empty after trimming, never null;
// - text: optional text of at most `max` characters, null allowed;
// - date: optional calendar date YYYY-MM-DD, null allowed;
// - flag: boolean, false when not given, never null (REST also takes 0 and 1).

export type VehicleFieldKind = "plate" | "text" | "date" | "flag";

export interface VehicleFieldSpec {
  /** The GraphQL and REST response name (SPEC 2.1). */
  response: string;
  /** The name requests use (REST bodies and GraphQL inputs, SPEC 2.1). */
  request: string;
  /** The database column. */
  column: string;
  kind: VehicleFieldKind;
  /** Most characters (code points) of a plate or text. */
  max?: number;
  /** Part of the text `search` matches. */
  searchable?: boolean;
  /** A `sort_field` value (its request name), nulls last. */
  sortable?: boolean;
  /** What the field holds, for the GraphQL and OpenAPI documentation. */
  description: string;
  /** A value for examples in the documentation. */
  example: string | boolean | null;
}

export const vehicleFields = [
  { response: "plate", request: "plate", column: "plate", kind: "plate", max: 32, searchable: true, sortable: true, description: "Plate text.", example: "LS-4711" },
  { response: "carType", request: "cartyp", column: "car_type", kind: "text", max: 255, searchable: true, description: "Make or type.", example: "Bravado" },
  { response: "car", request: "car", column: "car", kind: "text", max: 255, searchable: true, sortable: true, description: "Model or name.", example: "Buffalo STX" },
  { response: "owner", request: "owner", column: "owner", kind: "text", max: 255, searchable: true, sortable: true, description: "Owner name.", example: "Max Mustermann" },
  { response: "generalInspection", request: "tuv", column: "general_inspection", kind: "date", sortable: true, description: "General inspection date YYYY-MM-DD.", example: "2027-03-31" },
  { response: "comment", request: "comment", column: "comment", kind: "text", max: 5000, description: "Free text.", example: "Dent on the rear bumper." },
  { response: "color", request: "color", column: "color", kind: "text", max: 255, searchable: true, description: "Color.", example: "black" },
  { response: "wanted", request: "wanted", column: "wanted", kind: "flag", sortable: true, description: "Whether the vehicle is wanted.", example: true },
  { response: "wantedReason", request: "wanted_reason", column: "wanted_reason", kind: "text", max: 1000, searchable: true, description: "Reason for the wanted flag.", example: "Hit and run on Vinewood Blvd." },
  { response: "synced", request: "synced", column: "synced", kind: "flag", description: "Sync marker.", example: false },
  { response: "syncId", request: "sync_id", column: "sync_id", kind: "text", max: 255, description: "External sync identifier.", example: null },
] as const satisfies readonly VehicleFieldSpec[];

export type VehicleField = (typeof vehicleFields)[number];

/** The value a field of a kind holds once stored. */
type Stored<F extends VehicleField> = F["kind"] extends "flag" ? boolean : F["kind"] extends "plate" ? string : string | null;
/** The value a field of a kind takes as input (before the checks; null is refused for plates and flags). */
type Given<F extends VehicleField> = (F["kind"] extends "flag" ? boolean : string) | null;

/** A vehicle's fields by response name, as stored. */
export type VehicleFieldValues = { [F in VehicleField as F["response"]]: Stored<F> };
/** A stored vehicle: the fields of the table and the columns every vehicle has. */
export type StoredVehicle = VehicleFieldValues & {
  id: number;
  networkId: number;
  /** The searchable fields' text, spelled for search (src/resolvers/vehicleInput.ts). */
  searchText: string;
  createdAt: Date;
  updatedAt: Date;
};
/**
 * A vehicle as the reads answer it: every column but the search text, which writes make from the
 * fields and only a search's SQL reads; no answer shows it, and a page would read it per row.
 */
export type VehicleAsRead = Omit<StoredVehicle, "searchText">;
/** Vehicle fields as clients send them (create, PUT and PATCH alike), by request name. */
export type VehicleInput = { [F in VehicleField as F["request"]]?: Given<F> };
/** The fields a request sets, checked, by response name. */
export type VehicleChanges = Partial<VehicleFieldValues>;

/** What a new vehicle holds in the fields a create leaves out. */
export const unsetValueOf = (field: VehicleField): boolean | null => (field.kind === "flag" ? false : null);

/** The searchable fields, in the order their text is joined. */
export const searchableVehicleFields = vehicleFields.filter((field) => "searchable" in field && field.searchable);

/** The searchable fields' names, for documentation: "plate, cartyp, car, ..." by `name`. */
export const searchableFieldNames = (name: "request" | "response") => searchableVehicleFields.map((field) => field[name]).join(", ");

/** The sort fields, by request name (`sort_field`), in the order the table declares them. */
export const sortableVehicleFields = vehicleFields.filter((field) => "sortable" in field && field.sortable);
export type VehicleSortField = Extract<VehicleField, { sortable: true }>["request"];
export const vehicleSortFields = sortableVehicleFields.map((field) => field.request) as VehicleSortField[];

/** Plates and flags are never null, so they sort as they are; other fields sort their nulls last. */
export const sortsNullsLast = (field: VehicleField) => field.kind === "text" || field.kind === "date";
