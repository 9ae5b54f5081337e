// A list's page and its total in one statement on PostgreSQL, where that saves a round trip.
import type { ReadSql } from "../adapterReads";
import type { PageAndTotal } from "../store";
import type { PageWindow, VehicleFilter } from "../vehicles/pageSql";
import { selectSearchPageCountingWithState, selectVehiclePageWithState } from "../vehicles/reads";
import { keptPagesOf } from "../vehicles/keptPages";
import { guessedSearchTotal, knownVehicleTotal } from "../vehicles/totals";
import { planPostgresPage, postgresRows } from "./pageRows";
import { planPostgresSearch, readRows } from "./searchPlan";

/**
 * The page and its total in one statement where the network's state tells the total: without a
 * search, its kept vehicle count; with one, a total kept at the version the network was last
 * seen in, confirmed by the version the page was read at, or, when none is kept, the matches
 * counted by the page's statement. A page without a search kept at the network's current
 * version (../vehicles/keptPages.ts) is answered without reading rows. Null when that does not
 * work out (an empty page carries no state; the network changed since): the caller looks the
 * total up first.
 * PostgreSQL only, where it saves a round trip: SQLite has none to save, and its page with the
 * state's columns on every row cost more than a page and a count (figures: docs/performance.md).
 */
export async function pageInOneRead(read: ReadSql, filter: VehicleFilter, window: PageWindow): Promise<PageAndTotal | null> {
  if (filter.needle === null) {
    // A kept page needs the network's state read first (one statement by key); without one, the
    // page and its state come in one statement, and the page is kept at that state's version.
    const pages = keptPagesOf(read);
    const known = pages.holds(filter.networkId, window) ? await knownVehicleTotal(read, filter) : null;
    const kept = pages.answer(filter.networkId, window, known?.version ?? null);
    if (kept) return { data: kept, total: known!.networkVehicles };
    const { data, state } = await selectVehiclePageWithState(read, filter.networkId, postgresRows(filter, readRows), window);
    if (!state) return null;
    pages.keep(filter.networkId, window, state.version, data);
    return { data, total: state.vehicles };
  }
  const searched = { ...filter, needle: filter.needle };
  const guess = guessedSearchTotal(read, searched);
  if (!guess) {
    // Not kept (a new term, or the network changed): counted with the page. The plan gathers the
    // matches whatever the network's size while they are counted.
    const source = planPostgresSearch(filter.needle, null, 0, window.offset + window.limit);
    return selectSearchPageCountingWithState(read, searched, postgresRows(searched, source), window);
  }
  // A page past the last match is answered below without reading rows.
  if (window.offset >= guess.total) return null;
  const rows = await planPostgresPage(read, filter, window, guess.total, guess.state.vehicles);
  const { data, state } = await selectVehiclePageWithState(read, filter.networkId, rows, window);
  return state?.version === guess.state.version ? { data, total: guess.total } : null;
}
