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
 * The bytes all kept reports of a process may hold together, as `reportBytes` estimates them:
 * a small part of the service's heap. The least recently used go first.
 */
export const maxKeptBytes = 16 * 1024 * 1024;

/**
 * About what a report holds in memory: per period an object with its label and two Dates, per
 * officer an object with its strings and one number per period (V8's heap grew by about this,
 * within 20%, for reports of 31 days by 200 officers and 400 days by 100).
 */
export const reportBytes = (periods: number, officers: number) => periods * 200 + officers * (350 + 8 * periods);

interface Kept<Report> {
  version: string;
  report: Report;
  bytes: number;
}

/**
 * Reports asked once and not kept, remembered by key: a report is kept when it is counted a
 * second time. A report asked only once (a range picked by hand, a client asking a new range
 * each time) would be memory held for nothing, and churning the kept reports with such would
 * cost garbage collection for every request. When this many are remembered, they are forgotten.
 */
export const maxAskedOnce = 4_096;

export class KeptReports<Report> {
  private readonly kept = new Map<string, Kept<Report>>();
  private readonly askedOnce = new Set<string>();
  private bytes = 0;

  /** `maxBytes`: what all kept reports hold together; a report of more than a tenth of it is not kept. */
  constructor(private readonly maxBytes = maxKeptBytes) {}

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
   * Keeps a report computed after `version` was read, if it was counted before (else remembers
   * that it was). A write between the two makes the report newer than its version: harmless, as
   * readers of the newer version do not match it. `bytes`: what it holds (reportBytes).
   * Requests of one report run side by side: one counted at the version already kept leaves the
   * kept one in place (dropping it made every other one count it again).
   */
  offer(key: string, version: string, report: Report, bytes: number): void {
    if (this.kept.get(key)?.version === version) return;
    const wasKept = this.drop(key);
    if (bytes > this.maxBytes / 10) return;
    if (!wasKept && !this.askedOnce.delete(key)) {
      this.rememberAsked(key);
      return;
    }
    this.kept.set(key, { version, report, bytes });
    this.bytes += bytes;
    for (const [oldest, entry] of this.kept) {
      if (this.bytes <= this.maxBytes) break;
      this.kept.delete(oldest);
      this.bytes -= entry.bytes;
    }
  }

  /**
   * Whether a report of this key is kept or was counted once. If not, counting it now only
   * remembers that it was asked (`rememberAsked`, not `offer`), so its version need not be read:
   * a report is only ever kept with a version read before it was counted. Counts a miss if not.
   */
  known(key: string): boolean {
    if (this.kept.has(key) || this.askedOnce.has(key)) return true;
    cacheCounts.dutyReports.misses += 1;
    return false;
  }

  /** Remembers that a report of this key was counted once (see `offer`). */
  rememberAsked(key: string): void {
    if (this.askedOnce.size >= maxAskedOnce) this.askedOnce.clear();
    this.askedOnce.add(key);
  }

  /** What the kept reports hold, in bytes as estimated when kept. */
  keptBytes(): number {
    return this.bytes;
  }

  /** Forgets the key's kept report; answers whether there was one. */
  private drop(key: string): boolean {
    const entry = this.kept.get(key);
    if (!entry) return false;
    this.kept.delete(key);
    this.bytes -= entry.bytes;
    return true;
  }
}

