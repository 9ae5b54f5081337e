// API keys with names, scopes and origins (CONTRACT: Keys, scopes and origins): the
// store (src/db/apiKeys.ts) and the rules (src/resolvers/apiKeys.ts, src/resolvers/keyInput.ts)
// on a real database of this project's provider: making, listing, revoking and replacing keys,
// names unique among unrevoked keys, the 100-key limit, the checks of every input, isolation
// between networks, grace periods, last use, the origins CORS may allow, and what the
// hand-written SQL of migration *_api_key_scopes does on each database.
import { Client } from "pg";
import { createNetwork } from "../src/admin/networks";
import { adminScope } from "../src/admin/keys";
import { openDatabase, type Database } from "../src/db/client";
import { maxUnrevokedKeys } from "../src/db/apiKeys";
import { keyChangesInThisProcess } from "../src/db/keyChanges";
import { keyChangesOf } from "../src/db/postgres/keyChanges";
import { postgresListener, type Listener } from "../src/db/postgres/listener";
import { defaultListenerSettings } from "../src/config/database";
import { migrate } from "../src/db/migrate";
import type { KeyChanges, KeyRecord } from "../src/db/store";
import {
  createKey,
  generateApiKey,
  hashApiKey,
  isValidAt,
  listKeys,
  looksLikeApiKey,
  regenerateKey,
  revokeKey,
} from "../src/resolvers/apiKeys";
import { browserOrigin, type KeyInput } from "../src/resolvers/keyInput";
import { freshDatabase, indexDefinition, queryRows, testProvider, type FreshDatabase } from "./support/database";

let database: FreshDatabase;
let db: Database;
let networks = 0;

/** A change of the network's keys made by the admin command at `now`. */
const keyScope = (networkId: number, now: Date) => adminScope(db, networkId, now);

beforeAll(async () => {
  database = await freshDatabase();
  await migrate(database.url);
  db = await openDatabase(database.url);
});

afterAll(async () => {
  await db?.close();
  await database?.drop();
});

const t0 = new Date("2031-03-01T12:00:00.000Z");
const seconds = (n: number) => new Date(t0.getTime() + n * 1000);

/** A new network; its first key as `network create` makes it. */
async function network() {
  networks += 1;
  const created = await createNetwork(db, { name: `Keys ${networks}`, identifierType: "steam", graceSeconds: 0 }, t0);
  return { id: created.network.id, firstKeyId: created.key.id, apiKey: created.apiKey };
}

const input = (overrides: Partial<KeyInput> = {}): KeyInput => ({ name: "discord bot", scopes: ["read"], origins: [], expiresAt: null, ...overrides });

/** The domain error a promise fails with: its code and, for bad input, its messages by field. */
async function failure(promise: Promise<unknown>): Promise<{ code: unknown; message: string; errors?: unknown }> {
  try {
    await promise;
  } catch (error) {
    const { extensions, message } = error as { extensions?: { code?: unknown; errors?: unknown }; message: string };
    return extensions?.errors === undefined ? { code: extensions?.code, message } : { code: extensions.code, message, errors: extensions.errors };
  }
  throw new Error("expected a failure");
}

describe("secrets", () => {
  test("a new key's prefix is its first 12 characters; keys of 10-character prefixes still look like keys", () => {
    const issued = generateApiKey();
    expect(issued.prefix).toBe(issued.apiKey.slice(0, 12));
    expect(issued.prefix).toMatch(/^vrd_[A-Za-z0-9_-]{8}$/);
    expect(issued.hash).toBe(hashApiKey(issued.apiKey));
    expect(looksLikeApiKey(issued.apiKey)).toBe(true);
    expect(looksLikeApiKey(`vrd_${"a".repeat(43)}`)).toBe(true);
  });
});

