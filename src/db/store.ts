// What the rules (src/resolvers) read and write, in the domain's terms: one interface per kind of
// thing stored. All SQL, search plans and row mapping are behind them. Where the two databases
// differ, each has its own implementation (src/db/sqlite/, src/db/postgres/); the SQL they share
// is in src/db/ and src/db/vehicles/. src/db/client.ts picks them for the database opened.
import type { MissionReport, OffenderFile, Officer, PatientFile, Vehicle } from "../generated/prisma/client";
import type { VehicleChanges, VehicleSortField } from "../model/vehicleFields";

export interface VehicleOrder {
  field: VehicleSortField;
  direction: "asc" | "desc";
}

export interface VehiclePageRequest {
  /** Matched as a substring of the search text, already spelled like it (src/resolvers/vehicleInput.ts); null: no search. */
  needle: string | null;
  /** null: in id order. Nulls sort last in both directions, ties by id. */
  order: VehicleOrder | null;
  limit: number;
  offset: number;
}

/** A page of the list and the total it belongs to. */
export interface PageAndTotal {
  data: Vehicle[];
  total: number;
}

export interface VehicleStore {
  /** The network's vehicle, or null. */
  byId(networkId: number, id: number): Promise<Vehicle | null>;
  /** A page of the network's vehicles (those holding the needle) and their exact total. */
  page(networkId: number, request: VehiclePageRequest): Promise<PageAndTotal>;
  /** Stores a new vehicle; answers it with its id. */
  insert(vehicle: Omit<Vehicle, "id">): Promise<Vehicle>;
  /**
   * Writes the changed fields, the search text and updatedAt, if the vehicle is still as read
   * (its updatedAt unchanged); answers whether it was.
   */
  updateAsRead(read: Vehicle, changes: VehicleChanges, searchText: string, updatedAt: Date): Promise<boolean>;
  /** Deletes the network's vehicle; answers whether it was there. */
  remove(networkId: number, id: number): Promise<boolean>;
}

export interface ActiveOfficer {
  identifier: string;
  name: string;
  startedAt: Date;
}

export interface DutytimeStore {
  /** Ends the officer's open entries at `endedAt`; answers how many it ended. */
  stopOpen(networkId: number, officerId: number, endedAt: Date): Promise<number>;
  /**
   * Opens an entry. A partial unique index allows one open entry per officer: a second fails
   * with a unique violation (src/resolvers/databaseErrors.ts).
   */
  start(networkId: number, officerId: number, startedAt: Date): Promise<void>;
  /** The network's officers on duty now, earliest start first. */
  onDuty(networkId: number): Promise<ActiveOfficer[]>;
}

export interface OfficerStore {
  /** The network's officer of this identifier, or null. */
  byIdentifier(networkId: number, identifier: string): Promise<Officer | null>;
  /** Adds an officer; an identifier the network has already fails with a unique violation. */
  add(officer: Omit<Officer, "id">): Promise<Officer>;
}

export interface RecordStore {
  addMissionReport(report: Omit<MissionReport, "id">): Promise<MissionReport>;
  addPatientFile(file: Omit<PatientFile, "id">): Promise<PatientFile>;
  addOffenderFile(file: Omit<OffenderFile, "id">): Promise<OffenderFile>;
}

/** Records counted together: mission reports; patient and offender files. */
export type RecordKind = "missions" | "files";

export interface RecordCountStore {
  /** The network's records of the kind, every one, known creation time or not. */
  total(networkId: number, kind: RecordKind): Promise<number>;
  /** The network's records of the kind created at or after `since` (never one of unknown creation time). */
  createdSince(networkId: number, kind: RecordKind, since: Date): Promise<number>;
}

/** A key as stored: its network, and when it stops being valid (null: never). */
export interface StoredKey {
  network: { id: number; name: string; identifierType: string };
  expiresAt: Date | null;
}

export interface ApiKeyStore {
  /** The stored key of this hash (src/resolvers/apiKeys.ts), or null. */
  byHash(hash: string): Promise<StoredKey | null>;
  /**
   * Stores a new key of the network and, in the same transaction, makes its keys valid past
   * `expiresAt` expire then.
   */
  replace(networkId: number, key: { prefix: string; hash: string }, expiresAt: Date, now: Date): Promise<void>;
}

/**
 * When what a process keeps of API keys must be dropped (src/resolvers/admittedKeys.ts). Each
 * database tells it its own way: PostgreSQL announces changes to keys and networks
 * (src/db/postgres/keyChanges.ts), SQLite shows every commit (src/db/sqlite/commits.ts).
 */
export interface KeyChanges {
  /**
   * A number that changes with every announced change and every time listening starts or stops;
   * null while not listening (then nothing may be kept). Equal numbers at two moments: nothing
   * about keys or networks changed between them, as far as committed transactions go. (On
   * SQLite, src/db/sqlite/commits.ts, it changes with every commit.)
   */
  epoch(): number | null;
  close(): Promise<void>;
}

/** Every store of a database. */
export interface Stores {
  vehicles: VehicleStore;
  dutytime: DutytimeStore;
  officers: OfficerStore;
  records: RecordStore;
  recordCounts: RecordCountStore;
  apiKeys: ApiKeyStore;
}
