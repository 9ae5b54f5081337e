// What the rules (src/resolvers) read and write, in the domain's terms: one interface per kind of
// thing stored. All SQL, search plans and row mapping are behind them. Where the two databases
// differ, each has its own implementation (src/db/sqlite/, src/db/postgres/); the SQL they share
// is in src/db/ and src/db/vehicles/. src/db/client.ts picks them for the database opened.
import type { Scope } from "../model/scopes";
import type { MissionReport, OffenderFile, Officer, PatientFile, Vehicle } from "../generated/prisma/client";
import type { VehicleAsRead, VehicleChanges, VehicleSortField } from "../model/vehicleFields";
import type { EventType, SubjectType } from "../model/eventTypes";

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
  data: VehicleAsRead[];
  total: number;
}

export interface VehicleStore {
  /** The network's vehicle, or null. */
  byId(networkId: number, id: number): Promise<VehicleAsRead | null>;
  /** A page of the network's vehicles (those holding the needle) and their exact total. */
  page(networkId: number, request: VehiclePageRequest): Promise<PageAndTotal>;
  /**
   * An id for a new vehicle, that the database never gives another (PostgreSQL: the id column's
   * sequence; SQLite: past AUTOINCREMENT's highest, so run it in the insert's transaction). Taken
   * before the insert, so a change's insert, its event and COMMIT need no answer from each other.
   */
  newId(): Promise<number>;
  /**
   * An id for a new vehicle taken before the change's transaction, where the database allows it
   * (PostgreSQL: the sequence is outside transactions); null where newId must take it in the
   * transaction (SQLite). A network's changes may share one transaction, one after the other
   * (src/db/transactions.ts): an id taken before is one answer less that the others wait for.
   */
  reserveId(): Promise<number | null>;
  /** Stores a new vehicle under an id from newId or reserveId. */
  insert(vehicle: Vehicle): Promise<void>;
  /**
   * Writes the changed fields, the search text and updatedAt, if the vehicle is still as read
   * (its updatedAt unchanged); answers whether it was.
   */
  updateAsRead(read: VehicleAsRead, changes: VehicleChanges, searchText: string, updatedAt: Date): Promise<boolean>;
  /** Deletes the vehicle if it is still as read (its updatedAt unchanged); answers whether it was. */
  removeAsRead(read: VehicleAsRead): Promise<boolean>;
}

export interface ActiveOfficer {
  identifier: string;
  name: string;
  startedAt: Date;
}

/** A dutytime entry as stored. */
export interface DutytimeEntry {
  id: number;
  officerId: number;
  startedAt: Date;
  /** null while open. */
  endedAt: Date | null;
  /** Ended by the network's auto-stop rule. */
  autoStopped: boolean;
}

/**
 * The entries of a report's range by officer id, each officer's as one flat list of instants in
 * epoch milliseconds, `[start, end, start, end, ...]`, an open entry's end Infinity. A year's
 * report reads tens of thousands of entries: as numbers in one array per officer they take a
 * few bytes each, where a Date or an object per entry cost more than the statement and, kept
 * for the report's time, grew the old generation. An officer's name and identifier are read once
 * per report (OfficerStore.reportOfficers), not once per entry.
 */
export type ReportEntries = Map<number, number[]>;

/** An officer as a report names it: whether removed, not when (no instant is read for it). */
export interface ReportOfficer {
  id: number;
  identifier: string;
  name: string;
  removed: boolean;
}

/** Adds an entry to its officer's list (endedMs null: open): the one place that lays the list out. */
export function addReportEntry(entries: ReportEntries, officerId: number, startedMs: number, endedMs: number | null): void {
  const theirs = entries.get(officerId);
  const end = endedMs ?? Infinity;
  if (theirs === undefined) entries.set(officerId, [startedMs, end]);
  else theirs.push(startedMs, end);
}

/** What a toggle did: the entries it ended (then none started), or the entry it started. */
export interface Toggled {
  stopped: DutytimeEntry[];
  started: DutytimeEntry | null;
}

