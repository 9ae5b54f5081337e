// Keys a process admitted are kept only while the database announces every change to keys and
// networks (src/resolvers/admittedKeys.ts, src/db/postgres/keyChanges.ts): the rule as a unit, the
// announcements on a real PostgreSQL server, and a revoked key refused over HTTP.
import { Client } from "pg";
import type { ApiKeyStore, KeyChanges, StoredKey } from "../src/db/store";
import { noteKeyChangeInThisProcess } from "../src/db/keyChanges";
import { keyChangesOf } from "../src/db/postgres/keyChanges";
import { listenerApplicationName, postgresListener, type Listener } from "../src/db/postgres/listener";
import { defaultListenerSettings } from "../src/config/database";
import { regenerateNetworkKey } from "../src/admin/networks";
import { admittedKeys } from "../src/resolvers/admittedKeys";
import { generateApiKey } from "../src/resolvers/apiKeys";
import { testProvider } from "./support/database";
import { client } from "./support/http";
import { startService, type TestService } from "./support/service";

const seven = { id: 7, name: "Seven", identifierType: "steam", timeZone: "UTC", autoStopAfterHours: null };

/** A store holding one table of keys; counts its look-ups and can hold one back. */
function keyTable() {
  const rows = new Map<string, StoredKey>();
  let lookUps = 0;
  let holdNext: Promise<void> | null = null;
  const touches: { keyId: number; at: Date }[] = [];
  const keys: Pick<ApiKeyStore, "byHash" | "touch"> = {
    async touch(keyId, at) {
      touches.push({ keyId, at });
    },
    async byHash(hash) {
      lookUps++;
      const row = rows.get(hash) ?? null;
      const held = holdNext;
      holdNext = null;
      if (held) await held;
      return row;
    },
  };
  return {
    keys,
    /** A key of network 7; `revokedAt`: the end of its grace period. */
    add(revokedAt: string | null = null, lastUsedAt: string | null = null) {
      const key = generateApiKey();
      rows.set(key.hash, {
        id: rows.size + 1,
        name: `key ${rows.size + 1}`,
        prefix: key.prefix,
        scopes: ["read", "write"],
        origins: [],
        createdAt: new Date("2029-01-01T00:00:00.000Z"),
        expiresAt: null,
        revokedAt: revokedAt === null ? null : new Date(revokedAt),
        lastUsedAt: lastUsedAt === null ? null : new Date(lastUsedAt),
        network: seven,
      });
      return key;
    },
    touches,
    lookUps: () => lookUps,
    /** The next look-up answers only when `release` is called. */
    hold() {
      let release!: () => void;
      holdNext = new Promise((resolve) => (release = resolve));
      return release;
    },
  };
}

/** Announcements under the test's control. */
function announcements(): KeyChanges & { announce(): void; stopListening(): void; listen(): void } {
  let epoch: number | null = 1;
  return {
    epoch: () => epoch,
    close: async () => undefined,
    announce: () => void (epoch = epoch === null ? null : epoch + 1),
    stopListening: () => void (epoch = null),
    listen: () => void (epoch = 1000),
  };
}

const now = new Date("2030-01-01T00:00:00.000Z");

