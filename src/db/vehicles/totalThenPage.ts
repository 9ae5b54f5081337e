// A list's page and total the way both databases can take: the total looked up first (kept, or
// counted with the page), then the page, from the rows the database's search plan chooses.
import type { ReadSql } from "../adapterReads";
import type { PageAndTotal } from "../store";
import type { PageRows, PageWindow, VehicleFilter } from "./pageSql";
import { selectSearchPageCounting, selectVehiclePage } from "./reads";
import { keptPagesOf } from "./keptPages";
import { knownVehicleTotal } from "./totals";
import type { CommitEpoch } from "../betweenCommits";

/**
 * The rows a page reads, planned by the database: from the network's matches when kept (null
 * when the search counts them now) and its number of vehicles.
 */
export type PlanPage = (
  read: ReadSql,
  filter: VehicleFilter,
  window: PageWindow,
  knownMatches: number | null,
  networkVehicles: number,
) => PageRows | Promise<PageRows>;

/**
 * The total looked up first (kept, or counted with the page), then the page. With `commitEpoch`,
 * the network's state is read again only after a commit (../betweenCommits.ts).
 */
export async function totalThenPage(read: ReadSql, filter: VehicleFilter, window: PageWindow, plan: PlanPage, commitEpoch?: CommitEpoch): Promise<PageAndTotal> {
  const known = await knownVehicleTotal(read, filter, commitEpoch);
  if (known.total === null) {
    const searched = { ...filter, needle: filter.needle! };
    const rows = await plan(read, filter, window, null, known.networkVehicles);
    return selectSearchPageCounting(read, searched, rows, window, known.version);
  }
  // A page past the last match needs no look at the rows: a search for a rare or absent term
  // would otherwise scan the whole network.
  if (window.offset >= known.total) return { data: [], total: known.total };
  if (filter.needle !== null) {
    const rows = await plan(read, filter, window, known.total, known.networkVehicles);
    return { data: await selectVehiclePage(read, filter.networkId, rows, window), total: known.total };
  }
  // Without a search, a page kept at the version just read (./keptPages.ts), else read and kept
  // at it: the version was read before the rows.
  const pages = keptPagesOf(read);
  const kept = pages.answer(filter.networkId, window, known.version);
  if (kept) return { data: kept, total: known.total };
  const rows = await plan(read, filter, window, known.total, known.networkVehicles);
  const data = await selectVehiclePage(read, filter.networkId, rows, window);
  pages.keep(filter.networkId, window, known.version, data);
  return { data, total: known.total };
}
