-- AlterTable (hand-written instead of Prisma's table rebuild: dropping "networks" with foreign
-- keys on, which they are inside the migration's transaction, would cascade to its rows)
ALTER TABLE "networks" ADD COLUMN "vehicle_version" BIGINT NOT NULL DEFAULT 0;

-- Hand-written: every insert, delete and change of searchable text of a vehicle raises its
-- network's vehicle_version in the same statement. A search total kept in memory for a
-- (network, term) is current exactly while that version is unchanged, which one row tells.
DROP TRIGGER "vehicles_count_insert";
CREATE TRIGGER "vehicles_count_insert" AFTER INSERT ON "vehicles" BEGIN
  UPDATE "networks" SET "vehicle_count" = "vehicle_count" + 1, "vehicle_version" = "vehicle_version" + 1
  WHERE "id" = NEW."network_id";
END;

DROP TRIGGER "vehicles_count_delete";
CREATE TRIGGER "vehicles_count_delete" AFTER DELETE ON "vehicles" BEGIN
  UPDATE "networks" SET "vehicle_count" = "vehicle_count" - 1, "vehicle_version" = "vehicle_version" + 1
  WHERE "id" = OLD."network_id";
END;

CREATE TRIGGER "vehicles_version_update" AFTER UPDATE OF "search_text", "network_id" ON "vehicles" BEGIN
  UPDATE "networks" SET "vehicle_version" = "vehicle_version" + 1
  WHERE "id" IN (OLD."network_id", NEW."network_id");
END;
