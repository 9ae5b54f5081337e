// The vehicle as the service writes it: the 14 fields of the GraphQL Vehicle type, in its order,
// with instants in UTC ISO form. Both stores select the columns in this order.

export const vehicleColumns = [
  "id",
  "plate",
  "car_type",
  "car",
  "owner",
  "general_inspection",
  "comment",
  "color",
  "wanted",
  "wanted_reason",
  "synced",
  "sync_id",
  "created_at",
  "updated_at",
] as const;

export const vehicleSelectList = vehicleColumns.map((column) => `"${column}"`).join(", ");

export interface VehicleJson {
  id: number;
  plate: string;
  carType: string | null;
  car: string | null;
  owner: string | null;
  generalInspection: string | null;
  comment: string | null;
  color: string | null;
  wanted: boolean;
  wantedReason: string | null;
  synced: boolean;
  syncId: string | null;
  createdAt: string;
  updatedAt: string;
}

/** A row in vehicleColumns order, as a driver returns it (booleans may be 0/1, instants text). */
export type VehicleRow = ArrayLike<unknown>;

export function vehicleJson(row: VehicleRow, instant: (value: unknown) => string): VehicleJson {
  return {
    id: Number(row[0]),
    plate: row[1] as string,
    carType: row[2] as string | null,
    car: row[3] as string | null,
    owner: row[4] as string | null,
    generalInspection: row[5] as string | null,
    comment: row[6] as string | null,
    color: row[7] as string | null,
    wanted: row[8] === true || row[8] === 1,
    wantedReason: row[9] as string | null,
    synced: row[10] === true || row[10] === 1,
    syncId: row[11] as string | null,
    createdAt: instant(row[12]),
    updatedAt: instant(row[13]),
  };
}