export interface DutytimeStore {
  /** Ends the officer's open entries at `endedAt`; answers those it ended (as ended). */
  stopOpen(networkId: number, officerId: number, endedAt: Date): Promise<DutytimeEntry[]>;
  /**
   * Ends the officer's open entries at `at`, or opens one at `at` when there is none: what it
   * ended, or what it opened. A partial unique index allows one open entry per officer: a start
   * fails with a unique violation (src/db/databaseErrors.ts) when another opened one meanwhile.
   */
  toggle(networkId: number, officerId: number, at: Date): Promise<Toggled>;
  /** The network's officers on duty now, earliest start first. */
  onDuty(networkId: number): Promise<ActiveOfficer[]>;
  /** The open entries of these officers of the network (one statement for any number). */
  openEntries(networkId: number, officerIds: readonly number[]): Promise<DutytimeEntry[]>;
  /** A page of the officer's entries that meet [from, to) (null: unbounded), newest first, and their number. */
  entriesOf(
    networkId: number,
    officerId: number,
    range: { from: Date | null; to: Date | null },
    page: { limit: number; offset: number },
  ): Promise<{ data: DutytimeEntry[]; total: number }>;
  /**
   * The network's dutytime_version: triggers raise it with every change of its entries and of
   * what reports show of its officers, in the same transaction (the migration network_dutytime_version).
   */
  version(networkId: number): Promise<string>;
  /** The network's entries that meet [from, to) (only these officers' when given). */
  entriesMeeting(networkId: number, from: Date, to: Date, officerIds: readonly number[] | null): Promise<ReportEntries>;
  /** The network's entries still open that started before `startedBefore`. */
  openSince(networkId: number, startedBefore: Date): Promise<DutytimeEntry[]>;
  /** Ends an entry by the auto-stop rule, if it is still open; answers whether it was. */
  autoStop(networkId: number, id: number, endedAt: Date): Promise<boolean>;
  /** The network's entry of this id, or null. */
  byId(networkId: number, id: number): Promise<DutytimeEntry | null>;
  /**
   * Sets the entry's start and end, in one statement, if the entry is still as read (its start
   * and end) and no other entry of its officer meets [startedAt, endedAt) (null: open, from
   * startedAt on); answers whether it did. A second open
   * entry of the officer fails with a unique violation.
   */
  correct(networkId: number, entry: DutytimeEntry, startedAt: Date, endedAt: Date | null): Promise<boolean>;
  /** Another entry of the entry's officer that meets [startedAt, endedAt), or null. */
  meeting(networkId: number, entry: DutytimeEntry, startedAt: Date, endedAt: Date | null): Promise<DutytimeEntry | null>;
}

export interface OfficerListRequest {
  /** Only officers on duty (true), off duty (false), or all (null). */
  onDuty: boolean | null;
  /** A search: whether an officer is one of its matches; null: no search. */
  matches: ((officer: Officer) => boolean) | null;
  limit: number;
  offset: number;
}

