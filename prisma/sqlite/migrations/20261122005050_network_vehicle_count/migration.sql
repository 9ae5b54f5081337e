-- AlterTable
ALTER TABLE "networks" ADD COLUMN "vehicle_count" INTEGER NOT NULL DEFAULT 0;

-- Hand-written: the count follows every insert and delete of a vehicle, in the same statement,
-- so the first page of a large network needs no COUNT over its rows.
UPDATE "networks" SET "vehicle_count" = (SELECT COUNT(*) FROM "vehicles" WHERE "vehicles"."network_id" = "networks"."id");

CREATE TRIGGER "vehicles_count_insert" AFTER INSERT ON "vehicles" BEGIN
  UPDATE "networks" SET "vehicle_count" = "vehicle_count" + 1 WHERE "id" = NEW."network_id";
END;

CREATE TRIGGER "vehicles_count_delete" AFTER DELETE ON "vehicles" BEGIN
  UPDATE "networks" SET "vehicle_count" = "vehicle_count" - 1 WHERE "id" = OLD."network_id";
END;