describe("admitted keys", () => {
  test("a key admitted once is not looked up again until a change is announced", async () => {
    const table = keyTable();
    const changes = announcements();
    const networkOf = admittedKeys(table.keys, changes);
    const { apiKey } = table.add();
    for (let i = 0; i < 3; i++) expect(await networkOf(apiKey, now)).toMatchObject({ id: 1, scopes: ["read", "write"], network: seven });
    expect(table.lookUps()).toBe(1);
    changes.announce();
    await networkOf(apiKey, now);
    expect(table.lookUps()).toBe(2);
  });

  test("while nothing is announced (not listening, or no announcements at all) every request looks its key up", async () => {
    const table = keyTable();
    const changes = announcements();
    changes.stopListening();
    const { apiKey } = table.add();
    const networkOf = admittedKeys(table.keys, changes);
    await networkOf(apiKey, now);
    await networkOf(apiKey, now);
    expect(table.lookUps()).toBe(2);
    changes.listen();
    await networkOf(apiKey, now);
    await networkOf(apiKey, now);
    expect(table.lookUps()).toBe(3);

    const withoutAnnouncements = admittedKeys(table.keys, null);
    await withoutAnnouncements(apiKey, now);
    await withoutAnnouncements(apiKey, now);
    expect(table.lookUps()).toBe(5);
  });

  test("a key read while a change is announced is not kept (it may have been revoked meanwhile)", async () => {
    const table = keyTable();
    const changes = announcements();
    const networkOf = admittedKeys(table.keys, changes);
    const { apiKey } = table.add();
    const release = table.hold();
    const admitted = networkOf(apiKey, now);
    changes.announce();
    release();
    expect(await admitted).not.toBeNull();
    await networkOf(apiKey, now);
    expect(table.lookUps()).toBe(2);
  });

  test("a kept key in its grace period is refused once the grace ends", async () => {
    const table = keyTable();
    const networkOf = admittedKeys(table.keys, announcements());
    const { apiKey } = table.add("2030-01-01T00:10:00.000Z");
    expect(await networkOf(apiKey, now)).not.toBeNull();
    expect(await networkOf(apiKey, new Date("2030-01-01T00:09:59.999Z"))).not.toBeNull();
    expect(table.lookUps()).toBe(1);
    expect(await networkOf(apiKey, new Date("2030-01-01T00:10:00.000Z"))).toBeNull();
  });

  test("a key's last use is written at most once a minute, to the minute, also while it is kept; never for a refused key", async () => {
    const table = keyTable();
    const networkOf = admittedKeys(table.keys, announcements());
    const used = table.add(null, "2029-12-31T23:59:00.000Z");
    const fresh = table.add(null, "2030-01-01T00:00:00.000Z");
    const revoked = table.add("2029-06-01T00:00:00.000Z");
    for (const second of ["00:00:05", "00:00:30", "00:00:59.999"]) {
      for (const key of [used, fresh, revoked]) await networkOf(key.apiKey, new Date(`2030-01-01T${second}Z`));
    }
    // `fresh` was stored as used in this minute already: not written again.
    expect(table.touches).toEqual([{ keyId: 1, at: new Date("2030-01-01T00:00:00.000Z") }]);
    await networkOf(used.apiKey, new Date("2030-01-01T00:01:00.000Z"));
    await networkOf(fresh.apiKey, new Date("2030-01-01T00:01:30.000Z"));
    await networkOf(used.apiKey, new Date("2030-01-01T00:01:45.000Z"));
    expect(table.touches.slice(1)).toEqual([
      { keyId: 1, at: new Date("2030-01-01T00:01:00.000Z") },
      { keyId: 2, at: new Date("2030-01-01T00:01:00.000Z") },
    ]);
    expect(table.lookUps()).toBe(5);
  });

  test("unknown and malformed keys are never kept, and at most maxKeys keys are", async () => {
    const table = keyTable();
    const networkOf = admittedKeys(table.keys, announcements(), 2);
    const unknown = generateApiKey().apiKey;
    expect(await networkOf(unknown, now)).toBeNull();
    expect(await networkOf(unknown, now)).toBeNull();
    expect(table.lookUps()).toBe(2);
    expect(await networkOf("not a key", now)).toBeNull();
    expect(table.lookUps()).toBe(2);

    const [a, b, c] = [table.add(), table.add(), table.add()];
    for (const key of [a, b, c]) await networkOf(key.apiKey, now);
    expect(table.lookUps()).toBe(5);
    // a was admitted first and dropped for c; b and c are kept.
    await networkOf(c.apiKey, now);
    await networkOf(b.apiKey, now);
    expect(table.lookUps()).toBe(5);
    await networkOf(a.apiKey, now);
    expect(table.lookUps()).toBe(6);
  });
});

const describePostgres = testProvider === "postgresql" ? describe : describe.skip;

/** Waits until `condition` holds, checking every 10 ms, for at most `ms`. */
async function eventually(condition: () => boolean | Promise<boolean>, ms = 5000): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return condition();
}

