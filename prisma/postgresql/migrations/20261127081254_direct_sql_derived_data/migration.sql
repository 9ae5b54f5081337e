-- Hand-written: whatever operators' plain SQL (restores, imports, fixes) writes, the data derived
-- from it stays right, in the same transaction, whichever connection writes.
--
-- 1. A row moved to another network (UPDATE ... SET network_id) leaves one network's kept count
--    and enters the other's; the count triggers (*_network_vehicle_count, *_network_record_counts)
--    saw inserts and deletes only. Each count's function now moves it, and its trigger fires on
--    a change of network_id too. Right already: both networks' vehicle_version (vehicles_version),
--    the search keys (vehicles_search_keys_idx computes them from the row's network_id), the hour
--    counts (*_hour_count), and dutytime_version for entries changed in any way and officers
--    moved (dutytime_entries_version, officers_version). Writing the network a row is already in
--    changes no count.
CREATE OR REPLACE FUNCTION "vehicles_count_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE "networks" SET "vehicle_count" = "vehicle_count" + 1, "vehicle_version" = "vehicle_version" + 1
    WHERE "id" = NEW."network_id";
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE "networks" SET "vehicle_count" = "vehicle_count" - 1, "vehicle_version" = "vehicle_version" + 1
    WHERE "id" = OLD."network_id";
  ELSIF OLD."network_id" IS DISTINCT FROM NEW."network_id" THEN
    -- vehicle_version: raised by the trigger vehicles_version.
    UPDATE "networks" SET "vehicle_count" = "vehicle_count" + CASE WHEN "id" = NEW."network_id" THEN 1 ELSE -1 END
    WHERE "id" IN (OLD."network_id", NEW."network_id");
  END IF;
  RETURN NULL;
END;
$$;
DROP TRIGGER "vehicles_count" ON "vehicles";
CREATE TRIGGER "vehicles_count" AFTER INSERT OR DELETE OR UPDATE OF "network_id" ON "vehicles"
  FOR EACH ROW EXECUTE FUNCTION "vehicles_count_change"();

CREATE OR REPLACE FUNCTION "mission_reports_count_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE "networks" SET "mission_report_count" = "mission_report_count" + 1 WHERE "id" = NEW."network_id";
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE "networks" SET "mission_report_count" = "mission_report_count" - 1 WHERE "id" = OLD."network_id";
  ELSIF OLD."network_id" IS DISTINCT FROM NEW."network_id" THEN
    UPDATE "networks" SET "mission_report_count" = "mission_report_count" + CASE WHEN "id" = NEW."network_id" THEN 1 ELSE -1 END
    WHERE "id" IN (OLD."network_id", NEW."network_id");
  END IF;
  RETURN NULL;
END;
$$;
DROP TRIGGER "mission_reports_count" ON "mission_reports";
CREATE TRIGGER "mission_reports_count" AFTER INSERT OR DELETE OR UPDATE OF "network_id" ON "mission_reports"
  FOR EACH ROW EXECUTE FUNCTION "mission_reports_count_change"();

CREATE OR REPLACE FUNCTION "patient_files_count_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE "networks" SET "patient_file_count" = "patient_file_count" + 1 WHERE "id" = NEW."network_id";
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE "networks" SET "patient_file_count" = "patient_file_count" - 1 WHERE "id" = OLD."network_id";
  ELSIF OLD."network_id" IS DISTINCT FROM NEW."network_id" THEN
    UPDATE "networks" SET "patient_file_count" = "patient_file_count" + CASE WHEN "id" = NEW."network_id" THEN 1 ELSE -1 END
    WHERE "id" IN (OLD."network_id", NEW."network_id");
  END IF;
  RETURN NULL;
END;
$$;
DROP TRIGGER "patient_files_count" ON "patient_files";
CREATE TRIGGER "patient_files_count" AFTER INSERT OR DELETE OR UPDATE OF "network_id" ON "patient_files"
  FOR EACH ROW EXECUTE FUNCTION "patient_files_count_change"();

CREATE OR REPLACE FUNCTION "offender_files_count_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE "networks" SET "offender_file_count" = "offender_file_count" + 1 WHERE "id" = NEW."network_id";
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE "networks" SET "offender_file_count" = "offender_file_count" - 1 WHERE "id" = OLD."network_id";
  ELSIF OLD."network_id" IS DISTINCT FROM NEW."network_id" THEN
    UPDATE "networks" SET "offender_file_count" = "offender_file_count" + CASE WHEN "id" = NEW."network_id" THEN 1 ELSE -1 END
    WHERE "id" IN (OLD."network_id", NEW."network_id");
  END IF;
  RETURN NULL;
END;
$$;
DROP TRIGGER "offender_files_count" ON "offender_files";
CREATE TRIGGER "offender_files_count" AFTER INSERT OR DELETE OR UPDATE OF "network_id" ON "offender_files"
  FOR EACH ROW EXECUTE FUNCTION "offender_files_count_change"();

-- 2. Instants need nothing here: timestamp(3) columns hold instants, whatever text wrote them
--    ('2026-11-10 10:00:00' or '2026-11-10T10:00:00.000Z'), and compare as instants. (SQLite's
--    migration of the same name rewrites its text.)
--
-- 3. An officer's delete raises its network's dutytime_version itself, as SQLite's now does for
--    an officer deleted with foreign keys off. Here foreign keys are always on, and the cascading
--    deletes of its entries raise it too; the trigger keeps the two databases' rules alike.
DROP TRIGGER "officers_version" ON "officers";
CREATE TRIGGER "officers_version" AFTER UPDATE OF "name", "identifier", "removed_at", "network_id" OR DELETE ON "officers"
  FOR EACH ROW EXECUTE FUNCTION "dutytime_version_change"();
