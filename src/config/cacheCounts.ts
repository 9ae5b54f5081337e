// Hits and misses of the service's in-memory caches, counted where each cache is looked up
// (src/resolvers/admittedKeys.ts, src/db/vehicles/searchTotals.ts, src/db/vehicles/keptPages.ts, src/server/knownQueries.ts,
// src/resolvers/keptReports.ts, src/resolvers/keptEntries.ts) and read by the metrics (src/server/observability/metrics.ts)
// when Prometheus scrapes. Plain numbers in one object of the lowest layer: every cache may
// import it without reaching up to the server, and a lookup pays one increment, nothing else.
// Counts are per process, like the caches they count (and since its start, as Prometheus'
// counters are).

export interface HitsAndMisses {
  hits: number;
  misses: number;
}

export const cacheCounts = {
  /** API keys admitted before: a hit needs no statement to find the key's network. */
  admittedKeys: { hits: 0, misses: 0 } as HitsAndMisses,
  /** Search totals kept per (network, term) and vehicle_version: a hit needs no count. */
  searchTotals: { hits: 0, misses: 0 } as HitsAndMisses,
  /** Vehicle pages without a search kept per network, order, window and vehicle_version: a hit reads no rows. */
  vehiclePages: { hits: 0, misses: 0 } as HitsAndMisses,
  /** GraphQL documents parsed and validated before (valid or not): a hit parses nothing. */
  knownQueries: { hits: 0, misses: 0 } as HitsAndMisses,
  /** Duty hours reports kept per network, arguments and dutytime_version: a hit reads no entries. */
  dutyReports: { hits: 0, misses: 0 } as HitsAndMisses,
  /** Windows of dutytime entries kept per network and dutytime_version: a hit reads no entries. */
  dutyEntries: { hits: 0, misses: 0 } as HitsAndMisses,
};

export type CacheName = keyof typeof cacheCounts;