describe("making and listing keys", () => {
  test("network create's first key holds read write admin; a new key is listed with its name, scopes, origins and end, newest first", async () => {
    const { id, firstKeyId, apiKey } = await network();
    const [first] = await listKeys(db.apiKeys, id);
    expect(first).toMatchObject({ id: firstKeyId, name: "first key", scopes: ["read", "write", "admin"], origins: [], expiresAt: null, revokedAt: null });
    expect(first.prefix).toBe(apiKey.slice(0, 12));

    const expiresAt = new Date("2032-01-01T00:00:00.000Z");
    const made = await createKey(keyScope(id, t0), input({ name: "  dashboard  ", scopes: ["admin", "read", "read"], origins: ["HTTPS://Dash.Example.ORG:443/", "http://localhost:8080", "https://dash.example.org"], expiresAt }));
    expect(made.apiKey.startsWith(made.key.prefix)).toBe(true);
    const expected: KeyRecord = {
      id: made.key.id,
      name: "dashboard",
      prefix: made.key.prefix,
      // In the declared order, each once; origins as browsers send them.
      scopes: ["read", "admin"],
      origins: ["https://dash.example.org", "http://localhost:8080"],
      createdAt: t0,
      expiresAt,
      revokedAt: null,
      lastUsedAt: null,
    };
    expect(made.key).toEqual(expected);
    expect(await listKeys(db.apiKeys, id)).toEqual([expected, first]);
    expect(await db.apiKeys.byId(id, made.key.id)).toEqual(expected);
    // Admission reads the whole key with its network, by the secret's hash.
    expect(await db.apiKeys.byHash(hashApiKey(made.apiKey))).toEqual({
      ...expected,
      network: { id, name: `Keys ${networks}`, identifierType: "steam", timeZone: "UTC", autoStopAfterHours: null },
    });
  });

  test("a name is unique among the network's unrevoked keys: taken, refused (CONFLICT); revoked, free again; other networks' names are theirs", async () => {
    const { id } = await network();
    const other = await network();
    // Made at once under one name: one is stored, the others refused.
    const racing = await Promise.allSettled([1, 2, 3].map(() => createKey(keyScope(id, t0), input({ name: "racer" }))));
    expect(racing.map((result) => result.status).sort()).toEqual(["fulfilled", "rejected", "rejected"]);
    for (const result of racing) if (result.status === "rejected") expect((result.reason as { extensions: unknown }).extensions).toEqual({ code: "CONFLICT" });
    const bot = await createKey(keyScope(id, t0), input({ name: "bot" }));
    expect(await failure(createKey(keyScope(id, t0), input({ name: " bot " })))).toEqual({
      code: "CONFLICT",
      message: 'The network has an unrevoked key named "bot" already: choose another name, or revoke that key first.',
    });
    // A key in its grace period is revoked: its name is free.
    await revokeKey(keyScope(id, t0), bot.key.id, 3600);
    const again = await createKey(keyScope(id, t0), input({ name: "bot" }));
    expect(again.key.name).toBe("bot");
    expect((await createKey(keyScope(other.id, t0), input({ name: "bot" }))).key.name).toBe("bot");
    expect((await listKeys(db.apiKeys, id)).filter((key) => key.name === "bot").map((key) => key.id)).toEqual([again.key.id, bot.key.id]);
  });

  test(`a network holds at most ${maxUnrevokedKeys} unrevoked keys; revoking one makes room`, async () => {
    const { id, firstKeyId } = await network();
    for (let i = 1; i < maxUnrevokedKeys - 1; i++) await createKey(keyScope(id, t0), input({ name: `key ${i}` }));
    // Room for one: of keys made at once, one is stored (the count and the insert are one transaction).
    const racing = await Promise.allSettled([1, 2, 3].map((i) => createKey(keyScope(id, t0), input({ name: `racing ${i}` }))));
    expect(racing.filter((result) => result.status === "fulfilled")).toHaveLength(1);
    const refused = await failure(createKey(keyScope(id, t0), input({ name: "one too many" })));
    expect(refused).toEqual({ code: "CONFLICT", message: `The network has ${maxUnrevokedKeys} unrevoked keys, the most it may hold: revoke one first.` });
    // Nothing was stored by the refusal.
    expect((await listKeys(db.apiKeys, id)).some((key) => key.name === "one too many")).toBe(false);
    expect(await listKeys(db.apiKeys, id)).toHaveLength(maxUnrevokedKeys);
    // Another network is not limited by this one's keys.
    expect((await createKey(keyScope((await network()).id, t0), input({ name: "one too many" }))).key.name).toBe("one too many");

    await revokeKey(keyScope(id, t0), firstKeyId, 60);
    expect((await createKey(keyScope(id, t0), input({ name: "one too many" }))).key.name).toBe("one too many");
    // Replacing a key keeps the count: the old one is revoked as the new one is made.
    const [newest] = await listKeys(db.apiKeys, id);
    expect((await regenerateKey(keyScope(id, t0), newest.id, 0)).key.name).toBe("one too many");
  }, 120_000);

  test("bad names, scopes, origins and ends are refused with a message for each, and nothing is stored", async () => {
    const { id } = await network();
    const before = await listKeys(db.apiKeys, id);
    const refused = await failure(
      createKey(keyScope(id, t0), {
          name: "   ",
          scopes: ["read", "reed"],
          origins: ["https://dash.example.org/app", "ftp://files.example.org", "https://user:pw@dash.example.org", "https://dash.example.org?x=1", "https://*.example.org", "dash.example.org"],
          expiresAt: seconds(0),
        }),
    );
    const notAnOrigin = (text: string) =>
      `The origin "${text}" is not a browser origin: write scheme://host[:port] with http or https and nothing after it, e.g. https://dash.example.org.`;
    expect(refused).toEqual({
      code: "BAD_USER_INPUT",
      message: "The name field is required. (and 8 more errors)",
      errors: {
        name: ["The name field is required."],
        scopes: ['The selected scope "reed" is invalid. Allowed: read, dutytime, write, admin.'],
        origins: [
          "https://dash.example.org/app",
          "ftp://files.example.org",
          "https://user:pw@dash.example.org",
          "https://dash.example.org?x=1",
          "https://*.example.org",
          "dash.example.org",
        ].map(notAnOrigin),
        expiresAt: ["The expires at field must be a date after now."],
      },
    });
    const more = [
      [input({ name: "x".repeat(101) }), { name: ["The name field must not be greater than 100 characters."] }],
      [input({ name: "two\nlines" }), { name: ["The name field must not contain control characters."] }],
      [input({ name: "nul\u0000" }), { name: ["The name field must not contain NUL characters."] }],
      [input({ scopes: [] }), { scopes: ["The scopes field is required."] }],
      [
        input({ origins: Array.from({ length: 21 }, (_, i) => `https://site${i}.example.org`) }),
        { origins: ["The origins field must not have more than 20 items."] },
      ],
      [input({ expiresAt: new Date(Date.UTC(10000, 0, 1)) }), { expiresAt: ["The expires at field must be a date before the year 10000."] }],
      [input({ expiresAt: new Date(Number.NaN) }), { expiresAt: ["The expires at field must be a date after now."] }],
    ] as const;
    for (const [bad, errors] of more) expect((await failure(createKey(keyScope(id, t0), bad))).errors).toEqual(errors);
    // 100 characters, 20 origins (the same origin twice counts once) and an end one second ahead are fine.
    const origins = [...Array.from({ length: 20 }, (_, i) => `https://site${i}.example.org`), "https://SITE0.example.org/"];
    const fine = await createKey(keyScope(id, t0), input({ name: "é".repeat(100), origins, expiresAt: seconds(1) }));
    expect(fine.key.origins).toHaveLength(20);
    expect(await listKeys(db.apiKeys, id)).toEqual([fine.key, ...before]);
  });

  test("browser origins: scheme and host in lower case, no default port, IPv6 and punycode as browsers write them", () => {
    expect(browserOrigin("https://dash.example.org")).toBe("https://dash.example.org");
    expect(browserOrigin("HTTP://LOCALHOST:80/")).toBe("http://localhost");
    expect(browserOrigin("https://dash.example.org:8443")).toBe("https://dash.example.org:8443");
    expect(browserOrigin("http://[::1]:3000")).toBe("http://[::1]:3000");
    expect(browserOrigin("https://bücher.example")).toBe("https://xn--bcher-kva.example");
    for (const bad of ["", "null", "*", "https://", "https://a.org#", "https://a.org/?", "ws://a.org", "file:///etc/passwd", "https://a.org/a/"]) {
      expect({ bad, origin: browserOrigin(bad) }).toEqual({ bad, origin: null });
    }
  });
});

