-- Hand-written: every update of a vehicle raises its network's vehicle_version, whichever columns
-- it sets, and a TRUNCATE raises every network's (and sets its kept count to 0). The service's own
-- updates always set search_text, so they raised it before; an operator's UPDATE of other
-- columns (wanted, general_inspection, ...) did not. A page kept in memory
-- (src/db/vehicles/keptPages.ts), like a search total, is current exactly while the version is
-- unchanged.
DROP TRIGGER "vehicles_version" ON "vehicles";
CREATE TRIGGER "vehicles_version" AFTER UPDATE ON "vehicles"
  FOR EACH ROW EXECUTE FUNCTION "vehicles_version_change"();

CREATE FUNCTION "vehicles_truncated"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "networks" SET "vehicle_count" = 0, "vehicle_version" = "vehicle_version" + 1;
  RETURN NULL;
END;
$$;

CREATE TRIGGER "vehicles_truncate" AFTER TRUNCATE ON "vehicles"
  FOR EACH STATEMENT EXECUTE FUNCTION "vehicles_truncated"();
