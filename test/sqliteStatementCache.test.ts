// The guard of src/db/sqlite/statementCache.ts, the one module that relies on the `libsql`
// driver's internals: an upgrade that changes them, or a second copy of the driver that the
// client would load unpatched, fails here in plain `npm test`.
import fs from "node:fs";
import path from "node:path";
import { keepPreparedStatements, statementCacheEnabled } from "../src/db/sqlite/statementCache";
import { repoRoot } from "./support/process";

const versionOf = (dir: string) => JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")).version as string;

describe("libsql's statement cache (src/db/sqlite/statementCache.ts)", () => {
  test("libsql is pinned to one exact version, the one installed", () => {
    const pinned: string = JSON.parse(fs.readFileSync(path.join(repoRoot, "package.json"), "utf8")).dependencies.libsql;
    expect(pinned).toMatch(/^\d+\.\d+\.\d+$/);
    expect(versionOf(path.join(repoRoot, "node_modules", "libsql"))).toBe(pinned);
  });

  test("@libsql/client loads the very copy of libsql that is patched", () => {
    const clientDir = path.dirname(require.resolve("@libsql/client"));
    expect(require.resolve("libsql", { paths: [clientDir] })).toBe(require.resolve("libsql"));
  });

  test("a connection prepares a statement once and keeps its columns; the patch applies once", () => {
    keepPreparedStatements();
    keepPreparedStatements();
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the patched class itself
    const Database = require("libsql");
    expect(Database.prototype.prepare.cached).toBe(true);
    const connection = new Database(":memory:");
    const first = connection.prepare("SELECT 1 AS one, 'x' AS two");
    expect(connection.prepare("SELECT 1 AS one, 'x' AS two")).toBe(first);
    expect(first.columns().map((column: { name: string }) => column.name)).toEqual(["one", "two"]);
    expect(first.columns()).toBe(first.columns());
    expect(first.get()).toEqual({ one: 1, two: "x" });
    // Another connection keeps its own.
    const other = new Database(":memory:");
    expect(other.prepare("SELECT 1 AS one, 'x' AS two")).not.toBe(first);
    connection.close();
    other.close();
  });

  test("SQLITE_STATEMENT_CACHE=off turns it off", () => {
    const before = process.env.SQLITE_STATEMENT_CACHE;
    process.env.SQLITE_STATEMENT_CACHE = "off";
    try {
      expect(statementCacheEnabled()).toBe(false);
    } finally {
      if (before === undefined) delete process.env.SQLITE_STATEMENT_CACHE;
      else process.env.SQLITE_STATEMENT_CACHE = before;
    }
    expect(statementCacheEnabled()).toBe(true);
  });
});
