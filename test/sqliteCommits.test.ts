// On SQLite a process keeps the keys it admitted until any connection of any process commits,
// which it sees in the database's WAL index (src/db/sqlite/commits.ts): the epoch on a real
// file, the keeping through the service's own read path, and revocations refused at once.
import path from "node:path";
import Database from "libsql";
import type { ReadSql } from "../src/db/adapterReads";
import { overPaths, sqliteFilePath } from "../src/db/client";
import { noteCommitInThisProcess, sqliteCommitsOf, walIndexHeader } from "../src/db/sqlite/commits";
import { noteKeyChangeInThisProcess } from "../src/db/keyChanges";
import { admittedKeys } from "../src/resolvers/admittedKeys";
import { client } from "./support/http";
import { startService, temporaryDir, testProvider, type TestService } from "./support/service";

const describeSqlite = testProvider === "sqlite" ? describe : describe.skip;

/** A database file in WAL mode with one table, and a connection that writes to it. */
function walFile() {
  const file = path.join(temporaryDir(), "commits.db");
  const writer = new Database(file);
  writer.prepare("PRAGMA journal_mode = WAL").all();
  writer.exec("CREATE TABLE t (x INTEGER)");
  return { file, writer };
}

describeSqlite("commits seen in SQLite's WAL index", () => {
  test("the epoch is unknown without a WAL index, stays while nothing commits, and moves with every commit", () => {
    const { file, writer } = walFile();
    const commits = walIndexHeader(path.join(path.dirname(file), "other.db"));
    expect(commits.epoch()).toBeNull();

    const epochOf = walIndexHeader(file);
    const reader = new Database(file);
    reader.prepare("SELECT count(*) FROM t").get();
    const first = epochOf.epoch();
    expect(first).not.toBeNull();
    expect(epochOf.epoch()).toBe(first);
    reader.prepare("SELECT count(*) FROM t").get();
    expect(epochOf.epoch()).toBe(first);

    writer.exec("INSERT INTO t VALUES (1)");
    const second = epochOf.epoch();
    expect(second).not.toBe(first);
    expect(epochOf.epoch()).toBe(second);
    // A checkpoint that empties the WAL, then a commit that starts it again from its beginning.
    writer.prepare("PRAGMA wal_checkpoint(TRUNCATE)").all();
    const afterCheckpoint = epochOf.epoch();
    writer.exec("INSERT INTO t VALUES (2)");
    expect(epochOf.epoch()).not.toBe(afterCheckpoint);
    // A rolled back transaction commits nothing.
    const beforeRollback = epochOf.epoch();
    writer.exec("BEGIN; INSERT INTO t VALUES (3); ROLLBACK");
    expect(epochOf.epoch()).toBe(beforeRollback);
    writer.close();
    reader.close();
  });

  test("the header is read once per turn of the event loop, and again after this process changed a key or committed", async () => {
    const { file, writer } = walFile();
    const reader = new Database(file);
    reader.prepare("SELECT count(*) FROM t").get();
    const epochOf = sqliteCommitsOf(file);
    const nextTurn = () => new Promise((resolve) => setImmediate(resolve));
    await nextTurn();

    const first = epochOf.epoch();
    expect(first).not.toBeNull();
    writer.exec("INSERT INTO t VALUES (1)");
    // Another connection's commit, in the turn that read the header: seen from the next turn on.
    expect(epochOf.epoch()).toBe(first);
    await nextTurn();
    const second = epochOf.epoch();
    expect(second).not.toBe(first);

    writer.exec("INSERT INTO t VALUES (2)");
    noteKeyChangeInThisProcess();
    // This process's own change to a key is seen at once.
    const third = epochOf.epoch();
    expect(third).not.toBe(second);

    writer.exec("INSERT INTO t VALUES (3)");
    noteCommitInThisProcess();
    // And a group of writes this process committed (src/db/sqlite/groupCommit.ts), in the same turn.
    expect(epochOf.epoch()).not.toBe(third);
    writer.close();
    reader.close();
  });

  test("a key admitted once is not looked up again until something commits", async () => {
    const service = await startService();
    try {
      const network = await service.network();
      const db = service.db;
      let lookUps = 0;
      const byKey: ReadSql["byKey"] = (query) => (lookUps++, db.read.byKey(query));
      const counted = Object.assign((query: Parameters<ReadSql>[0]) => db.read(query), { first: byKey, byKey, keyTable: db.read.keyTable, page: db.read.page }) as ReadSql;
      const networkOf = admittedKeys(overPaths(db, { read: counted }).apiKeys, db.keyChanges);
      const now = new Date();

      for (let i = 0; i < 3; i++) expect(await networkOf(network.apiKey, now)).toMatchObject({ id: network.id });
      expect(lookUps).toBe(1);
      // Any commit, here a vehicle created through the API, drops what was kept.
      expect((await client(service.url, network.apiKey).post("/vehicles", { plate: "KEPT-1" })).status).toBe(201);
      await networkOf(network.apiKey, now);
      await networkOf(network.apiKey, now);
      expect(lookUps).toBe(2);
    } finally {
      await service.close();
    }
  });
});

describeSqlite("revocations on SQLite, over HTTP", () => {
  let service: TestService;
  let other: Database.Database;

  beforeAll(async () => {
    service = await startService();
    // Another connection to the file, as the admin command or a hand-written UPDATE would be.
    other = new Database(sqliteFilePath(service.databaseUrl));
    other.prepare("PRAGMA busy_timeout = 5000").all();
  });
  afterAll(async () => {
    other.close();
    await service.close();
  });

  test("a key revoked by another connection is refused by the next request", async () => {
    const network = await service.network();
    const api = client(service.url, network.apiKey);
    for (let i = 0; i < 3; i++) expect((await api.get("/vehicles")).status).toBe(200);
    other.prepare("UPDATE api_keys SET expires_at = '2000-01-01T00:00:00.000+00:00' WHERE network_id = ?").run(network.id);
    expect((await api.get("/vehicles")).status).toBe(401);
  });

  test("a renamed network is answered with its new name by the next request", async () => {
    const network = await service.network();
    const api = client(service.url, network.apiKey);
    expect((await api.graphql("{ network { name } }")).body.data.network.name).toBe(network.name);
    other.prepare("UPDATE networks SET name = 'Renamed elsewhere' WHERE id = ?").run(network.id);
    expect((await api.graphql("{ network { name } }")).body.data.network.name).toBe("Renamed elsewhere");
  });

});
