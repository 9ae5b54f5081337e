-- Hand-written: whatever operators' plain SQL (restores, imports, fixes) writes, the data derived
-- from it stays right, in the same statement, whichever connection writes and with or without
-- foreign keys.
--
-- 1. A row moved to another network (UPDATE ... SET network_id) leaves one network's kept count
--    and enters the other's; the count triggers (*_network_vehicle_count, *_network_record_counts)
--    saw inserts and deletes only. Right already: both networks' vehicle_version
--    (vehicles_version_update), the search keys, which name the network
--    (vehicle_search_keys_update_old/_new), the hour counts (*_hour_update), and dutytime_version
--    for entries changed in any way and officers moved (*_version_update). Writing the network a
--    row is already in changes no count.
CREATE TRIGGER "vehicles_count_update" AFTER UPDATE OF "network_id" ON "vehicles" WHEN OLD."network_id" IS NOT NEW."network_id" BEGIN
  UPDATE "networks" SET "vehicle_count" = "vehicle_count" + CASE WHEN "id" = NEW."network_id" THEN 1 ELSE -1 END
  WHERE "id" IN (OLD."network_id", NEW."network_id");
END;
CREATE TRIGGER "mission_reports_count_update" AFTER UPDATE OF "network_id" ON "mission_reports" WHEN OLD."network_id" IS NOT NEW."network_id" BEGIN
  UPDATE "networks" SET "mission_report_count" = "mission_report_count" + CASE WHEN "id" = NEW."network_id" THEN 1 ELSE -1 END
  WHERE "id" IN (OLD."network_id", NEW."network_id");
END;
CREATE TRIGGER "patient_files_count_update" AFTER UPDATE OF "network_id" ON "patient_files" WHEN OLD."network_id" IS NOT NEW."network_id" BEGIN
  UPDATE "networks" SET "patient_file_count" = "patient_file_count" + CASE WHEN "id" = NEW."network_id" THEN 1 ELSE -1 END
  WHERE "id" IN (OLD."network_id", NEW."network_id");
END;
CREATE TRIGGER "offender_files_count_update" AFTER UPDATE OF "network_id" ON "offender_files" WHEN OLD."network_id" IS NOT NEW."network_id" BEGIN
  UPDATE "networks" SET "offender_file_count" = "offender_file_count" + CASE WHEN "id" = NEW."network_id" THEN 1 ELSE -1 END
  WHERE "id" IN (OLD."network_id", NEW."network_id");
END;

-- 2. One text for every stored instant. SQLite has no instant type: the app writes Prisma's
--    adapter's text, 2026-11-21T22:32:09.003+00:00 (src/db/storedInstant.ts), and reads compare
--    instants as text, so that the indexes on (network_id, ended_at, started_at, ...) and
--    (network_id, created_at) find a range. An instant in another of SQLite's formats compared
--    wrongly ('2026-11-10 10:00:00', what CURRENT_TIMESTAMP and datetime() write, sorts before
--    '2026-11-10T00:...'; 'Z' or another offset likewise): it is now rewritten into the app's
--    text on every insert and update of the columns that reports, statistics, trends and
--    histories compare or read back: dutytime entries' start and end, officers' creation and
--    removal, records' creation. strftime('%Y-%m-%dT%H:%M:%f+00:00') gives that text for every
--    time SQLite reads, its offset applied, to the millisecond. Only text that starts with a
--    date (YYYY-MM-DD) is rewritten: text SQLite cannot read stays as written (a record's creation
--    time is then unknown, as before), and so do numbers and 'now', which SQLite would read as
--    Julian days and the clock's time. The rewrite fires only when the text differs from its
--    rewritten form, so its own UPDATE does not fire it again (also with recursive_triggers on),
--    and the app's writes cost one comparison per instant. Vehicles' instants are not compared
--    as text (src/db/sqlite/vehicleStore.ts compares updated_at with unixepoch): no trigger.
--
--    The rewrite is an UPDATE of the row, so the records' hour count triggers on UPDATE now skip
--    a change that leaves a record's hour and network as they were: else a record inserted with
--    a rewritten creation time would be counted twice or not at all, depending on which trigger
--    fires first (SQLite fires the newest first).
DROP TRIGGER "mission_reports_hour_update";
CREATE TRIGGER "mission_reports_hour_update" AFTER UPDATE OF "network_id", "created_at" ON "mission_reports"
WHEN OLD."network_id" IS NOT NEW."network_id" OR strftime('%Y-%m-%dT%H:00:00.000+00:00', OLD."created_at") IS NOT strftime('%Y-%m-%dT%H:00:00.000+00:00', NEW."created_at") BEGIN
  UPDATE "record_hour_counts" SET "count" = "count" - 1
    WHERE "network_id" = OLD."network_id" AND "table_name" = 'mission_reports' AND "hour" = strftime('%Y-%m-%dT%H:00:00.000+00:00', OLD."created_at");
  INSERT INTO "record_hour_counts" ("network_id", "table_name", "hour", "count")
    SELECT NEW."network_id", 'mission_reports', strftime('%Y-%m-%dT%H:00:00.000+00:00', NEW."created_at"), 1 WHERE strftime('%Y-%m-%dT%H:00:00.000+00:00', NEW."created_at") IS NOT NULL
    ON CONFLICT ("network_id", "table_name", "hour") DO UPDATE SET "count" = "count" + 1;
