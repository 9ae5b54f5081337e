// PostgreSQL's vehicles: the statements both databases share (src/db/vehicles/), with
// PostgreSQL's search plan (./searchPlan.ts, ./pageRows.ts), its page and total in one statement
// (./pageInOneRead.ts) and its comparison of instants.
import { Prisma } from "../../generated/prisma/client";
import type { ReadSql } from "../adapterReads";
import type { WriteSql } from "../adapterWrites";
import type { VehicleStore } from "../store";
import { selectVehicle } from "../vehicles/reads";
import { totalThenPage } from "../vehicles/totalThenPage";
import { sameInstantOf } from "../storedInstant";
import { deleteVehicleAsRead, insertVehicle, updateVehicleAsRead, type SameInstant } from "../vehicles/writes";
import { pageInOneRead } from "./pageInOneRead";
import { planPostgresPage } from "./pageRows";

/** updated_at is the instant read. */
const sameInstant: SameInstant = (instant) => sameInstantOf("postgresql")("updated_at", instant);

/**
 * The sequence the init migration's SERIAL column made, named as a constant: PostgreSQL resolves
 * it once, when the statement is prepared. pg_get_serial_sequence looked it up in the catalog on
 * every call (figures: docs/performance.md).
 */
const nextId = Prisma.sql`SELECT nextval('vehicles_id_seq'::regclass) AS id`;

export function postgresVehicleStore(read: ReadSql, write: WriteSql): VehicleStore {
  return {
    byId: (networkId, id) => selectVehicle(read, networkId, id),
    // In one statement where it works out, else the total first, then the page.
    page: async (networkId, request) => {
      const filter = { networkId, needle: request.needle };
      return (await pageInOneRead(read, filter, request)) ?? (await totalThenPage(read, filter, request, planPostgresPage));
    },
    // Outside any lock: the network's row is held only from the insert on.
    newId: async () => {
      const [row] = await write.returning<{ id: number | string }>(nextId);
      return Number(row.id);
    },
    // A sequence's next value writes no row: the read path's connections serve it.
    reserveId: async () => Number((await read.byKey<{ id: number | string }>(nextId))!.id),
    insert: (vehicle) => insertVehicle(write, vehicle),
    updateAsRead: (vehicle, changes, searchText, updatedAt) => updateVehicleAsRead(write, sameInstant, vehicle, changes, searchText, updatedAt),
    removeAsRead: (vehicle) => deleteVehicleAsRead(write, sameInstant, vehicle),
  };
}
