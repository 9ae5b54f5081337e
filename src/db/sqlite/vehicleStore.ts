// SQLite's vehicles: the statements both databases share (src/db/vehicles/), with SQLite's search
// plan (./searchPlan.ts, ./pageRows.ts) and its comparison of instants.
import { Prisma } from "../../generated/prisma/client";
import type { ReadSql } from "../adapterReads";
import type { WriteSql } from "../adapterWrites";
import type { VehicleStore } from "../store";
import { selectVehicle } from "../vehicles/reads";
import { totalThenPage } from "../vehicles/totalThenPage";
import { sameInstantOf } from "../storedInstant";
import { deleteVehicleAsRead, insertVehicle, updateVehicleAsRead, type SameInstant } from "../vehicles/writes";
import { planSqlitePage } from "./pageRows";

/** updated_at is the instant read (compared as instants: ../storedInstant.ts). */
const sameInstant: SameInstant = (instant) => sameInstantOf("sqlite")("updated_at", instant);

export function sqliteVehicleStore(read: ReadSql, write: WriteSql): VehicleStore {
  return {
    byId: (networkId, id) => selectVehicle(read, networkId, id),
    // The total first, then the page. The page and its total in one statement (PostgreSQL's
    // src/db/postgres/pageInOneRead.ts) saves a round trip, and SQLite has none to save: its
    // page with the state's columns on every row cost more than a page and a count (figures:
    // docs/performance.md).
    page: (networkId, request) => totalThenPage(read, { networkId, needle: request.needle }, request, planSqlitePage),
    // The transaction holds the writer: no other insert takes this id before ours.
    newId: async () => {
      const [row] = await write.returning<{ id: number | string }>(
        Prisma.sql`SELECT COALESCE((SELECT seq FROM sqlite_sequence WHERE name = 'vehicles'), 0) + 1 AS id`,
      );
      return Number(row.id);
    },
    insert: (vehicle) => insertVehicle(write, vehicle),
    updateAsRead: (vehicle, changes, searchText, updatedAt) => updateVehicleAsRead(write, sameInstant, vehicle, changes, searchText, updatedAt),
    removeAsRead: (vehicle) => deleteVehicleAsRead(write, sameInstant, vehicle),
  };
}
