// A window of each network's dutytime entries kept per process, so that a report of a range not
// asked before (a range picked by hand, "the last 30 days" up to now, each refresh a new one) is
// counted from memory instead of reading its entries again. Reading them was most of what such a
// report cost (docs/performance.md, "Reports: a window of entries kept").
//
// Invariant, the one of ./keptReports.ts: a window is kept with its network's dutytime_version,
// read before its entries, and answers only a request that read that same version. Triggers raise
// the version in the same transaction as every insert, change and delete of an entry, whichever
// process or tool writes (prisma/*/migrations/*_network_dutytime_version), so a window is never
// older than the version it answers. A write between the version read and the entries read makes
// the window newer than its version: harmless, as readers of the newer version do not match it.
//
// What a window holds: every entry of the network that meets [from, to) (ended after `from` or
// open, started before `to`), as ReportEntries. A report of a range inside the window counts the
// same shifts as from its own read: counting cuts each entry to the report's range and drops
// those outside it (shiftsOf). Nothing depends on the clock: an open entry counts up to the
// moment of the report, which is applied when it is counted.

import { cacheCounts } from "../config/cacheCounts";
import type { ReportEntries } from "../db/store";
import { earliestInstant, latestInstant } from "../model/isoInstant";

/** What all windows of a process may hold together, as windowBytes estimates them. */
export const maxKeptEntriesBytes = 16 * 1024 * 1024;

/** The least a window reaches beyond its request on each side. */
const minMarginMs = 60 * 60 * 1000;


/**
 * The window read for a request's range: a quarter of its length (an hour at least) more on each
 * side, so the ranges a dashboard asks next (one that starts a little earlier, "up to now" a
 * minute later) fall inside it, for a read of 1.5 times the range (more for a range under four
 * hours). A report inside a larger window counts past more entries, far fewer than a read costs.
 * It stays within the instants a DateTime holds.
 */
export function windowAround(from: Date, to: Date): { from: Date; to: Date } {
  const margin = Math.max((to.getTime() - from.getTime()) / 4, minMarginMs);
  return {
    from: new Date(Math.max(earliestInstant, from.getTime() - margin)),
    to: new Date(Math.min(latestInstant, to.getTime() + margin)),
  };
}

/** About what a window holds in memory: a list per officer, 8 bytes per number (two per entry). */
export function windowBytes(entries: ReportEntries): number {
  let bytes = 200;
  for (const list of entries.values()) bytes += 80 + 8 * list.length;
  return bytes;
}

interface Window {
  version: string;
  from: number;
  to: number;
  entries: ReportEntries;
  bytes: number;
}

/** One window per network, the least recently used dropped first when they hold too much. */
export class KeptEntries {
  private readonly windows = new Map<number, Window>();
  private bytes = 0;

  /** `maxBytes`: what all windows hold together; a window of more than a quarter of it is not kept. */
  constructor(private readonly maxBytes = maxKeptEntriesBytes) {}

  /** The entries of the network's window if it was read at this version and holds [from, to). */
  get(networkId: number, version: string, from: Date, to: Date): ReportEntries | undefined {
    const window = this.windows.get(networkId);
    const hit = window !== undefined && window.version === version && window.from <= from.getTime() && to.getTime() <= window.to;
    cacheCounts.dutyEntries[hit ? "hits" : "misses"] += 1;
    if (!hit) return undefined;
    // Map keeps insertion order: re-inserting marks the window as recently used.
    this.windows.delete(networkId);
    this.windows.set(networkId, window);
    return window.entries;
  }

  /** Keeps the entries read for [from, to) after `version` was read, in place of the network's window. */
  offer(networkId: number, version: string, from: Date, to: Date, entries: ReportEntries): void {
    this.drop(networkId);
    const bytes = windowBytes(entries);
    if (bytes > this.maxBytes / 4) return;
    this.windows.set(networkId, { version, from: from.getTime(), to: to.getTime(), entries, bytes });
    this.bytes += bytes;
    for (const [oldest, window] of this.windows) {
      if (this.bytes <= this.maxBytes) break;
      this.windows.delete(oldest);
      this.bytes -= window.bytes;
    }
  }

  /** What the windows hold together (for tests). */
  get heldBytes(): number {
    return this.bytes;
  }

  private drop(networkId: number): void {
    const window = this.windows.get(networkId);
    if (!window) return;
    this.windows.delete(networkId);
    this.bytes -= window.bytes;
  }
}
