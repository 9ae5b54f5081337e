// A consistent copy of the embedded database while the service runs and writes: SQLite's
// VACUUM INTO reads one snapshot (in WAL mode it waits for no writer and holds none back) and
// writes it, compacted, to a new file, which is a complete database on its own (no -wal file).
import fs from "node:fs";
import Database from "libsql";

export function backupSqlite(file: string, target: string): void {
  // VACUUM INTO refuses a non-empty file; say so in the admin's words instead.
  if (fs.existsSync(target)) throw new Error(`${target} exists: back up to a new file.`);
  const connection = new Database(file);
  try {
    connection.prepare("VACUUM INTO ?").run(target);
  } finally {
    connection.close();
  }
}
