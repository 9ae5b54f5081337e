// How a search on PostgreSQL reads its page: reading the network in order until the page is full,
// or gathering the matches then sorting them, through the network's own trigram keys
// (vehicles_search_keys_idx) where the needle has some, else through the trigram index of all
// networks (vehicles_search_trgm_idx). PostgreSQL's planner chooses from its estimate of the
// matches, and its estimate of a rare plate number can be far too high: it then reads the whole
// network for a page it believes fills early, and it gathers a common term's matches in a small
// network where reading in order finds a page sooner (figures: docs/performance.md). Once the total
// is kept, the service knows the matches and decides itself; while it counts them, every match must
// be seen anyway, so it gathers them. The choice never changes a result.
import { keyedNeedle } from "../vehicles/searchKeys";

/** Where a search's page comes from on PostgreSQL (SQLite's: src/db/sqlite/searchPlan.ts). */
export type PostgresSearchSource =
  /** The network's rows, read in order. */
  | { kind: "rows" }
  /**
   * All the network's matches, gathered before they are ordered (its planner then chooses the
   * trigram index when matches are few).
   */
  | { kind: "matches" }
  /**
   * The same, gathered through the network's own trigram keys (vehicles_search_keys_idx), which
   * name only the network's rows.
   */
  | { kind: "keyedMatches" }
  /**
   * The network's rows read in order, and never the trigram index (its planner takes the index
   * for LIKE when it misjudges a term; strpos is the same test, which the index cannot serve, as
   * neither the needle nor the stored text holds a LIKE wildcard).
   */
  | { kind: "rowsInOrder" };

export const readRows: PostgresSearchSource = { kind: "rows" };
const gatherMatches: PostgresSearchSource = { kind: "matches" };
const gatherByKeys: PostgresSearchSource = { kind: "keyedMatches" };
const readInOrder: PostgresSearchSource = { kind: "rowsInOrder" };

/**
 * What gathering the matches through the network-wide trigram index costs beyond reading them,
 * in rows read: merging the needle's trigram lists with the network's (~2 ms in a network of
 * 2,000, about what reading its 2,000 rows costs).
 */
const trigramLookupRows = 2000;
/** The same through the network's own trigram keys: a few short lists (~0.1 ms). */
const keyLookupRows = 100;

/** pg_trgm looks a needle up by its trigrams: three characters or more. */
const trigramIndexable = (needle: string) => [...needle].length >= 3;

/**
 * @param knownMatches the network's matches when kept, null when the search counts them now
 * @param networkVehicles the network's number of vehicles
 * @param pageEnd offset + limit: the matches a read in order must find
 */
export function planPostgresSearch(
  needle: string | null,
  knownMatches: number | null,
  networkVehicles: number,
  pageEnd: number,
): PostgresSearchSource {
  if (needle === null) return readRows;
  const keyed = keyedNeedle(needle);
  const gather = keyed ? gatherByKeys : gatherMatches;
  if (knownMatches === null) return gather;
  // Read in order, one row in networkVehicles / knownMatches is a match.
  const rowsReadInOrder = Math.min(networkVehicles, (pageEnd * networkVehicles) / Math.max(knownMatches, 1));
  const lookupRows = keyed ? keyLookupRows : trigramIndexable(needle) ? trigramLookupRows : null;
  const rowsGathered = lookupRows === null ? networkVehicles : knownMatches + lookupRows;
  return rowsGathered < rowsReadInOrder ? gather : readInOrder;
}
