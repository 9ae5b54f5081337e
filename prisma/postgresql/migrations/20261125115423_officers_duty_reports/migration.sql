-- AlterTable
ALTER TABLE "dutytime_entries" ADD COLUMN     "auto_stopped" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "networks" ADD COLUMN     "auto_stop_after_hours" INTEGER,
ADD COLUMN     "time_zone" TEXT NOT NULL DEFAULT 'UTC';

-- AlterTable
ALTER TABLE "officers" ADD COLUMN     "removed_at" TIMESTAMP(3);

-- CreateIndex
CREATE INDEX "dutytime_entries_officer_id_started_at_idx" ON "dutytime_entries"("officer_id", "started_at");


-- Hand-written: the network's time zone and auto-stop rule are part of a key's scope (kept per
-- process with the admitted key, src/resolvers/admittedKeys.ts), so their changes are announced
-- like those of its name (migration *_api_key_changes).
DROP TRIGGER "networks_announce_change" ON "networks";
CREATE TRIGGER "networks_announce_change"
  AFTER UPDATE OF "id", "name", "identifier_type", "time_zone", "auto_stop_after_hours" OR DELETE OR TRUNCATE ON "networks"
  FOR EACH STATEMENT EXECUTE FUNCTION "announce_api_key_change"();
