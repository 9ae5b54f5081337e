// Where a SQLite database lives.
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The file behind a `file:` URL. */
export function sqliteFilePath(url: string): string {
  const file = url.startsWith("file://") ? fileURLToPath(url) : url.slice("file:".length);
  return path.resolve(file);
}
