-- AlterTable
ALTER TABLE "networks" ADD COLUMN "vehicle_count" INTEGER NOT NULL DEFAULT 0;

-- Hand-written: the count follows every insert and delete of a vehicle, in the same transaction,
-- so the first page of a large network needs no COUNT over its rows.
UPDATE "networks" SET "vehicle_count" = (SELECT COUNT(*) FROM "vehicles" WHERE "vehicles"."network_id" = "networks"."id");

CREATE FUNCTION "vehicles_count_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE "networks" SET "vehicle_count" = "vehicle_count" + 1 WHERE "id" = NEW."network_id";
  ELSE
    UPDATE "networks" SET "vehicle_count" = "vehicle_count" - 1 WHERE "id" = OLD."network_id";
  END IF;
  RETURN NULL;
END;
$$;

CREATE TRIGGER "vehicles_count" AFTER INSERT OR DELETE ON "vehicles"
  FOR EACH ROW EXECUTE FUNCTION "vehicles_count_change"();