describe("revoking and replacing keys", () => {
  test("revoke: at once, or at the end of a grace period, until which the key stays valid; an earlier revocation keeps its time", async () => {
    const { id } = await network();
    const { key, apiKey } = await createKey(keyScope(id, t0), input());
    const revoked = await revokeKey(keyScope(id, t0), key.id, 600);
    expect(revoked).toEqual({ ...key, revokedAt: seconds(600) });
    const stored = (await db.apiKeys.byHash(hashApiKey(apiKey)))!;
    expect([isValidAt(stored, seconds(599)), isValidAt(stored, seconds(600)), isValidAt(stored, seconds(601))]).toEqual([true, false, false]);
    // A later, longer grace does not extend it; a shorter one ends it sooner.
    expect((await revokeKey(keyScope(id, t0), key.id, 3600)).revokedAt).toEqual(seconds(600));
    expect((await revokeKey(keyScope(id, seconds(10)), key.id, 0)).revokedAt).toEqual(seconds(10));
    expect((await revokeKey(keyScope(id, seconds(20)), key.id, 0)).revokedAt).toEqual(seconds(10));
  });

  test("a key's own end: valid before it, not from it on", () => {
    const key = { expiresAt: seconds(60), revokedAt: null };
    expect([isValidAt(key, seconds(59)), isValidAt(key, seconds(60))]).toEqual([true, false]);
    expect(isValidAt({ expiresAt: seconds(60), revokedAt: seconds(30) }, seconds(45))).toBe(false);
    expect(isValidAt({ expiresAt: null, revokedAt: null }, new Date("9999-12-31T23:59:59.999Z"))).toBe(true);
  });

  test("regenerate: the new key has the old one's name, scopes, origins and end; the old one ends now or after the grace", async () => {
    const { id, firstKeyId } = await network();
    await revokeKey(keyScope(id, t0), firstKeyId, 0);
    const expiresAt = new Date("2033-01-01T00:00:00.000Z");
    const old = await createKey(keyScope(id, t0), input({ name: "game server", scopes: ["dutytime", "read"], origins: ["https://a.example.org"], expiresAt }));
    // The network's one unrevoked key, without naming it.
    const second = await regenerateKey(keyScope(id, seconds(10)), null, 300);
    expect(second.key).toEqual({
      id: second.key.id,
      name: "game server",
      prefix: second.apiKey.slice(0, 12),
      scopes: ["read", "dutytime"],
      origins: ["https://a.example.org"],
      createdAt: seconds(10),
      expiresAt,
      revokedAt: null,
      lastUsedAt: null,
    });
    expect(second.key.id).toBeGreaterThan(old.key.id);
    expect(await db.apiKeys.byId(id, old.key.id)).toEqual({ ...old.key, revokedAt: seconds(310) });

    // Replaced again without grace (the secret leaked): every earlier secret of the key ends now.
    const third = await regenerateKey(keyScope(id, seconds(20)), second.key.id, 0);
    const stored = async (apiKey: string) => (await db.apiKeys.byHash(hashApiKey(apiKey)))!;
    expect((await stored(old.apiKey)).revokedAt).toEqual(seconds(20));
    expect((await stored(second.apiKey)).revokedAt).toEqual(seconds(20));
    expect((await stored(third.apiKey)).revokedAt).toBeNull();
    expect((await listKeys(db.apiKeys, id)).map((key) => [key.name, key.revokedAt])).toEqual([
      ["game server", null],
      ["game server", seconds(20)],
      ["game server", seconds(20)],
      ["first key", t0],
    ]);
  });

  test("regenerate without a key id needs exactly one unrevoked key; a revoked or expired key is not replaced", async () => {
    const { id, firstKeyId } = await network();
    await createKey(keyScope(id, t0), input({ name: "second" }));
    expect(await failure(regenerateKey(keyScope(id, t0), null, 0))).toEqual({
      code: "BAD_USER_INPUT",
      message: "The network has 2 unrevoked keys: say which one to replace with --key KEY_ID (key list shows their ids).",
      errors: { keyId: ["The network has 2 unrevoked keys: say which one to replace with --key KEY_ID (key list shows their ids)."] },
    });
    await revokeKey(keyScope(id, t0), firstKeyId, 60);
    expect(await failure(regenerateKey(keyScope(id, t0), firstKeyId, 0))).toEqual({
      code: "CONFLICT",
      message: `Key ${firstKeyId} is revoked: it cannot be replaced. Make a new key instead.`,
    });
    const expiring = await createKey(keyScope(id, t0), input({ name: "expiring", expiresAt: seconds(60) }));
    expect(await failure(regenerateKey(keyScope(id, seconds(60)), expiring.key.id, 0))).toEqual({
      code: "CONFLICT",
      message: `Key ${expiring.key.id} expired at ${seconds(60).toISOString()}: its replacement would be expired too. Make a new key instead.`,
    });
    const alone = await network();
    await revokeKey(keyScope(alone.id, t0), alone.firstKeyId, 0);
    expect(await failure(regenerateKey(keyScope(alone.id, t0), null, 0))).toEqual({
      code: "CONFLICT",
      message: "The network has no unrevoked key to replace: make one with key create.",
    });
  });

  test("grace periods are whole seconds from 0 to a year", async () => {
    const { id, firstKeyId } = await network();
    for (const grace of [-1, 1.5, 365 * 24 * 3600 + 1]) {
      expect((await failure(revokeKey(keyScope(id, t0), firstKeyId, grace))).errors).toEqual({
        graceSeconds: ["The grace seconds field must be between 0 and 31536000."],
      });
      expect((await failure(regenerateKey(keyScope(id, t0), firstKeyId, grace))).code).toBe("BAD_USER_INPUT");
    }
    expect((await db.apiKeys.byId(id, firstKeyId))!.revokedAt).toBeNull();
  });

  test("isolation: another network's key ids are not found, and its keys are untouched", async () => {
    const mine = await network();
    const theirs = await network();
    expect(await db.apiKeys.byId(mine.id, theirs.firstKeyId)).toBeNull();
    expect(await failure(revokeKey(keyScope(mine.id, t0), theirs.firstKeyId, 0))).toEqual({ code: "NOT_FOUND", message: "Key not found." });
    expect(await failure(regenerateKey(keyScope(mine.id, t0), theirs.firstKeyId, 0))).toEqual({ code: "NOT_FOUND", message: "Key not found." });
    expect(await failure(revokeKey(keyScope(mine.id, t0), 987654, 0))).toEqual({ code: "NOT_FOUND", message: "Key not found." });
    expect((await listKeys(db.apiKeys, mine.id)).map((key) => key.id)).toEqual([mine.firstKeyId]);
    expect(await listKeys(db.apiKeys, theirs.id)).toEqual([expect.objectContaining({ id: theirs.firstKeyId, revokedAt: null })]);
  });

  test("every change this process makes to keys is noted at once (what it admitted is dropped); a use is not", async () => {
    const { id } = await network();
    const noted = async (change: () => Promise<unknown>) => {
      const before = keyChangesInThisProcess();
      await change();
      return keyChangesInThisProcess() > before;
    };
    let key: KeyRecord | undefined;
    expect(await noted(async () => (key = (await createKey(keyScope(id, t0), input())).key))).toBe(true);
    expect(await noted(() => db.apiKeys.touch(key!.id, t0))).toBe(false);
    expect(await noted(() => regenerateKey(keyScope(id, t0), key!.id, 60))).toBe(true);
    expect(await noted(() => revokeKey(keyScope(id, t0), key!.id, 0))).toBe(true);
  });
});