describePostgres("announced changes on PostgreSQL", () => {
  let service: TestService;
  let pg: Client;
  let changes: KeyChanges;
  let listener: Listener;

  beforeAll(async () => {
    service = await startService();
    pg = new Client({ connectionString: service.databaseUrl });
    await pg.connect();
    listener = postgresListener({ connectionString: service.databaseUrl }, defaultListenerSettings);
    changes = keyChangesOf(listener);
  });
  afterAll(async () => {
    await changes.close();
    await listener.close();
    await pg.end();
    await service.close();
  });

  const listening = () => eventually(() => changes.epoch() !== null);
  /** Returns once the epoch has not moved for 200 ms. */
  const settled = async () => {
    for (let epoch = changes.epoch(); ; epoch = changes.epoch()) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      if (changes.epoch() === epoch) return;
    }
  };
  /** Whether `write` is announced: the epoch moves within a second. */
  const announced = async (write: string) => {
    // An earlier write's announcement still on its way would pass for this one's.
    await settled();
    const before = changes.epoch();
    await pg.query(write);
    return eventually(() => changes.epoch() !== before, 1000);
  };

  test("changes to keys and to a network's name or identifier type are announced; its kept counts are not", async () => {
    expect(await listening()).toBe(true);
    const network = await service.network();
    expect(await announced(`UPDATE api_keys SET expires_at = NULL WHERE network_id = ${network.id}`)).toBe(true);
    expect(await announced(`UPDATE networks SET name = 'Renamed' WHERE id = ${network.id}`)).toBe(true);
    expect(await announced(`UPDATE networks SET identifier_type = 'discord' WHERE id = ${network.id}`)).toBe(true);
    expect(await announced(`UPDATE networks SET vehicle_count = vehicle_count WHERE id = ${network.id}`)).toBe(false);
    expect(await announced(`INSERT INTO vehicles (network_id, plate, search_text, wanted, synced, created_at, updated_at)
      VALUES (${network.id}, 'AB-1', 'ab-1', false, false, now(), now())`)).toBe(false);
    expect(await announced(`DELETE FROM api_keys WHERE network_id = ${network.id}`)).toBe(true);
  });

  test("a lost connection stops the keeping, and listening starts again by itself", async () => {
    expect(await listening()).toBe(true);
    await pg.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = '${listenerApplicationName}'`,
    );
    expect(await eventually(() => changes.epoch() === null, 2000)).toBe(true);
    expect(await eventually(() => changes.epoch() !== null, 5000)).toBe(true);
  });

  test("over HTTP: an admitted key is not looked up again, and a revocation by any writer is refused", async () => {
    const network = await service.network();
    const api = client(service.url, network.apiKey);
    expect((await api.get("/vehicles")).status).toBe(200);
    expect(await eventually(async () => (await api.get("/vehicles")).status === 200 && service.db.keyChanges?.epoch() !== null)).toBe(true);
    expect((await api.get("/vehicles")).status).toBe(200);

    // Revoked without an announcement: the process answers from what it kept (no look-up).
    await pg.query("ALTER TABLE api_keys DISABLE TRIGGER api_keys_announce_change");
    try {
      await pg.query(`UPDATE api_keys SET expires_at = '2000-01-01' WHERE network_id = ${network.id}`);
    } finally {
      await pg.query("ALTER TABLE api_keys ENABLE TRIGGER api_keys_announce_change");
    }
    expect((await api.get("/vehicles")).status).toBe(200);

    // Any announced change to keys, here by another tool, drops what was kept.
    await pg.query(`UPDATE api_keys SET prefix = prefix WHERE network_id = ${network.id}`);
    expect(await eventually(async () => (await api.get("/vehicles")).status === 401, 2000)).toBe(true);
    expect((await api.get("/vehicles")).status).toBe(401);
  });

  test("a key this process regenerates is refused by it at once, before the notification", async () => {
    expect(await listening()).toBe(true);
    const before = changes.epoch();
    noteKeyChangeInThisProcess();
    expect(changes.epoch()).not.toBe(before);

    const network = await service.network();
    const api = client(service.url, network.apiKey);
    expect(await eventually(async () => (await api.get("/vehicles")).status === 200 && service.db.keyChanges?.epoch() !== null)).toBe(true);
    expect((await api.get("/vehicles")).status).toBe(200);
    // No announcement from the database: only the process's own note can drop the kept key.
    await pg.query("ALTER TABLE api_keys DISABLE TRIGGER api_keys_announce_change");
    try {
      const { apiKey } = await regenerateNetworkKey(service.db, network.id, 0, new Date());
      expect((await api.get("/vehicles")).status).toBe(401);
      expect((await client(service.url, apiKey).get("/vehicles")).status).toBe(200);
    } finally {
      await pg.query("ALTER TABLE api_keys ENABLE TRIGGER api_keys_announce_change");
    }
  });

  test("over HTTP: while the process is not listening, every request looks its key up", async () => {
    const network = await service.network();
    const api = client(service.url, network.apiKey);
    expect(await eventually(async () => (await api.get("/vehicles")).status === 200 && service.db.keyChanges?.epoch() !== null)).toBe(true);
    await pg.query("ALTER TABLE api_keys DISABLE TRIGGER api_keys_announce_change");
    try {
      await pg.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = '${listenerApplicationName}'`,
      );
      expect(await eventually(() => service.db.keyChanges?.epoch() === null, 2000)).toBe(true);
      await pg.query(`UPDATE api_keys SET expires_at = '2000-01-01' WHERE network_id = ${network.id}`);
      // Not listening (it listens again within a second): the revocation is seen at once.
      expect((await api.get("/vehicles")).status).toBe(401);
    } finally {
      await pg.query("ALTER TABLE api_keys ENABLE TRIGGER api_keys_announce_change");
    }
  });
});
