// What the migration runner (src/db/migrate.ts) needs of a database; each database provides it
// (src/db/sqlite/migrations.ts, src/db/postgres/migrations.ts).

export interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

/** What the runner needs of a database, inside its migration lock. */
export interface MigrationSession {
  /** Checksums of the migrations applied so far, by name. */
  appliedChecksums(): Promise<Map<string, string>>;
  /** Runs the migration's script and records it, atomically. */
  apply(migration: Migration): Promise<void>;
}

export interface MigrationTarget {
  /** Runs `work` holding a lock that other migrating processes wait for. */
  locked<T>(work: (session: MigrationSession) => Promise<T>): Promise<T>;
}
