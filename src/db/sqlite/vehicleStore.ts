// SQLite's vehicles: the statements both databases share (src/db/vehicles/), with SQLite's search
// plan (./searchPlan.ts, ./pageRows.ts) and its comparison of instants.
import { Prisma } from "../../generated/prisma/client";
import type { ReadSql } from "../adapterReads";
import type { WriteSql } from "../adapterWrites";
import type { VehicleStore } from "../store";
import { selectVehicle } from "../vehicles/reads";
import { totalThenPage } from "../vehicles/totalThenPage";
import type { CommitEpoch } from "../betweenCommits";
import { sameInstantOf } from "../storedInstant";
import { deleteVehicleAsRead, insertVehicle, updateVehicleAsRead, type SameInstant } from "../vehicles/writes";
import { planSqlitePage } from "./pageRows";

/** updated_at is the instant read (compared as instants: ../storedInstant.ts). */
const sameInstant: SameInstant = (instant) => sameInstantOf("sqlite")("updated_at", instant);

/** `commitEpoch`: every commit's (./commits.ts), for the network's state between commits; none in a transaction. */
export function sqliteVehicleStore(read: ReadSql, write: WriteSql, commitEpoch?: CommitEpoch): VehicleStore {
  return {
    byId: (networkId, id) => selectVehicle(read, networkId, id),
    // The total first, then the page. The page and its total in one statement (PostgreSQL's
    // src/db/postgres/pageInOneRead.ts) saves a round trip, and SQLite has none to save: its
    // page with the state's columns on every row cost more than a page and a count (figures:
    // docs/performance.md).
    page: (networkId, request) => totalThenPage(read, { networkId, needle: request.needle }, request, planSqlitePage, commitEpoch),
    // AUTOINCREMENT's highest id so far, raised: a write, so the transaction holds the writer from
    // here on (a read first would make it a reader that another process's commit can keep from
    // writing: SQLITE_BUSY_SNAPSHOT, which no busy timeout waits out). The insert under this id
    // leaves it as it is. Without a row (no vehicle ever stored), the first id is 1.
    newId: async () => {
      const [raised] = await write.returning<{ seq: number | string }>(Prisma.sql`UPDATE sqlite_sequence SET seq = seq + 1 WHERE name = 'vehicles' RETURNING seq`);
      if (raised) return Number(raised.seq);
      await write.execute(Prisma.sql`INSERT INTO sqlite_sequence (name, seq) VALUES ('vehicles', 1)`);
      return 1;
    },
    // Taken in the insert's transaction only (newId).
    reserveId: async () => null,
    insert: (vehicle) => insertVehicle(write, vehicle),
    updateAsRead: (vehicle, changes, searchText, updatedAt) => updateVehicleAsRead(write, sameInstant, vehicle, changes, searchText, updatedAt),
    removeAsRead: (vehicle) => deleteVehicleAsRead(write, sameInstant, vehicle),
  };
}