END;
DROP TRIGGER "patient_files_hour_update";
CREATE TRIGGER "patient_files_hour_update" AFTER UPDATE OF "network_id", "created_at" ON "patient_files"
WHEN OLD."network_id" IS NOT NEW."network_id" OR strftime('%Y-%m-%dT%H:00:00.000+00:00', OLD."created_at") IS NOT strftime('%Y-%m-%dT%H:00:00.000+00:00', NEW."created_at") BEGIN
  UPDATE "record_hour_counts" SET "count" = "count" - 1
    WHERE "network_id" = OLD."network_id" AND "table_name" = 'patient_files' AND "hour" = strftime('%Y-%m-%dT%H:00:00.000+00:00', OLD."created_at");
  INSERT INTO "record_hour_counts" ("network_id", "table_name", "hour", "count")
    SELECT NEW."network_id", 'patient_files', strftime('%Y-%m-%dT%H:00:00.000+00:00', NEW."created_at"), 1 WHERE strftime('%Y-%m-%dT%H:00:00.000+00:00', NEW."created_at") IS NOT NULL
    ON CONFLICT ("network_id", "table_name", "hour") DO UPDATE SET "count" = "count" + 1;
END;
DROP TRIGGER "offender_files_hour_update";
CREATE TRIGGER "offender_files_hour_update" AFTER UPDATE OF "network_id", "created_at" ON "offender_files"
WHEN OLD."network_id" IS NOT NEW."network_id" OR strftime('%Y-%m-%dT%H:00:00.000+00:00', OLD."created_at") IS NOT strftime('%Y-%m-%dT%H:00:00.000+00:00', NEW."created_at") BEGIN
  UPDATE "record_hour_counts" SET "count" = "count" - 1
    WHERE "network_id" = OLD."network_id" AND "table_name" = 'offender_files' AND "hour" = strftime('%Y-%m-%dT%H:00:00.000+00:00', OLD."created_at");
  INSERT INTO "record_hour_counts" ("network_id", "table_name", "hour", "count")
    SELECT NEW."network_id", 'offender_files', strftime('%Y-%m-%dT%H:00:00.000+00:00', NEW."created_at"), 1 WHERE strftime('%Y-%m-%dT%H:00:00.000+00:00', NEW."created_at") IS NOT NULL
    ON CONFLICT ("network_id", "table_name", "hour") DO UPDATE SET "count" = "count" + 1;