describe("last use and listed origins", () => {
  test("touch stores the minute of a use, and never moves it back", async () => {
    const { id } = await network();
    const { key } = await createKey(keyScope(id, t0), input());
    await db.apiKeys.touch(key.id, new Date("2031-03-01T12:34:56.789Z"));
    expect((await db.apiKeys.byId(id, key.id))!.lastUsedAt).toEqual(new Date("2031-03-01T12:34:00.000Z"));
    await db.apiKeys.touch(key.id, new Date("2031-03-01T12:30:00.000Z"));
    expect((await db.apiKeys.byId(id, key.id))!.lastUsedAt).toEqual(new Date("2031-03-01T12:34:00.000Z"));
    await db.apiKeys.touch(key.id, new Date("2031-03-01T12:35:00.000Z"));
    expect((await db.apiKeys.byId(id, key.id))!.lastUsedAt).toEqual(new Date("2031-03-01T12:35:00.000Z"));
  });

  test("listed origins: those of keys valid now (unrevoked or in their grace, not past their end)", async () => {
    const { id } = await network();
    const origin = (name: string) => `https://${name}-${id}.example.org`;
    await createKey(keyScope(id, t0), input({ name: "valid", origins: [origin("valid"), origin("shared")] }));
    const graced = await createKey(keyScope(id, t0), input({ name: "graced", origins: [origin("graced")] }));
    await revokeKey(keyScope(id, t0), graced.key.id, 60);
    const revoked = await createKey(keyScope(id, t0), input({ name: "revoked", origins: [origin("revoked"), origin("shared")] }));
    await revokeKey(keyScope(id, t0), revoked.key.id, 0);
    await createKey(keyScope(id, t0), input({ name: "expiring", origins: [origin("expiring")], expiresAt: seconds(30) }));
    const listed = async (at: Date) => [...(await db.apiKeys.listedOrigins(at))].filter((each) => each.endsWith(`-${id}.example.org`)).sort();
    expect(await listed(seconds(1))).toEqual([origin("expiring"), origin("graced"), origin("shared"), origin("valid")]);
    expect(await listed(seconds(30))).toEqual([origin("graced"), origin("shared"), origin("valid")]);
    expect(await listed(seconds(60))).toEqual([origin("shared"), origin("valid")]);
  });
});

