// The vehicle writes as plain SQL on Prisma's adapter (src/db/adapterWrites.ts). The SQL is the
// same on SQLite and PostgreSQL; the adapters convert the values (instants, flags) as Prisma's
// client would, so the stored text of an instant is the one a compare-and-set finds again.
import { Prisma, type Vehicle } from "../generated/prisma/client";
import type { WriteSql } from "../db/adapterWrites";
import type { DatabaseProvider } from "../config/database";
import type { VehicleChanges } from "./vehicleInput";

/** The column of each field a request may change: a fixed list, never client text. */
export const vehicleColumnOf: Record<keyof VehicleChanges, string> = {
  plate: "plate",
  carType: "car_type",
  car: "car",
  owner: "owner",
  generalInspection: "general_inspection",
  comment: "comment",
  color: "color",
  wanted: "wanted",
  wantedReason: "wanted_reason",
  synced: "synced",
  syncId: "sync_id",
};

/** Stores a new vehicle; answers it with its id. */
export async function insertVehicle(write: WriteSql, vehicle: Omit<Vehicle, "id">): Promise<Vehicle> {
  const v = vehicle;
  const [row] = await write.returning<{ id: number | string }>(Prisma.sql`
    INSERT INTO vehicles (network_id, plate, car_type, car, owner, general_inspection, comment, color,
      wanted, wanted_reason, synced, sync_id, search_text, created_at, updated_at)
    VALUES (${v.networkId}, ${v.plate}, ${v.carType}, ${v.car}, ${v.owner}, ${v.generalInspection}, ${v.comment}, ${v.color},
      ${v.wanted}, ${v.wantedReason}, ${v.synced}, ${v.syncId}, ${v.searchText}, ${v.createdAt}, ${v.updatedAt})
    RETURNING id`);
  return { ...vehicle, id: Number(row.id) };
}

/**
 * Writes the changed fields, the search text and updatedAt, if the vehicle is still as read
 * (its updatedAt unchanged); answers whether it was.
 */
export async function updateVehicleAsRead(
  write: WriteSql,
  provider: DatabaseProvider,
  read: Vehicle,
  changes: VehicleChanges,
  searchText: string,
  updatedAt: Date,
): Promise<boolean> {
  const sets = (Object.keys(changes) as (keyof VehicleChanges)[])
    .filter((field) => changes[field] !== undefined)
    .map((field) => Prisma.sql`${Prisma.raw(vehicleColumnOf[field])} = ${changes[field]}`);
  sets.push(Prisma.sql`search_text = ${searchText}`, Prisma.sql`updated_at = ${updatedAt}`);
  const changed = await write.execute(Prisma.sql`
    UPDATE vehicles SET ${Prisma.join(sets, ", ")}
    WHERE id = ${read.id} AND network_id = ${read.networkId} AND ${sameInstant(provider, read.updatedAt)}`);
  return changed === 1;
}

/**
 * updated_at is the instant read. SQLite stores instants as text: a row written by another
 * tool may spell the same instant otherwise ("...Z" for "...+00:00"), and a comparison of the
 * text would never match it (the update would retry, then fail): the instants are compared.
 */
function sameInstant(provider: DatabaseProvider, instant: Date): Prisma.Sql {
  return provider === "sqlite"
    ? Prisma.sql`unixepoch(updated_at, 'subsec') = unixepoch(${instant}, 'subsec')`
    : Prisma.sql`updated_at = ${instant}`;
}

/** Deletes the network's vehicle; answers whether it was there. */
export async function deleteVehicleRow(write: WriteSql, networkId: number, id: number): Promise<boolean> {
  return (await write.execute(Prisma.sql`DELETE FROM vehicles WHERE id = ${id} AND network_id = ${networkId}`)) === 1;
}
