// Duty hours reports kept per process. A dashboard asks the same report again and again: each
// viewer, each refresh, the same month. A report is kept with its network's dutytime_version,
// which triggers raise in the same transaction as every change of the network's entries and of
// its officers' names, identifiers and removal (prisma/*/migrations/*_network_dutytime_version),
// whichever process or tool writes. A kept report answers only while the version read for the
// request is still the one it was computed at, so it is never stale, also with several service
// processes on one database. Only reports that no later moment changes are kept (./dutyHours.ts
// says which): an open entry counts up to now.

import { cacheCounts } from "../config/cacheCounts";

/**
 * The numbers all kept reports of a process may hold together: a number of a report is a few
 * bytes in an array, its officer's object spread over its periods, so this bounds the memory to
 * tens of megabytes. The least recently used go first.
 */
export const maxKeptCells = 1_000_000;

interface Kept<Report> {
  version: string;
  report: Report;
  cells: number;
}

export class KeptReports<Report> {
  private readonly kept = new Map<string, Kept<Report>>();
  private cells = 0;

  /** `maxCells`: the numbers all kept reports hold together; a report of more than a tenth of it is not kept. */
  constructor(private readonly maxCells = maxKeptCells) {}

  /** The report computed at this version, if kept. */
  get(key: string, version: string): Report | undefined {
    const entry = this.kept.get(key);
    const hit = entry?.version === version;
    cacheCounts.dutyReports[hit ? "hits" : "misses"] += 1;
    if (!hit) return undefined;
    // Map keeps insertion order: re-inserting marks the entry as recently used.
    this.kept.delete(key);
    this.kept.set(key, entry);
    return entry.report;
  }

  /**
   * Keeps a report computed after `version` was read. A write between the two makes the report
   * newer than its version: harmless, as readers of the newer version do not match it.
   * `cells`: how many numbers it holds (officers times periods, and the periods).
   */
  set(key: string, version: string, report: Report, cells: number): void {
    this.drop(key);
    if (cells > this.maxCells / 10) return;
    this.kept.set(key, { version, report, cells });
    this.cells += cells;
    for (const [oldest, entry] of this.kept) {
      if (this.cells <= this.maxCells) break;
      this.kept.delete(oldest);
      this.cells -= entry.cells;
    }
  }

  /** The numbers the kept reports hold. */
  keptCells(): number {
    return this.cells;
  }

  private drop(key: string): void {
    const entry = this.kept.get(key);
    if (!entry) return;
    this.kept.delete(key);
    this.cells -= entry.cells;
  }
}

