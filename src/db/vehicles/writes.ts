// The vehicle writes as plain SQL on Prisma's adapter (src/db/adapterWrites.ts). The SQL is the
// same on SQLite and PostgreSQL but for how updated_at is compared (`sameInstant`, each
// database's own); the adapters convert the values (instants, flags) as Prisma's client would,
// so the stored text of an instant is the one a compare-and-set finds again.
import { Prisma, type Vehicle } from "../../generated/prisma/client";
import type { WriteSql } from "../adapterWrites";
import { vehicleFields, type VehicleAsRead, type VehicleChanges } from "../../model/vehicleFields";
import { columnOf, insertValues, vehicleColumnCount, vehicleColumns } from "../vehicleColumns";
import { fixedStatement } from "../fixedStatement";

const insertStatement = fixedStatement(
  (...values: unknown[]) => Prisma.sql`INSERT INTO vehicles (${vehicleColumns}) VALUES (${Prisma.join(values)})`,
  vehicleColumnCount,
);

/** Stores a new vehicle under the id taken for it (VehicleStore.newId). */
export async function insertVehicle(write: WriteSql, vehicle: Vehicle): Promise<void> {
  await write.execute(insertStatement(...insertValues(vehicle)));
}

/** The condition that updated_at is this instant. */
export type SameInstant = (instant: Date) => Prisma.Sql;

/**
 * Writes the changed fields, the search text and updatedAt, if the vehicle is still as read
 * (its updatedAt unchanged); answers whether it was.
 */
export async function updateVehicleAsRead(
  write: WriteSql,
  sameInstant: SameInstant,
  read: VehicleAsRead,
  changes: VehicleChanges,
  searchText: string,
  updatedAt: Date,
): Promise<boolean> {
  const sets = vehicleFields
    .filter((field) => changes[field.response] !== undefined)
    .map((field) => Prisma.sql`${columnOf(field)} = ${changes[field.response]}`);
  sets.push(Prisma.sql`search_text = ${searchText}`, Prisma.sql`updated_at = ${updatedAt}`);
  const changed = await write.execute(Prisma.sql`
    UPDATE vehicles SET ${Prisma.join(sets, ", ")}
    WHERE id = ${read.id} AND network_id = ${read.networkId} AND ${sameInstant(read.updatedAt)}`);
  return changed === 1;
}

/** Deletes the vehicle if it is still as read (its updated_at unchanged): its event shows it as it was. */
export async function deleteVehicleAsRead(write: WriteSql, sameInstant: SameInstant, read: Pick<Vehicle, "id" | "networkId" | "updatedAt">): Promise<boolean> {
  return (
    (await write.execute(Prisma.sql`DELETE FROM vehicles WHERE id = ${read.id} AND network_id = ${read.networkId} AND ${sameInstant(read.updatedAt)}`)) === 1
  );
}
