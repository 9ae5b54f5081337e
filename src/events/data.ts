// What each event's `data` holds (src/model/eventTypes.ts says it in words): things as the API
// shows them, by their response names, never a secret.
import type { Officer } from "../generated/prisma/client";
import type { DutytimeEntry, KeyRecord } from "../db/store";
import { vehicleFields, type VehicleFieldValues, type VehicleAsRead } from "../model/vehicleFields";

/** The response names of the vehicle's fields (the field table's). */
export const vehicleFieldNames = vehicleFields.map((field) => field.response) as (keyof VehicleFieldValues & string)[];

/** The vehicle as the API shows it. */
export function vehicleData(vehicle: VehicleAsRead): { [field: string]: unknown } {
  const data: { [field: string]: unknown } = { id: vehicle.id };
  for (const field of vehicleFieldNames) data[field] = vehicle[field];
  data.createdAt = vehicle.createdAt;
  data.updatedAt = vehicle.updatedAt;
  return data;
}

/** A dutytime event's data: the officer and the entry (with its end, when it ended). */
export function dutytimeData(officer: Pick<Officer, "identifier" | "name">, entry: Pick<DutytimeEntry, "id" | "startedAt" | "endedAt">) {
  const started = { identifier: officer.identifier, name: officer.name, entryId: entry.id, startedAt: entry.startedAt };
  if (entry.endedAt === null) return started;
  return { ...started, endedAt: entry.endedAt, durationSeconds: Math.round((entry.endedAt.getTime() - entry.startedAt.getTime()) / 1000) };
}

/** A key as lists show it: never its secret or hash. */
export function keyData(key: KeyRecord): { [field: string]: unknown } {
  return { id: key.id, name: key.name, prefix: key.prefix, scopes: key.scopes, origins: key.origins, expiresAt: key.expiresAt, revokedAt: key.revokedAt };
}

/** A mission report, patient file or offender file as the API shows it (its network is the reader's). */
export function recordData<T extends { networkId: number }>({ networkId: _network, ...shown }: T): Omit<T, "networkId"> {
  return shown;
}
