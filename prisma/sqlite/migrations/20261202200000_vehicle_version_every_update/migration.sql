-- Hand-written: every update of a vehicle raises its network's vehicle_version, whichever columns
-- it sets. The service's own updates always set search_text, so they raised it before; an
-- operator's UPDATE of other columns (wanted, general_inspection, ...) did not. A page kept in
-- memory (src/db/vehicles/keptPages.ts), like a search total, is current exactly while the
-- version is unchanged. (SQLite has no TRUNCATE: a DELETE without WHERE runs the row triggers
-- of a table that has any.)
DROP TRIGGER "vehicles_version_update";
CREATE TRIGGER "vehicles_version_update" AFTER UPDATE ON "vehicles" BEGIN
  UPDATE "networks" SET "vehicle_version" = "vehicle_version" + 1
  WHERE "id" IN (OLD."network_id", NEW."network_id");
END;
