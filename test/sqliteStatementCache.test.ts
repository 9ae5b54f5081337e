// Statements kept per SQLite connection (src/db/sqlite/keptStatements.ts) and the libSQL client
// under Prisma's adapter that keeps them (src/db/sqlite/connectionClient.ts): one statement per
// text and connection, bounded, gone with the connection; results and errors as @libsql/client's
// own local-file client gives them, so an upgrade of libsql or @libsql/client that changes
// either fails here, in plain `npm test`; no prototype of the driver is touched.
import fs from "node:fs";
import path from "node:path";
import Database from "libsql";
import { createClient, type Client, type InStatement, type ResultSet } from "@libsql/client";
import { keptStatements } from "../src/db/sqlite/keptStatements";
import { openConnectionClient } from "../src/db/sqlite/connectionClient";
import { SqliteAdapterFactory, statementCacheEnabled } from "../src/db/sqlite/adapter";
import { temporaryDir } from "./support/database";

let dir: string;
beforeAll(() => {
  dir = temporaryDir("vrd-statements-");
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

let files = 0;
const fileUrl = () => `file:${path.join(dir, `db${++files}.db`)}`;

describe("statements kept per connection (src/db/sqlite/keptStatements.ts)", () => {
  test("one statement per text, prepared once; more than the bound starts over; a failed prepare keeps nothing", () => {
    let prepared = 0;
    const kept = keptStatements((sql) => {
      if (sql === "bad") throw new Error("no");
      prepared += 1;
      return { sql };
    }, 3);
    const first = kept.get("a");
    expect(kept.get("a")).toBe(first);
    kept.get("b");
    kept.get("c");
    expect([prepared, kept.size]).toEqual([3, 3]);
    expect(() => kept.get("bad")).toThrow("no");
    expect(kept.size).toBe(3);
    kept.get("d");
    expect(kept.size).toBe(1);
    expect(kept.get("a")).not.toBe(first);
    kept.clear();
    expect(kept.size).toBe(0);
  });
});

describe("the libSQL client under Prisma's adapter (src/db/sqlite/connectionClient.ts)", () => {
  test("a connection prepares each text once, keeps at most 500, and drops them when it closes; another connection keeps its own", async () => {
    const url = fileUrl();
    const client = openConnectionClient({ url });
    const other = openConnectionClient({ url });
    const kept = client.keptStatementCount;
    for (let i = 0; i < 3; i++) await client.execute({ sql: "SELECT ? AS one", args: [i] });
    expect(client.keptStatementCount).toBe(kept + 1);
    expect(other.keptStatementCount).toBe(kept);
    for (let i = 0; i < 520; i++) await client.execute(`SELECT ${i} AS n`);
    expect(client.keptStatementCount).toBeLessThanOrEqual(500);
    client.close();
    expect(client.closed).toBe(true);
    expect(client.keptStatementCount).toBe(0);
    await expect(client.execute("SELECT 1")).rejects.toMatchObject({ code: "CLIENT_CLOSED" });
    expect((await other.execute("SELECT 2 AS two")).rows.map((row) => Array.from(row as unknown as unknown[]))).toEqual([[2]]);
    other.close();
  });

  test("a file that cannot be opened fails when the client opens, as @libsql/client's does; other than a local file is refused", () => {
    const unreachable = `file:${path.join(dir, "no-such-folder", "x.db")}`;
    expect(() => createClient({ url: unreachable })).toThrow();
    expect(() => openConnectionClient({ url: unreachable })).toThrow();
    expect(() => openConnectionClient({ url: "libsql://example.org" })).toThrow(/file: URLs only/);
    expect(() => openConnectionClient({ url: fileUrl(), authToken: "t" })).toThrow(/local files only/);
    expect(() => openConnectionClient({ url: fileUrl(), intMode: "bigint" })).toThrow(/local files only/);
  });

  /** What a result or an error is, as Prisma's adapter reads it. */
  async function outcome(client: Client, statement: InStatement) {
    const bytes = (value: unknown) => (value instanceof ArrayBuffer ? { bytes: Array.from(new Uint8Array(value)) } : value);
    try {
      const result: ResultSet = await client.execute(statement);
      return {
        columns: result.columns,
        columnTypes: result.columnTypes,
        rows: result.rows.map((row) => Array.from(row as unknown as unknown[], bytes)),
        rowsAffected: result.rowsAffected,
        lastInsertRowid: result.lastInsertRowid,
        json: JSON.stringify(result),
      };
    } catch (error) {
      const { name, message, code, rawCode } = error as { name: string; message: string; code?: string; rawCode?: number };
      return { error: { type: (error as object).constructor.name, name, message, code, rawCode } };
    }
  }

  test("results and errors are @libsql/client's own, statement by statement", async () => {
    const ours = openConnectionClient({ url: fileUrl() });
    const stock = createClient({ url: fileUrl() });
    const statements: InStatement[] = [
      "CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT UNIQUE, big INTEGER, data BLOB, at TEXT, r REAL, flag INTEGER)",
      { sql: "INSERT INTO t (name, big, data, at, r, flag) VALUES (?, ?, ?, ?, ?, ?)", args: ["a", 9007199254740991, new Uint8Array([1, 2, 3]), "2026-11-21T22:32:09.003+00:00", 1.5, true] },
      { sql: "INSERT INTO t (name, big, data, at, flag) VALUES (?, ?, ?, ?, ?) RETURNING id, name, big", args: ["b", 2n ** 40n, new Uint8Array([4]).buffer, new Date(5), false] },
      { sql: "SELECT * FROM t WHERE name = :name", args: { ":name": "a" } },
      { sql: "SELECT id, name, data, r, flag, at, big + 0 AS sum, NULL AS nothing FROM t ORDER BY id", args: [] },
      { sql: "SELECT COUNT(*) AS total FROM t WHERE id > ?", args: [0] },
      { sql: "UPDATE t SET r = ? WHERE id > ?", args: [2.25, 0] },
      { sql: "INSERT INTO t (name) VALUES (?)", args: ["a"] },
      { sql: "INSERT INTO t (name, big) VALUES (?, ?)", args: ["huge", 2n ** 60n] },
      { sql: "SELECT big FROM t WHERE name = ?", args: ["huge"] },
      "SELEC nothing",
      { sql: "SELECT * FROM missing", args: [] },
      "PRAGMA busy_timeout = 5000",
      { sql: "DELETE FROM t WHERE name = ?", args: ["huge"] },
    ];
    for (const statement of statements) {
      expect({ statement, outcome: await outcome(ours, statement) }).toEqual({ statement, outcome: await outcome(stock, statement) });
    }
    // The same texts again: kept statements answer alike.
    for (const statement of statements.slice(3, 6)) expect(await outcome(ours, statement)).toEqual(await outcome(stock, statement));
    await ours.executeMultiple("CREATE TABLE u (x); INSERT INTO u VALUES (1); INSERT INTO u VALUES (2);");
    await stock.executeMultiple("CREATE TABLE u (x); INSERT INTO u VALUES (1); INSERT INTO u VALUES (2);");
    expect(await outcome(ours, "SELECT SUM(x) AS s FROM u")).toEqual(await outcome(stock, "SELECT SUM(x) AS s FROM u"));
    ours.close();
    stock.close();
  });

  test("transactions run on the one connection, and a batch commits or rolls back as a whole", async () => {
    const url = fileUrl();
    const client = openConnectionClient({ url });
    await client.execute("CREATE TABLE t (x INTEGER UNIQUE)");
    const transaction = await client.transaction("write");
    await transaction.execute({ sql: "INSERT INTO t VALUES (?)", args: [1] });
    // Uncommitted: another connection does not see it yet.
    const reader = new Database(path.join(dir, `db${files}.db`));
    expect(reader.prepare("SELECT COUNT(*) AS n FROM t").get()).toEqual({ n: 0 });
    await transaction.commit();
    expect(transaction.closed).toBe(true);
    expect(reader.prepare("SELECT COUNT(*) AS n FROM t").get()).toEqual({ n: 1 });
    await expect(client.batch([{ sql: "INSERT INTO t VALUES (?)", args: [2] }, { sql: "INSERT INTO t VALUES (?)", args: [1] }])).rejects.toMatchObject({ code: "SQLITE_CONSTRAINT_UNIQUE" });
    await client.batch([{ sql: "INSERT INTO t VALUES (?)", args: [3] }], "write");
    expect(reader.prepare("SELECT group_concat(x) AS xs FROM t").get()).toEqual({ xs: "1,3" });
    reader.close();
    client.close();
  });

  test("Prisma's adapter runs on it: a statement it repeats is prepared once; dispose closes the connection", async () => {
    const clients: ReturnType<typeof openConnectionClient>[] = [];
    class Observed extends SqliteAdapterFactory {
      override createClient(config: Parameters<SqliteAdapterFactory["createClient"]>[0]) {
        const client = super.createClient(config) as ReturnType<typeof openConnectionClient>;
        clients.push(client);
        return client;
      }
    }
    const adapter = await new Observed({ url: fileUrl() }).connect();
    expect(clients).toHaveLength(1);
    await adapter.executeRaw({ sql: "CREATE TABLE t (x INTEGER, at TEXT)", args: [], argTypes: [] });
    const query = (x: number) => ({ sql: "SELECT x, ? AS echo FROM t WHERE x >= ?", args: [x, 0], argTypes: [{ scalarType: "int", arity: "scalar" }, { scalarType: "int", arity: "scalar" }] }) as never;
    const transaction = await adapter.startTransaction();
    await transaction.executeRaw({ sql: "INSERT INTO t VALUES (?, ?)", args: [7, new Date("2026-11-21T22:32:09.003Z")], argTypes: [{ scalarType: "int", arity: "scalar" }, { scalarType: "datetime", arity: "scalar" }] } as never);
    await transaction.commit();
    const first = await adapter.queryRaw(query(1));
    const kept = clients[0].keptStatementCount;
    expect(await adapter.queryRaw(query(1))).toEqual(first);
    expect(first).toMatchObject({ columnNames: ["x", "echo"], rows: [[7, 1]] });
    expect(clients[0].keptStatementCount).toBe(kept);
    await adapter.dispose();
    expect(clients[0].closed).toBe(true);
    expect(clients[0].keptStatementCount).toBe(0);
  });

  test("SQLITE_STATEMENT_CACHE=off gives @libsql/client's own client", () => {
    const before = process.env.SQLITE_STATEMENT_CACHE;
    process.env.SQLITE_STATEMENT_CACHE = "off";
    try {
      expect(statementCacheEnabled()).toBe(false);
      const stock = new SqliteAdapterFactory({ url: fileUrl() }).createClient({ url: fileUrl() });
      expect("keptStatementCount" in stock).toBe(false);
      stock.close();
    } finally {
      if (before === undefined) delete process.env.SQLITE_STATEMENT_CACHE;
      else process.env.SQLITE_STATEMENT_CACHE = before;
    }
    expect(statementCacheEnabled()).toBe(true);
    const ours = new SqliteAdapterFactory({ url: fileUrl() }).createClient({ url: fileUrl() });
    expect("keptStatementCount" in ours).toBe(true);
    ours.close();
  });
});
