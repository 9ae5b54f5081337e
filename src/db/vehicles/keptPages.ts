// Pages of a network's vehicles without a search, kept in memory with the network's
// vehicle_version. Dashboards poll the same first pages of the list, sorted one way or another,
// and a page's rows are most of what answering it costs. Triggers raise the version in the same
// transaction as every insert, delete and update of a vehicle, whatever its columns, whoever
// writes it (a service process, the admin command, an operator's SQL; PostgreSQL's TRUNCATE too):
// a page kept at the version a reader has just read is the page its own read would give, also
// with several service processes on one database.
//
// Invariant: a page is kept at a version read no later than its rows (in the same statement on
// PostgreSQL, before it on SQLite). A write in between makes the page newer than its version,
// which only readers of that older version can be given, while the write commits.

import { cacheCounts } from "../../config/cacheCounts";
import type { VehicleAsRead } from "../../model/vehicleFields";
import { keptPerReadPath } from "../adapterReads";
import type { PageWindow } from "./pageSql";

/** Vehicles kept per process and database, over all pages; the least recently used pages go first. */
export const maxKeptVehicles = 5_000;

interface KeptPage {
  version: string;
  /** Shared by every request the page answers: never changed once kept. */
  vehicles: readonly VehicleAsRead[];
}

const keyOf = (networkId: number, { order, limit, offset }: PageWindow) =>
  `${networkId}:${order === null ? "" : `${order.direction === "desc" ? "-" : ""}${order.field}`}:${limit}:${offset}`;

export class KeptPages {
  private readonly pages = new Map<string, KeptPage>();
  private vehicles = 0;

  constructor(private readonly maxVehicles = maxKeptVehicles) {}

  /** Whether a page is kept for the window at some version: only then is a version worth reading first. */
  holds(networkId: number, window: PageWindow): boolean {
    return this.pages.has(keyOf(networkId, window));
  }

  /** The page kept at `version` (null: none read), counted as a hit or a miss. */
  answer(networkId: number, window: PageWindow, version: string | null): VehicleAsRead[] | undefined {
    const key = keyOf(networkId, window);
    const page = version === null ? undefined : this.pages.get(key);
    const hit = page !== undefined && page.version === version;
    cacheCounts.vehiclePages[hit ? "hits" : "misses"] += 1;
    if (!hit) return undefined;
    // Map keeps insertion order: re-inserting marks the page as recently used.
    this.pages.delete(key);
    this.pages.set(key, page);
    // Readers only read a page's vehicles (GraphQL serializes them); the array is frozen.
    return page.vehicles as VehicleAsRead[];
  }

  /** Keeps a page read at `version` or later (see the invariant above); an empty page is not kept. */
  keep(networkId: number, window: PageWindow, version: string, vehicles: VehicleAsRead[]): void {
    if (vehicles.length === 0 || vehicles.length > this.maxVehicles) return;
    const key = keyOf(networkId, window);
    this.drop(key);
    this.pages.set(key, { version, vehicles: Object.freeze(vehicles) });
    this.vehicles += vehicles.length;
    while (this.vehicles > this.maxVehicles) this.drop(this.pages.keys().next().value as string);
  }

  private drop(key: string): void {
    const page = this.pages.get(key);
    if (!page) return;
    this.pages.delete(key);
    this.vehicles -= page.vehicles.length;
  }
}

/** The pages kept per read path, i.e. per database a process has open. */
export const keptPagesOf = keptPerReadPath(() => new KeptPages());
