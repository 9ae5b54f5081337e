// The rows a page reads on SQLite: the WHERE clause of each of its search sources
// (./searchPlan.ts), and the rows its plan chooses for a page.
import { Prisma } from "../../generated/prisma/client";
import type { PageRows, VehicleFilter } from "../vehicles/pageSql";
import type { PlanPage } from "../vehicles/totalThenPage";
import { likeWhere } from "../vehicles/where";
import { keyedNeedle } from "../vehicles/searchKeys";
import { planSearch, type SqliteSearchSource } from "./searchPlan";
import { searchCandidates, sqliteNetworkIdIndex } from "./searchCandidates";

/**
 * The network's rows among candidates of all networks. Each candidate is looked up in the
 * network's id index, whose entries lie close together, not in the table, whose rows lie
 * scattered: only the network's own rows are then read (figures: docs/performance.md). Keyed
 * candidates are the network's already.
 */
function networkCandidates(networkId: number, needle: string, candidates: Prisma.Sql): Prisma.Sql {
  if (keyedNeedle(needle)) return candidates;
  return Prisma.sql`SELECT id FROM vehicles INDEXED BY ${Prisma.raw(sqliteNetworkIdIndex)} WHERE network_id = ${networkId} AND id IN (${candidates})`;
}

function candidatesOf(networkId: number, needle: string, source: SqliteSearchSource): Prisma.Sql | null {
  if (source.kind === "index") return searchCandidates(networkId, needle);
  // As one JSON array: one statement's text for any number of ids.
  if (source.kind === "candidates") return Prisma.sql`SELECT value FROM json_each(${JSON.stringify(source.ids)})`;
  return null;
}

/**
 * @param source where the candidates come from (./searchPlan.ts); LIKE on the row decides,
 * exactly as without the index
 */
function whereOf({ networkId, needle }: VehicleFilter, source: SqliteSearchSource): Prisma.Sql | null {
  if (!needle) return null;
  const candidates = candidatesOf(networkId, needle, source);
  return likeWhere(networkId, needle, candidates ? Prisma.sql` AND id IN (${networkCandidates(networkId, needle, candidates)})` : Prisma.empty);
}

/** The rows a page of `source` reads: SQLite reads them in order, never gathered first. */
export const sqliteRows = (filter: VehicleFilter, source: SqliteSearchSource): PageRows => ({ where: whereOf(filter, source), gather: false });

/** The rows of a page, from SQLite's search plan. */
export const planSqlitePage: PlanPage = async (read, filter, window, knownMatches, networkVehicles) =>
  sqliteRows(filter, await planSearch(read, filter, knownMatches, networkVehicles, { pageEnd: window.offset + window.limit, idOrder: window.order === null }));