describe("the hand-written SQL of migration *_api_key_scopes", () => {
  test("the partial unique index: a name once among a network's unrevoked keys", async () => {
    expect(await indexDefinition(db.prisma, "api_keys_one_unrevoked_name_per_network")).toBe(
      "create unique index api_keys_one_unrevoked_name_per_network on api_keys (network_id, name) where revoked_at is null",
    );
  });

  (testProvider === "sqlite" ? test : test.skip)("SQLite: instants written by plain SQL in another format are stored in the app's text, so they compare right", async () => {
    const { id } = await network();
    const { key } = await createKey(keyScope(id, t0), input({ name: "plain sql", origins: [`https://plain-${id}.example.org`] }));
    await queryRows(database, `UPDATE api_keys SET revoked_at = '2031-03-01 12:01:00', last_used_at = '2031-03-01T13:00:00+01:00' WHERE id = ${key.id}`);
    expect(await queryRows(database, `SELECT revoked_at, last_used_at FROM api_keys WHERE id = ${key.id}`)).toEqual([
      { revoked_at: "2031-03-01T12:01:00.000+00:00", last_used_at: "2031-03-01T12:00:00.000+00:00" },
    ]);
    // '2031-03-01 12:01:00' would sort before '2031-03-01T12:00:30...' as text, and list the origin.
    expect((await db.apiKeys.listedOrigins(seconds(90))).has(`https://plain-${id}.example.org`)).toBe(false);
    expect((await db.apiKeys.listedOrigins(seconds(30))).has(`https://plain-${id}.example.org`)).toBe(true);
  });
});

