// Migration *_api_key_scopes on a database that has keys (both providers): a database migrated up
// to the migration before it, with keys as the service wrote them until then (a network's current
// key, a replaced key in its grace period, one whose grace is over), then migrated. The current key
// keeps what it could do ('read write') under the name "default", a replaced key keeps its time of
// revocation, `regenerate-key` without --key still finds the network's one key, and the keys work
// over HTTP as before.
import { createApp } from "../src/server/app";
import { listen } from "../src/server/httpServer";
import { openDatabase } from "../src/db/client";
import { migrate, shippedMigrations, type Migration, type MigrationTarget } from "../src/db/migrate";
import { sqliteMigrationTarget } from "../src/db/sqlite/migrations";
import { postgresMigrationTarget } from "../src/db/postgres/migrations";
import { generateApiKey, hashApiKey, isValidAt, regenerateKey } from "../src/resolvers/apiKeys";
import { adminScope } from "../src/admin/keys";
import { freshDatabase, queryRows, testProvider, type FreshDatabase } from "./support/database";
import { client } from "./support/http";

async function apply(db: FreshDatabase, migrations: Migration[]): Promise<void> {
  const target: MigrationTarget = db.provider === "sqlite" ? sqliteMigrationTarget(db.url) : postgresMigrationTarget(db.url);
  await target.locked(async (session) => {
    for (const each of migrations) await session.apply(each);
  });
}

/** A key as the service stored it before names and scopes: a 10-character prefix, an end only when replaced. */
function oldKey() {
  const issued = generateApiKey();
  return { apiKey: issued.apiKey, prefix: issued.apiKey.slice(0, 10), hash: issued.hash };
}

let database: FreshDatabase;

beforeEach(async () => {
  database = await freshDatabase();
});
afterEach(async () => {
  await database.drop();
});

