// SQLite's vehicles: the statements both databases share (src/db/vehicles/), with SQLite's search
// plan (./searchPlan.ts, ./pageRows.ts) and its comparison of instants.
import { Prisma } from "../../generated/prisma/client";
import type { ReadSql } from "../adapterReads";
import type { WriteSql } from "../adapterWrites";
import type { VehicleStore } from "../store";
import { selectVehicle } from "../vehicles/reads";
import { totalThenPage } from "../vehicles/totalThenPage";
import { deleteVehicleAsRead, insertVehicle, updateVehicleAsRead, type SameInstant } from "../vehicles/writes";
import { planSqlitePage } from "./pageRows";

/**
 * updated_at is the instant read. SQLite stores instants as text: a row written by another
 * tool may spell the same instant otherwise ("...Z" for "...+00:00"), and a comparison of the
 * text would never match it (the update would retry, then fail): the instants are compared.
 */
const sameInstant: SameInstant = (instant) => Prisma.sql`unixepoch(updated_at, 'subsec') = unixepoch(${instant}, 'subsec')`;

export function sqliteVehicleStore(read: ReadSql, write: WriteSql): VehicleStore {
  return {
    byId: (networkId, id) => selectVehicle(read, networkId, id),
    // The total first, then the page. The page and its total in one statement (PostgreSQL's
    // src/db/postgres/pageInOneRead.ts) saves a round trip, and SQLite has none to save: its
    // page with the state's columns on every row cost more than a page and a count (figures:
    // docs/performance.md).
    page: (networkId, request) => totalThenPage(read, { networkId, needle: request.needle }, request, planSqlitePage),
    insert: (vehicle) => insertVehicle(write, vehicle),
    updateAsRead: (vehicle, changes, searchText, updatedAt) => updateVehicleAsRead(write, sameInstant, vehicle, changes, searchText, updatedAt),
    removeAsRead: (vehicle) => deleteVehicleAsRead(write, sameInstant, vehicle),
  };
}