(testProvider === "postgresql" ? describe : describe.skip)("PostgreSQL: announced key changes", () => {
  let pg: Client;
  let listener: Listener;
  let changes: KeyChanges;

  beforeAll(async () => {
    pg = new Client({ connectionString: database.url });
    await pg.connect();
    listener = postgresListener({ connectionString: database.url }, defaultListenerSettings);
    changes = keyChangesOf(listener);
  });
  afterAll(async () => {
    await changes.close();
    await listener.close();
    await pg.end();
  });

  async function eventually(condition: () => boolean, timeoutMs = 3000): Promise<boolean> {
    for (const end = Date.now() + timeoutMs; Date.now() < end; ) {
      if (condition()) return true;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return condition();
  }
  /** Whether `write` is announced: the epoch moves within a second (once earlier announcements have arrived). */
  async function announced(write: string): Promise<boolean> {
    for (let epoch = changes.epoch(); ; epoch = changes.epoch()) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      if (changes.epoch() === epoch) break;
    }
    const before = changes.epoch();
    await pg.query(write);
    return eventually(() => changes.epoch() !== before, 1000);
  }

  test("a key's last use is not announced; every other change of a key is", async () => {
    expect(await eventually(() => changes.epoch() !== null)).toBe(true);
    const { id } = await network();
    const where = `WHERE network_id = ${id}`;
    expect(await announced(`UPDATE api_keys SET last_used_at = now() ${where}`)).toBe(false);
    for (const set of ["revoked_at = now()", "expires_at = now()", "scopes = 'read'", "origins = 'https://a.example.org'", "name = 'renamed'", "prefix = prefix"]) {
      expect({ set, announced: await announced(`UPDATE api_keys SET ${set} ${where}`) }).toEqual({ set, announced: true });
    }
    expect(await announced(`UPDATE api_keys SET last_used_at = now(), revoked_at = NULL ${where}`)).toBe(true);
  });
});
