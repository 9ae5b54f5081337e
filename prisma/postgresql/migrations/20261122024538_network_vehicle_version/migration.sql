-- AlterTable
ALTER TABLE "networks" ADD COLUMN     "vehicle_version" BIGINT NOT NULL DEFAULT 0;


-- Hand-written: every insert, delete and change of searchable text of a vehicle raises its
-- network's vehicle_version in the same transaction. A search total kept in memory for a
-- (network, term) is current exactly while that version is unchanged, which one row tells.
CREATE OR REPLACE FUNCTION "vehicles_count_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE "networks" SET "vehicle_count" = "vehicle_count" + 1, "vehicle_version" = "vehicle_version" + 1
    WHERE "id" = NEW."network_id";
  ELSE
    UPDATE "networks" SET "vehicle_count" = "vehicle_count" - 1, "vehicle_version" = "vehicle_version" + 1
    WHERE "id" = OLD."network_id";
  END IF;
  RETURN NULL;
END;
$$;

CREATE FUNCTION "vehicles_version_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "networks" SET "vehicle_version" = "vehicle_version" + 1
  WHERE "id" IN (OLD."network_id", NEW."network_id");
  RETURN NULL;
END;
$$;

CREATE TRIGGER "vehicles_version" AFTER UPDATE OF "search_text", "network_id" ON "vehicles"
  FOR EACH ROW EXECUTE FUNCTION "vehicles_version_change"();