test("existing keys: the current one is \"default\" with read write, a replaced one keeps its revocation time, and both work as before", async () => {
  const migrations = shippedMigrations(testProvider);
  const at = migrations.findIndex((migration) => migration.name.endsWith("_api_key_scopes"));
  expect(at).toBeGreaterThan(0);
  await apply(database, migrations.slice(0, at));

  const sql = (statement: string) => queryRows(database, statement);
  // What the service wrote: Prisma's adapters' text on SQLite (one key written by plain SQL in SQLite's own format).
  const instant = (iso: string) => (database.provider === "sqlite" ? `'${iso.replace("Z", "+00:00")}'` : `'${iso}'`);
  await sql(`INSERT INTO networks (id, name, identifier_type, key_grace_seconds, created_at) VALUES
    (1, 'Los Santos', 'steam', 3600, ${instant("2026-01-01T00:00:00.000Z")}),
    (2, 'Paleto', 'license', 0, ${instant("2026-01-01T00:00:00.000Z")}),
    (3, 'Restored', 'steam', 0, ${instant("2026-01-01T00:00:00.000Z")})`);
  const first = oldKey();
  const current = oldKey();
  const ended = oldKey();
  const paleto = oldKey();
  const twins = [oldKey(), oldKey()];
  const gone = oldKey();
  const graceEnd = "2099-01-01T00:00:00.000Z";
  const row = (id: number, network: number, key: ReturnType<typeof oldKey>, expiresAt: string | null) =>
    `(${id}, ${network}, '${key.prefix}', '${key.hash}', ${instant("2026-02-01T00:00:00.000Z")}, ${expiresAt})`;
  await sql(`INSERT INTO api_keys (id, network_id, prefix, hash, created_at, expires_at) VALUES
    ${row(1, 1, ended, instant("2026-03-01T00:00:00.000Z"))},
    ${row(2, 1, first, instant(graceEnd))},
    ${row(3, 1, current, "NULL")},
    ${row(4, 2, paleto, database.provider === "sqlite" ? "'2026-03-01 10:00:00'" : "NULL")},
    ${row(5, 3, twins[0], "NULL")},
    ${row(6, 3, twins[1], "NULL")},
    ${row(50, 3, gone, "NULL")}`);
  // As if the ids had been given out by the database (SQLite's AUTOINCREMENT counts explicit ones).
  if (database.provider === "postgresql") await sql(`SELECT setval(pg_get_serial_sequence('api_keys', 'id'), 50)`);
  // Keys deleted before the migration: their ids are not used again.
  await sql(`INSERT INTO api_keys (network_id, prefix, hash, created_at) VALUES (2, 'vrd_xxxxxx', 'h', ${instant("2026-02-01T00:00:00.000Z")})`);
  await sql(`DELETE FROM api_keys WHERE id >= 50`);

  await apply(database, migrations.slice(at, at + 1));
  // Instants as ISO text on both: SQLite's as stored (the app's text), PostgreSQL's formatted.
  const iso = (column: string) =>
    database.provider === "sqlite" ? `replace("${column}", '+00:00', 'Z')` : `to_char("${column}", 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
  const rows = await sql(
    `SELECT id, network_id, name, prefix, scopes, origins, ${iso("expires_at")} AS expires_at, ${iso("revoked_at")} AS revoked_at, ${iso("last_used_at")} AS last_used_at FROM api_keys ORDER BY id`,
  );
  expect(rows.map((each) => ({ ...each, id: Number(each.id), network_id: Number(each.network_id) }))).toEqual([
    { id: 1, network_id: 1, name: "default", prefix: ended.prefix, scopes: "read write", origins: "", expires_at: null, revoked_at: "2026-03-01T00:00:00.000Z", last_used_at: null },
    { id: 2, network_id: 1, name: "default", prefix: first.prefix, scopes: "read write", origins: "", expires_at: null, revoked_at: graceEnd, last_used_at: null },
    { id: 3, network_id: 1, name: "default", prefix: current.prefix, scopes: "read write", origins: "", expires_at: null, revoked_at: null, last_used_at: null },
    {
      id: 4, network_id: 2, name: "default", prefix: paleto.prefix, scopes: "read write", origins: "", expires_at: null,
      revoked_at: database.provider === "sqlite" ? "2026-03-01T10:00:00.000Z" : null, last_used_at: null,
    },
    // Two unrevoked keys of one network (plain SQL): the newest is "default", names stay unique.
    { id: 5, network_id: 3, name: "default 5", prefix: twins[0].prefix, scopes: "read write", origins: "", expires_at: null, revoked_at: null, last_used_at: null },
    { id: 6, network_id: 3, name: "default", prefix: twins[1].prefix, scopes: "read write", origins: "", expires_at: null, revoked_at: null, last_used_at: null },
  ]);
  if (database.provider === "sqlite") {
    // SQLite's own format, moved into revoked_at in the app's text, so it compares right as text.
    expect((await sql(`SELECT revoked_at FROM api_keys WHERE id = 4`))[0].revoked_at).toBe("2026-03-01T10:00:00.000+00:00");
  }

  // The rest of the history applies on top, as the service's start does.
  await migrate(database.url);
  const db = await openDatabase(database.url);
  const server = await listen(createApp({ db }), 0, "127.0.0.1");
  try {
    const stored = async (key: { apiKey: string }) => (await db.apiKeys.byHash(hashApiKey(key.apiKey)))!;
    const now = new Date();
    expect(await stored(current)).toMatchObject({ id: 3, name: "default", scopes: ["read", "write"], origins: [], revokedAt: null });
    expect([isValidAt(await stored(current), now), isValidAt(await stored(first), now), isValidAt(await stored(ended), now)]).toEqual([true, true, false]);

    // The keys do what they did: read and write; the replaced one until its grace ends.
    for (const key of [current, first]) {
      const api = client(server.url, key.apiKey);
      expect((await api.get("/vehicles")).status).toBe(200);
      expect((await api.post("/vehicles", { plate: `MIG-${key.prefix.slice(4)}` })).status).toBe(201);
    }
    expect((await client(server.url, ended.apiKey).get("/vehicles")).status).toBe(401);

    // regenerate-key without --key: the network's one unrevoked key, by its name.
    const replaced = await regenerateKey(adminScope(db, 1, now), null, 0);
    expect(replaced.key).toMatchObject({ name: "default", scopes: ["read", "write"], origins: [] });
    expect(replaced.key.id).toBeGreaterThan(51);
    expect((await client(server.url, current.apiKey).get("/vehicles")).status).toBe(401);
    // Replaced without grace: the earlier secret in its grace period ends too.
    expect((await client(server.url, first.apiKey).get("/vehicles")).status).toBe(401);
    expect((await client(server.url, replaced.apiKey).get("/vehicles")).status).toBe(200);
  } finally {
    await server.close();
    await db.close();
  }
});
