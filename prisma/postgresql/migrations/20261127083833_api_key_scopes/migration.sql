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
-- AlterTable (hand-written: the new columns are filled before they become NOT NULL)
ALTER TABLE "api_keys" ADD COLUMN "name" TEXT,
ADD COLUMN "scopes" TEXT,
ADD COLUMN "origins" TEXT,
ADD COLUMN "revoked_at" TIMESTAMP(3),
ADD COLUMN "last_used_at" TIMESTAMP(3);
UPDATE "api_keys" k SET
  "name" = CASE WHEN k."expires_at" IS NULL AND k."id" <> (SELECT max(o."id") FROM "api_keys" o WHERE o."network_id" = k."network_id" AND o."expires_at" IS NULL)
    THEN 'default ' || k."id" ELSE 'default' END,
  "scopes" = 'read write',
  "origins" = '',
  "revoked_at" = k."expires_at",
  "expires_at" = NULL;
ALTER TABLE "api_keys" ALTER COLUMN "name" SET NOT NULL,
ALTER COLUMN "scopes" SET NOT NULL,
ALTER COLUMN "origins" SET NOT NULL;

-- Hand-written: a name is unique among the network's unrevoked keys (a revoked key's name may be
-- used again: `regenerate-key` makes the new key under the name of the one it revokes). The same
-- index serves the count of a network's unrevoked keys (at most 100, src/db/apiKeys.ts).
CREATE UNIQUE INDEX "api_keys_one_unrevoked_name_per_network" ON "api_keys"("network_id", "name") WHERE "revoked_at" IS NULL;

-- Hand-written: a key's last use (written up to once a minute per key, src/db/apiKeys.ts) is not
-- announced: an announcement drops the keys every process admitted (src/resolvers/admittedKeys.ts).
-- Every other change is, as before (migration *_api_key_changes). UPDATE OF names every column
-- but last_used_at: a column added later must be added here too, or its changes go unannounced.
DROP TRIGGER "api_keys_announce_change" ON "api_keys";
CREATE TRIGGER "api_keys_announce_change"
  AFTER INSERT OR DELETE OR TRUNCATE
    OR UPDATE OF "id", "network_id", "name", "prefix", "hash", "scopes", "origins", "created_at", "expires_at", "revoked_at"
  ON "api_keys"
  FOR EACH STATEMENT EXECUTE FUNCTION "announce_api_key_change"();