END;
-- The instants stored so far (one pass over each table), then the triggers for every later write.
UPDATE "dutytime_entries" SET "started_at" = CASE WHEN "started_at" GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]*' THEN coalesce(strftime('%Y-%m-%dT%H:%M:%f+00:00', "started_at"), "started_at") ELSE "started_at" END, "ended_at" = CASE WHEN "ended_at" GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]*' THEN coalesce(strftime('%Y-%m-%dT%H:%M:%f+00:00', "ended_at"), "ended_at") ELSE "ended_at" END
WHERE ("started_at" GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]*' AND strftime('%Y-%m-%dT%H:%M:%f+00:00', "started_at") <> "started_at") OR ("ended_at" GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]*' AND strftime('%Y-%m-%dT%H:%M:%f+00:00', "ended_at") <> "ended_at");
UPDATE "officers" SET "created_at" = CASE WHEN "created_at" GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]*' THEN coalesce(strftime('%Y-%m-%dT%H:%M:%f+00:00', "created_at"), "created_at") ELSE "created_at" END, "removed_at" = CASE WHEN "removed_at" GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]*' THEN coalesce(strftime('%Y-%m-%dT%H:%M:%f+00:00', "removed_at"), "removed_at") ELSE "removed_at" END
WHERE ("created_at" GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]*' AND strftime('%Y-%m-%dT%H:%M:%f+00:00', "created_at") <> "created_at") OR ("removed_at" GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]*' AND strftime('%Y-%m-%dT%H:%M:%f+00:00', "removed_at") <> "removed_at");
UPDATE "mission_reports" SET "created_at" = strftime('%Y-%m-%dT%H:%M:%f+00:00', "created_at")
WHERE ("created_at" GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]*' AND strftime('%Y-%m-%dT%H:%M:%f+00:00', "created_at") <> "created_at");
UPDATE "patient_files" SET "created_at" = strftime('%Y-%m-%dT%H:%M:%f+00:00', "created_at")
WHERE ("created_at" GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]*' AND strftime('%Y-%m-%dT%H:%M:%f+00:00', "created_at") <> "created_at");
UPDATE "offender_files" SET "created_at" = strftime('%Y-%m-%dT%H:%M:%f+00:00', "created_at")
WHERE ("created_at" GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]*' AND strftime('%Y-%m-%dT%H:%M:%f+00:00', "created_at") <> "created_at");
CREATE TRIGGER "dutytime_entries_instants_insert" AFTER INSERT ON "dutytime_entries"
WHEN (NEW."started_at" GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]*' AND strftime('%Y-%m-%dT%H:%M:%f+00:00', NEW."started_at") <> NEW."started_at")
  OR (NEW."ended_at" GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]*' AND strftime('%Y-%m-%dT%H:%M:%f+00:00', NEW."ended_at") <> NEW."ended_at") BEGIN
  UPDATE "dutytime_entries" SET "started_at" = CASE WHEN "started_at" GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]*' THEN coalesce(strftime('%Y-%m-%dT%H:%M:%f+00:00', "started_at"), "started_at") ELSE "started_at" END,
    "ended_at" = CASE WHEN "ended_at" GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]*' THEN coalesce(strftime('%Y-%m-%dT%H:%M:%f+00:00', "ended_at"), "ended_at") ELSE "ended_at" END
  WHERE "id" = NEW."id";
END;
CREATE TRIGGER "dutytime_entries_instants_update" AFTER UPDATE OF "started_at", "ended_at" ON "dutytime_entries"
WHEN (NEW."started_at" GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]*' AND strftime('%Y-%m-%dT%H:%M:%f+00:00', NEW."started_at") <> NEW."started_at")
  OR (NEW."ended_at" GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]*' AND strftime('%Y-%m-%dT%H:%M:%f+00:00', NEW."ended_at") <> NEW."ended_at") BEGIN
  UPDATE "dutytime_entries" SET "started_at" = CASE WHEN "started_at" GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]*' THEN coalesce(strftime('%Y-%m-%dT%H:%M:%f+00:00', "started_at"), "started_at") ELSE "started_at" END,
    "ended_at" = CASE WHEN "ended_at" GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]*' THEN coalesce(strftime('%Y-%m-%dT%H:%M:%f+00:00', "ended_at"), "ended_at") ELSE "ended_at" END
  WHERE "id" = NEW."id";
END;
CREATE TRIGGER "officers_instants_insert" AFTER INSERT ON "officers"
WHEN (NEW."created_at" GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]*' AND strftime('%Y-%m-%dT%H:%M:%f+00:00', NEW."created_at") <> NEW."created_at")
  OR (NEW."removed_at" GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]*' AND strftime('%Y-%m-%dT%H:%M:%f+00:00', NEW."removed_at") <> NEW."removed_at") BEGIN
  UPDATE "officers" SET "created_at" = CASE WHEN "created_at" GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]*' THEN coalesce(strftime('%Y-%m-%dT%H:%M:%f+00:00', "created_at"), "created_at") ELSE "created_at" END,
    "removed_at" = CASE WHEN "removed_at" GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]*' THEN coalesce(strftime('%Y-%m-%dT%H:%M:%f+00:00', "removed_at"), "removed_at") ELSE "removed_at" END
  WHERE "id" = NEW."id";
