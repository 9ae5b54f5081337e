// The rows a page reads on PostgreSQL: the WHERE clause of each of its search sources
// (./searchPlan.ts), and the rows its plan chooses for a page.
import { Prisma } from "../../generated/prisma/client";
import type { PageRows, VehicleFilter } from "../vehicles/pageSql";
import type { PlanPage } from "../vehicles/totalThenPage";
import { likeWhere } from "../vehicles/where";
import { needleKeys } from "../vehicles/searchKeys";
import { planPostgresSearch, type PostgresSearchSource } from "./searchPlan";

function whereOf({ networkId, needle }: VehicleFilter, source: PostgresSearchSource): Prisma.Sql | null {
  if (!needle) return null;
  if (source.kind === "rowsInOrder") return Prisma.sql`WHERE network_id = ${networkId} AND strpos(search_text, ${needle}) > 0`;
  if (source.kind === "keyedMatches") {
    // Every key of the needle is a key of a text holding it; strpos then decides. The keys name
    // the network's rows only, so no other index is asked: the network id is tested on the row
    // (`+ 0`), and strpos, unlike LIKE, is no trigram condition. Left to itself the planner
    // intersects the keys' rows with the network's entry in vehicles_search_trgm_idx, which
    // costs in proportion to the network's size (figures: docs/performance.md).
    const keys = needleKeys(networkId, needle);
    return Prisma.sql`WHERE vehicle_search_keys(network_id, search_text) @> string_to_array(${keys}::text, ' ')
      AND network_id + 0 = ${networkId} AND strpos(search_text, ${needle}) > 0`;
  }
  return likeWhere(networkId, needle);
}

/** The rows a page of `source` reads; gathered matches are read whole, then ordered. */
export const postgresRows = (filter: VehicleFilter, source: PostgresSearchSource): PageRows => ({
  where: whereOf(filter, source),
  gather: source.kind === "matches" || source.kind === "keyedMatches",
});

/** The rows of a page, from PostgreSQL's search plan. */
export const planPostgresPage: PlanPage = (_read, filter, window, knownMatches, networkVehicles) =>
  postgresRows(filter, planPostgresSearch(filter.needle, knownMatches, networkVehicles, window.offset + window.limit));