export interface OfficerStore {
  /** The network's officer of this id (removed ones too), or null. */
  byId(networkId: number, id: number): Promise<Officer | null>;
  /** The network's officer of this identifier (removed ones too), or null. */
  byIdentifier(networkId: number, identifier: string): Promise<Officer | null>;
  /** The network's officers (removed ones too) of these identifiers, those that exist. */
  byIdentifiers(networkId: number, identifiers: readonly string[]): Promise<Officer[]>;
  /** Every officer of the network, removed ones too (a report names those with hours). */
  reportOfficers(networkId: number): Promise<ReportOfficer[]>;
  /** A page of the network's officers (not removed), by name then id, and their number. */
  page(networkId: number, request: OfficerListRequest): Promise<{ data: Officer[]; total: number }>;
  /** Adds an officer; an identifier the network has already fails with a unique violation. */
  add(officer: Omit<Officer, "id">): Promise<Officer>;
  /** Renames the officer if its name is still `from`; answers whether it was. */
  rename(networkId: number, id: number, from: string, to: string): Promise<boolean>;
  /** Changes the officer's name or removal; answers whether the officer was there. */
  update(networkId: number, id: number, changes: Partial<Pick<Officer, "name" | "removedAt">>): Promise<boolean>;
  /**
   * Marks the officer removed at `removedAt`; answers whether it was not removed yet. Its open
   * entry is the caller's to end, in the same transaction (src/resolvers/officers.ts).
   */
  remove(networkId: number, id: number, removedAt: Date): Promise<boolean>;
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

export interface RecordTrendStore {
  /** The network's records of the kind created in each whole hour in [from, to) that has any. */
  perHour(networkId: number, kind: RecordKind, from: Date, to: Date): Promise<{ hour: Date; count: number }[]>;
  /** When each of the network's records of the kind created within the ranges was created. */
  createdIn(networkId: number, kind: RecordKind, ranges: readonly { from: Date; to: Date }[]): Promise<Date[]>;
  /** The network's records of the kind with no creation time. */
  unknown(networkId: number, kind: RecordKind): Promise<number>;
}

/** A key as the API shows it: never its secret, whose SHA-256 hash alone is stored. */
export interface KeyRecord {
  id: number;
  name: string;
  /** The secret's first characters (12; keys made before names and scopes: 10). */
  prefix: string;
  scopes: Scope[];
  /** Browser origins that may use it (`https://dash.example.org`); empty: none. */
  origins: string[];
  createdAt: Date;
  /** The key's own end, chosen when it was made; null: none. */
  expiresAt: Date | null;
  /** Revoked: it stops being valid then (at once, or at the end of a grace period); null: not revoked. */
  revokedAt: Date | null;
  /** To the minute; null: never used. */
  lastUsedAt: Date | null;
}

/** A key as admission reads it: the key and its network. */
export interface StoredKey extends KeyRecord {
  network: { id: number; name: string; identifierType: string; timeZone: string; autoStopAfterHours: number | null };
}

/** What a new key is made of (its secret is the caller's: only prefix and hash are stored). */
export interface NewKey {
  name: string;
  prefix: string;
  hash: string;
  scopes: readonly Scope[];
  origins: readonly string[];
  expiresAt: Date | null;
}

export interface ApiKeyStore {
  /** The stored key of this hash (src/resolvers/apiKeys.ts), or null. One statement, on the read path. */
  byHash(hash: string): Promise<StoredKey | null>;
  /** The network's keys, revoked ones too, newest first. */
  list(networkId: number): Promise<KeyRecord[]>;
  /** The network's key of this id, or null (another network's key is null too). */
  byId(networkId: number, keyId: number): Promise<KeyRecord | null>;
  /**
   * Stores a new key. Fails with a domain error (CONFLICT) when its name is taken among the
   * network's unrevoked keys, or when the network holds its most unrevoked keys already.
   */
  create(networkId: number, key: NewKey, now: Date): Promise<KeyRecord>;
  /**
   * Revokes the network's key at `at` (now, or the end of a grace period; a key revoked earlier
   * keeps its earlier time). Null when the network has no such key; `changed` false when it was
   * revoked at or before `at` already.
   */
  revoke(networkId: number, keyId: number, at: Date, now: Date): Promise<{ key: KeyRecord; changed: boolean } | null>;
  /**
   * In one transaction: revokes the network's key `keyId` at `at` and stores a new one with its
   * name, scopes, origins and expiry and this secret. Earlier keys of that name still in a grace
   * period end no later than `at` either, so that regenerating with no grace leaves only the new
   * key valid. Answers the revoked key and the new one; null when the network has no such
   * unrevoked key.
   */
  replace(
    networkId: number,
    keyId: number,
    secret: { prefix: string; hash: string },
    at: Date,
    now: Date,
  ): Promise<{ replaced: KeyRecord; created: KeyRecord } | null>;
  /** Notes that the key was used at `at` (to the minute); never announced as a key change. */
  touch(keyId: number, at: Date): Promise<void>;
  /** Resolves once the last uses being written are written: the database waits for them before it closes. */
  touchesWritten(): Promise<void>;
  /** Every origin some key lists that is valid at `now` (for CORS preflights, which carry no key). */
  listedOrigins(now: Date): Promise<Set<string>>;
}

/**
 * When what a process keeps of API keys must be dropped (src/resolvers/admittedKeys.ts). Each
 * database tells it its own way: PostgreSQL announces changes to keys and networks
 * (src/db/postgres/keyChanges.ts), SQLite shows every commit (src/db/sqlite/commits.ts).
 */
export interface KeyChanges {
  /**
   * A number that changes with every announced change and every time listening starts again;
   * null while not listening, or while the listening connection has not recently proved alive
   * (then nothing may be kept). Equal numbers at two moments: nothing about keys or networks
   * changed between them, but for transactions committed within the listener's timeout before the
   * later one (src/db/postgres/listener.ts). (On SQLite, src/db/sqlite/commits.ts, it changes
   * with every commit.)
   */
  epoch(): number | null;
  close(): Promise<void>;
}

/** Who made a change: a key, the admin command, or the service itself (the auto-stop rule). */
export interface EventActor {
  kind: "key" | "admin" | "system";
  keyId: number | null;
  keyName: string | null;
}

/** What an event is, recorded or read. */
interface EventHead {
  networkId: number;
  type: EventType;
  occurredAt: Date;
  actor: EventActor;
  subject: { type: SubjectType; id: string };
}

/**
 * An event to record (src/events/record.ts): its data as the JSON text it is stored in, made when
 * the event is recorded. Its sequence is given when it is written.
 */
export interface NewEvent extends EventHead {
  dataJson: string;
}

/** Where a written event stands: its network's sequence, for this process's subscribers (src/db/eventNotices.ts). */
export interface AppendedEvent {
  networkId: number;
  sequence: number;
}

export interface StoredEvent extends EventHead, AppendedEvent {
  data: Record<string, unknown>;
}

/** Which of a network's events a read wants; null: any. */
export interface EventFilter {
  types: readonly EventType[] | null;
  subjectType: SubjectType | null;
  subjectId: string | null;
  keyId: number | null;
  /** occurredAt at or after. */
  from: Date | null;
  /** occurredAt before. */
  to: Date | null;
  /** Sequences after (exclusive). */
  after: number | null;
  /** Sequences before (exclusive). */
  before: number | null;
}

export interface EventStore {
  /** Writes the event under the network's next sequence: only inside the change's transaction. */
  append(event: NewEvent): Promise<AppendedEvent>;
  /** Up to `limit` of the network's events that pass the filter, newest or oldest first. */
  page(networkId: number, filter: EventFilter, window: { limit: number; order: "newest" | "oldest" }): Promise<StoredEvent[]>;
  /** The sequence of each network's last event (0: none yet). */
  lastSequences(networkIds: readonly number[]): Promise<Map<number, number>>;
  /** Removes up to `batch` of the network's events that occurred before `before`; answers how many. */
  removeOlderThan(networkId: number, before: Date, batch: number): Promise<number>;
}

export type WebhookFormat = "standard" | "discord";

/** A webhook as the API shows it: never its secret. */
export interface WebhookRecord {
  id: number;
  networkId: number;
  url: string;
  description: string;
  /** Type filter terms as in /events (`vehicle.*`); empty: every type. */
  types: string[];
  format: WebhookFormat;
  enabled: boolean;
  /** Why the service disabled it; null while enabled or disabled by hand. */
  disabledReason: string | null;
  createdAt: Date;
  /** The sequence of the last event handled (delivered, not for this webhook, or given up). */
  deliveredThrough: number;
  /** Failed attempts of the next event. */
  failedAttempts: number;
}

/** A webhook as its delivery needs it: with its secrets and its Discord rate window. */
export interface DeliverableWebhook extends WebhookRecord {
  secret: string;
  /** The secret before the last rotation, while it still signs (the database's clock); else null. */
  previousSecret: string | null;
  previousSecretUntilMs: number | null;
  /** The database's clock (epoch ms) at its first failure since it last delivered; null: not failing. */
  failingSinceMs: number | null;
  /** The database's clock (epoch ms) of its last requests, oldest first. */
  sendWindow: number[];
}

export interface NewWebhook {
  url: string;
  description: string;
  types: string[];
  format: WebhookFormat;
  secret: string;
}

export interface WebhookChanges {
  url?: string;
  description?: string;
  types?: string[];
  enabled?: boolean;
}

/** One attempt of the delivery log. */
export interface WebhookAttemptRecord {
  id: number;
  webhookId: number;
  /** The request's webhook-id: the (first) event's id. */
  eventId: string;
  firstSequence: number | null;
  lastSequence: number | null;
  attempt: number;
  attemptedAt: Date;
  status: number | null;
  durationMs: number;
  error: string | null;
  kind: string;
  outcome: string;
}

export type NewWebhookAttempt = Omit<WebhookAttemptRecord, "id">;

/** Where a delivery goes on after an attempt, the database's clock deciding the instants. */
export interface DeliveryState {
  deliveredThrough: number;
  failedAttempts: number;
  /** No attempt before this many ms from now (the database's clock). */
  waitMs: number;
  /** The current run of failures: starts now (if none runs), ends, or goes on as it is. */
  failing: "start" | "end" | "keep";
  sendWindow: number[];
  /** Disables the webhook, for this reason. */
  disable: string | null;
}

export interface WebhookStore {
  /** The network's webhooks, oldest first. */
  list(networkId: number): Promise<WebhookRecord[]>;
  /** The network's webhook of this id, or null (another network's is null too). */
  byId(networkId: number, id: number): Promise<DeliverableWebhook | null>;
  /**
   * Stores a new webhook, which delivers the events after the network's last one. Fails with a
   * domain error (CONFLICT) when the network holds its most webhooks already.
   */
  create(networkId: number, webhook: NewWebhook, now: Date): Promise<WebhookRecord>;
  /** Writes the changes; enabling starts afresh (no failures, no waiting). Null: no such webhook. */
  update(networkId: number, id: number, changes: WebhookChanges): Promise<WebhookRecord | null>;
  /** Deletes it and its delivery log; answers it as it was, or null. */
  remove(networkId: number, id: number): Promise<WebhookRecord | null>;
  /** A new secret; the one before keeps signing for `previousSignsMs` (the database's clock). */
  rotateSecret(networkId: number, id: number, secret: string, previousSignsMs: number): Promise<boolean>;
  /** The webhook's delivery log, newest first, before the attempt of id `before` (null: the newest). */
  attempts(webhookId: number, window: { before: number | null; limit: number }): Promise<WebhookAttemptRecord[]>;
  /** Adds an attempt to the delivery log (nothing if the webhook is gone); answers its id, or null. */
  logAttempt(attempt: NewWebhookAttempt): Promise<number | null>;
  /** Whether any enabled webhook has events to deliver and is due and free (on the read path). */
  anyDue(): Promise<boolean>;
  /**
   * Takes up to `limit` enabled webhooks that have events to deliver and are due and free, for
   * `leaseMs` (the database's clock): no other process takes them meanwhile. Answers them and
   * the database's clock.
   */
  claim(owner: string, leaseMs: number, limit: number): Promise<{ webhooks: DeliverableWebhook[]; nowMs: number }>;
  /**
   * Writes the delivery's next state and renews the lease, if `owner` still holds it and the
   * webhook is still enabled; answers the webhook as it is now, or null (another process has taken
   * it over, or it was disabled or deleted: this one stops). The attempt made, if any, is logged
   * either way (as logAttempt does).
   */
  settle(owner: string, id: number, leaseMs: number, state: DeliveryState, attempt?: NewWebhookAttempt): Promise<DeliverableWebhook | null>;
  /** Gives the webhook up for other processes (and this one) to take. */
  release(owner: string, id: number): Promise<void>;
  /** Removes up to `batch` attempts made before `before`; answers how many. */
  removeAttemptsBefore(before: Date, batch: number): Promise<number>;
  /** Events not yet handled by the enabled webhooks, all together (the delivery queue's length). */
  backlog(): Promise<number>;
}

/** Every store of a database. */
export interface Stores {
  vehicles: VehicleStore;
  dutytime: DutytimeStore;
  officers: OfficerStore;
  records: RecordStore;
  recordCounts: RecordCountStore;
  recordTrends: RecordTrendStore;
  apiKeys: ApiKeyStore;
  events: EventStore;
  webhooks: WebhookStore;
}
