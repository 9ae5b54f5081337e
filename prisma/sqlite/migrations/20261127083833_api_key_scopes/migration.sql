-- Keys with names, scopes and origins (the contract's "Keys, scopes and origins"): a
-- network may hold several keys, each for one purpose.
--
-- Until now expires_at was set only by `network regenerate-key` (the replaced key's end, now or
-- after a grace period): that was a revocation, so it moves to revoked_at, and expires_at means
-- the key's own end, chosen when it is made. Existing keys keep what they could do ('read write',
-- src/model/scopes.ts's scopesOfEarlierKeys), no origins, and the name "default", so that
-- `network regenerate-key` without --key still finds a network's one unrevoked key. Should a
-- network hold several unrevoked keys (plain SQL could have made them), its newest is "default"
-- and each other "default <id>": names are unique among a network's unrevoked keys.
--
-- Prisma's table rebuild (nothing references api_keys, so its DROP TABLE cascades to no rows; no
-- hand-written trigger or index was on it), with the copy written by hand to fill the new columns.
-- The instant moved to revoked_at is rewritten into the app's text as it is copied (see below).
-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_api_keys" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "network_id" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "scopes" TEXT NOT NULL,
    "origins" TEXT NOT NULL,
    "created_at" DATETIME NOT NULL,
    "expires_at" DATETIME,
    "revoked_at" DATETIME,
    "last_used_at" DATETIME,
    CONSTRAINT "api_keys_network_id_fkey" FOREIGN KEY ("network_id") REFERENCES "networks" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_api_keys" ("id", "network_id", "name", "prefix", "hash", "scopes", "origins", "created_at", "expires_at", "revoked_at", "last_used_at")
SELECT "id", "network_id",
  CASE WHEN "expires_at" IS NULL AND "id" <> (SELECT max(o."id") FROM "api_keys" o WHERE o."network_id" = "api_keys"."network_id" AND o."expires_at" IS NULL)
    THEN 'default ' || "id" ELSE 'default' END,
  "prefix", "hash", 'read write', '', "created_at", NULL,
  CASE WHEN "expires_at" GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]*' THEN coalesce(strftime('%Y-%m-%dT%H:%M:%f+00:00', "expires_at"), "expires_at") ELSE "expires_at" END,
  NULL
FROM "api_keys";
-- Key ids are never reused (events will name the key that made a change): the new table counts
-- on from where the old one's AUTOINCREMENT was, deleted keys included.
DELETE FROM "sqlite_sequence" WHERE "name" = 'new_api_keys';
INSERT INTO "sqlite_sequence" ("name", "seq") SELECT 'new_api_keys', "seq" FROM "sqlite_sequence" WHERE "name" = 'api_keys';
DROP TABLE "api_keys";
ALTER TABLE "new_api_keys" RENAME TO "api_keys";
CREATE UNIQUE INDEX "api_keys_hash_key" ON "api_keys"("hash");
CREATE INDEX "api_keys_network_id_idx" ON "api_keys"("network_id");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- Hand-written: a name is unique among the network's unrevoked keys (a revoked key's name may be
-- used again: `regenerate-key` makes the new key under the name of the one it revokes). The same
-- index serves the count of a network's unrevoked keys (at most 100, src/db/apiKeys.ts).
CREATE UNIQUE INDEX "api_keys_one_unrevoked_name_per_network" ON "api_keys"("network_id", "name") WHERE "revoked_at" IS NULL;

-- Hand-written: one text for the key's instants, as migration *_direct_sql_derived_data does for
-- other tables' (its comment says why and how). src/db/apiKeys.ts compares them in SQL as text:
-- revoked_at and expires_at with the time of a revocation and of a CORS preflight, last_used_at
-- with a newer use.
CREATE TRIGGER "api_keys_instants_insert" AFTER INSERT ON "api_keys"
WHEN (NEW."expires_at" GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]*' AND strftime('%Y-%m-%dT%H:%M:%f+00:00', NEW."expires_at") <> NEW."expires_at")
  OR (NEW."revoked_at" GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]*' AND strftime('%Y-%m-%dT%H:%M:%f+00:00', NEW."revoked_at") <> NEW."revoked_at")
  OR (NEW."last_used_at" GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]*' AND strftime('%Y-%m-%dT%H:%M:%f+00:00', NEW."last_used_at") <> NEW."last_used_at") BEGIN
  UPDATE "api_keys" SET "expires_at" = CASE WHEN "expires_at" GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]*' THEN coalesce(strftime('%Y-%m-%dT%H:%M:%f+00:00', "expires_at"), "expires_at") ELSE "expires_at" END,
    "revoked_at" = CASE WHEN "revoked_at" GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]*' THEN coalesce(strftime('%Y-%m-%dT%H:%M:%f+00:00', "revoked_at"), "revoked_at") ELSE "revoked_at" END,
    "last_used_at" = CASE WHEN "last_used_at" GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]*' THEN coalesce(strftime('%Y-%m-%dT%H:%M:%f+00:00', "last_used_at"), "last_used_at") ELSE "last_used_at" END
  WHERE "id" = NEW."id";
END;
CREATE TRIGGER "api_keys_instants_update" AFTER UPDATE OF "expires_at", "revoked_at", "last_used_at" ON "api_keys"
WHEN (NEW."expires_at" GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]*' AND strftime('%Y-%m-%dT%H:%M:%f+00:00', NEW."expires_at") <> NEW."expires_at")
  OR (NEW."revoked_at" GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]*' AND strftime('%Y-%m-%dT%H:%M:%f+00:00', NEW."revoked_at") <> NEW."revoked_at")
  OR (NEW."last_used_at" GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]*' AND strftime('%Y-%m-%dT%H:%M:%f+00:00', NEW."last_used_at") <> NEW."last_used_at") BEGIN
  UPDATE "api_keys" SET "expires_at" = CASE WHEN "expires_at" GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]*' THEN coalesce(strftime('%Y-%m-%dT%H:%M:%f+00:00', "expires_at"), "expires_at") ELSE "expires_at" END,
    "revoked_at" = CASE WHEN "revoked_at" GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]*' THEN coalesce(strftime('%Y-%m-%dT%H:%M:%f+00:00', "revoked_at"), "revoked_at") ELSE "revoked_at" END,
    "last_used_at" = CASE WHEN "last_used_at" GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]*' THEN coalesce(strftime('%Y-%m-%dT%H:%M:%f+00:00', "last_used_at"), "last_used_at") ELSE "last_used_at" END
  WHERE "id" = NEW."id";
END;
