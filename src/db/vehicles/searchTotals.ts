// Exact search totals without a count per request. Counting the matches of a term means looking
// at every vehicle of the network (figures: docs/performance.md), and the same search is
// asked again and again: each page of it, each refresh of a dashboard. A total is kept per
// (network, term) together with the network's vehicle_version, which triggers raise at every
// insert, update and delete of a vehicle in the same transaction. A kept total is used
// only while the version read for the request is still the one it was counted at, so it is
// never stale, also with several service processes on one database.

import { cacheCounts } from "../../config/cacheCounts";

/** Totals kept per process; the least recently used go first. */
const maxEntries = 10_000;

interface KeptTotal {
  version: string;
  total: number;
}

export class SearchTotals {
  private readonly kept = new Map<string, KeptTotal>();

  /** The total counted at this version, if kept. */
  get(networkId: number, needle: string, version: string): number | undefined {
    const key = `${networkId}:${needle}`;
    const entry = this.kept.get(key);
    cacheCounts.searchTotals[entry?.version === version ? "hits" : "misses"] += 1;
    if (!entry || entry.version !== version) return undefined;
    // Map keeps insertion order: re-inserting marks the entry as recently used.
    this.kept.delete(key);
    this.kept.set(key, entry);
    return entry.total;
  }

  /**
   * Keeps a total counted after `version` was read. A write between the two makes the count
   * newer than its version: harmless, as readers of the newer version do not match it.
   */
  set(networkId: number, needle: string, version: string, total: number): void {
    const key = `${networkId}:${needle}`;
    this.kept.delete(key);
    this.kept.set(key, { version, total });
    if (this.kept.size > maxEntries) this.kept.delete(this.kept.keys().next().value as string);
  }
}