END;
CREATE TRIGGER "officers_instants_update" AFTER UPDATE OF "created_at", "removed_at" ON "officers"
WHEN (NEW."created_at" GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]*' AND strftime('%Y-%m-%dT%H:%M:%f+00:00', NEW."created_at") <> NEW."created_at")
  OR (NEW."removed_at" GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]*' AND strftime('%Y-%m-%dT%H:%M:%f+00:00', NEW."removed_at") <> NEW."removed_at") BEGIN
  UPDATE "officers" SET "created_at" = CASE WHEN "created_at" GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]*' THEN coalesce(strftime('%Y-%m-%dT%H:%M:%f+00:00', "created_at"), "created_at") ELSE "created_at" END,
    "removed_at" = CASE WHEN "removed_at" GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]*' THEN coalesce(strftime('%Y-%m-%dT%H:%M:%f+00:00', "removed_at"), "removed_at") ELSE "removed_at" END
  WHERE "id" = NEW."id";
END;
CREATE TRIGGER "mission_reports_instants_insert" AFTER INSERT ON "mission_reports"
WHEN (NEW."created_at" GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]*' AND strftime('%Y-%m-%dT%H:%M:%f+00:00', NEW."created_at") <> NEW."created_at") BEGIN
  UPDATE "mission_reports" SET "created_at" = strftime('%Y-%m-%dT%H:%M:%f+00:00', "created_at")
  WHERE "id" = NEW."id";
END;
CREATE TRIGGER "mission_reports_instants_update" AFTER UPDATE OF "created_at" ON "mission_reports"
WHEN (NEW."created_at" GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]*' AND strftime('%Y-%m-%dT%H:%M:%f+00:00', NEW."created_at") <> NEW."created_at") BEGIN
  UPDATE "mission_reports" SET "created_at" = strftime('%Y-%m-%dT%H:%M:%f+00:00', "created_at")
  WHERE "id" = NEW."id";
END;
CREATE TRIGGER "patient_files_instants_insert" AFTER INSERT ON "patient_files"
WHEN (NEW."created_at" GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]*' AND strftime('%Y-%m-%dT%H:%M:%f+00:00', NEW."created_at") <> NEW."created_at") BEGIN
  UPDATE "patient_files" SET "created_at" = strftime('%Y-%m-%dT%H:%M:%f+00:00', "created_at")
  WHERE "id" = NEW."id";
END;
CREATE TRIGGER "patient_files_instants_update" AFTER UPDATE OF "created_at" ON "patient_files"
WHEN (NEW."created_at" GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]*' AND strftime('%Y-%m-%dT%H:%M:%f+00:00', NEW."created_at") <> NEW."created_at") BEGIN
  UPDATE "patient_files" SET "created_at" = strftime('%Y-%m-%dT%H:%M:%f+00:00', "created_at")
  WHERE "id" = NEW."id";
END;
CREATE TRIGGER "offender_files_instants_insert" AFTER INSERT ON "offender_files"
WHEN (NEW."created_at" GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]*' AND strftime('%Y-%m-%dT%H:%M:%f+00:00', NEW."created_at") <> NEW."created_at") BEGIN
  UPDATE "offender_files" SET "created_at" = strftime('%Y-%m-%dT%H:%M:%f+00:00', "created_at")
  WHERE "id" = NEW."id";
END;
CREATE TRIGGER "offender_files_instants_update" AFTER UPDATE OF "created_at" ON "offender_files"
WHEN (NEW."created_at" GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]*' AND strftime('%Y-%m-%dT%H:%M:%f+00:00', NEW."created_at") <> NEW."created_at") BEGIN
  UPDATE "offender_files" SET "created_at" = strftime('%Y-%m-%dT%H:%M:%f+00:00', "created_at")
  WHERE "id" = NEW."id";
END;

-- 3. An officer deleted with foreign keys off (the sqlite3 shell's default) takes none of its
--    entries with it, so nothing raised dutytime_version and a kept duty hours report still
--    named the officer. The officer's delete raises it (with foreign keys on, the cascading
--    deletes of its entries raise it as well).
CREATE TRIGGER "officers_version_delete" AFTER DELETE ON "officers" BEGIN
  UPDATE "networks" SET "dutytime_version" = "dutytime_version" + 1 WHERE "id" = OLD."network_id";
END;
