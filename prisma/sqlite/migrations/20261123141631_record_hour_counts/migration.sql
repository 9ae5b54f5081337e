-- CreateTable
CREATE TABLE "record_hour_counts" (
    "network_id" INTEGER NOT NULL,
    "table_name" TEXT NOT NULL,
    "hour" DATETIME NOT NULL,
    "count" INTEGER NOT NULL,

    PRIMARY KEY ("network_id", "table_name", "hour"),
    CONSTRAINT "record_hour_counts_network_id_fkey" FOREIGN KEY ("network_id") REFERENCES "networks" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);


-- Hand-written: each table's records per network and hour of creation follow every insert,
-- delete and change of network or creation time, in the same transaction, so "last 7 days"
-- sums the window's hours and counts only the records of its first, partial hour
-- (src/resolvers/statistics.ts). The hour is written as Prisma writes instants. Records of
-- unknown creation time (null, or text that is no instant) are in no hour.
INSERT INTO "record_hour_counts" ("network_id", "table_name", "hour", "count")
  SELECT "network_id", 'mission_reports', strftime('%Y-%m-%dT%H:00:00.000+00:00', "mission_reports"."created_at"), COUNT(*) FROM "mission_reports"
  WHERE strftime('%Y-%m-%dT%H:00:00.000+00:00', "mission_reports"."created_at") IS NOT NULL GROUP BY 1, 3;

CREATE TRIGGER "mission_reports_hour_insert" AFTER INSERT ON "mission_reports" WHEN strftime('%Y-%m-%dT%H:00:00.000+00:00', NEW."created_at") IS NOT NULL BEGIN
  INSERT INTO "record_hour_counts" ("network_id", "table_name", "hour", "count") VALUES (NEW."network_id", 'mission_reports', strftime('%Y-%m-%dT%H:00:00.000+00:00', NEW."created_at"), 1)
    ON CONFLICT ("network_id", "table_name", "hour") DO UPDATE SET "count" = "count" + 1;
END;

CREATE TRIGGER "mission_reports_hour_delete" AFTER DELETE ON "mission_reports" WHEN strftime('%Y-%m-%dT%H:00:00.000+00:00', OLD."created_at") IS NOT NULL BEGIN
  UPDATE "record_hour_counts" SET "count" = "count" - 1
    WHERE "network_id" = OLD."network_id" AND "table_name" = 'mission_reports' AND "hour" = strftime('%Y-%m-%dT%H:00:00.000+00:00', OLD."created_at");
END;

CREATE TRIGGER "mission_reports_hour_update" AFTER UPDATE OF "network_id", "created_at" ON "mission_reports" BEGIN
  UPDATE "record_hour_counts" SET "count" = "count" - 1
    WHERE "network_id" = OLD."network_id" AND "table_name" = 'mission_reports' AND "hour" = strftime('%Y-%m-%dT%H:00:00.000+00:00', OLD."created_at");
  INSERT INTO "record_hour_counts" ("network_id", "table_name", "hour", "count")
    SELECT NEW."network_id", 'mission_reports', strftime('%Y-%m-%dT%H:00:00.000+00:00', NEW."created_at"), 1 WHERE strftime('%Y-%m-%dT%H:00:00.000+00:00', NEW."created_at") IS NOT NULL
    ON CONFLICT ("network_id", "table_name", "hour") DO UPDATE SET "count" = "count" + 1;
END;

INSERT INTO "record_hour_counts" ("network_id", "table_name", "hour", "count")
  SELECT "network_id", 'patient_files', strftime('%Y-%m-%dT%H:00:00.000+00:00', "patient_files"."created_at"), COUNT(*) FROM "patient_files"
  WHERE strftime('%Y-%m-%dT%H:00:00.000+00:00', "patient_files"."created_at") IS NOT NULL GROUP BY 1, 3;

CREATE TRIGGER "patient_files_hour_insert" AFTER INSERT ON "patient_files" WHEN strftime('%Y-%m-%dT%H:00:00.000+00:00', NEW."created_at") IS NOT NULL BEGIN
  INSERT INTO "record_hour_counts" ("network_id", "table_name", "hour", "count") VALUES (NEW."network_id", 'patient_files', strftime('%Y-%m-%dT%H:00:00.000+00:00', NEW."created_at"), 1)
    ON CONFLICT ("network_id", "table_name", "hour") DO UPDATE SET "count" = "count" + 1;
END;

CREATE TRIGGER "patient_files_hour_delete" AFTER DELETE ON "patient_files" WHEN strftime('%Y-%m-%dT%H:00:00.000+00:00', OLD."created_at") IS NOT NULL BEGIN
  UPDATE "record_hour_counts" SET "count" = "count" - 1
    WHERE "network_id" = OLD."network_id" AND "table_name" = 'patient_files' AND "hour" = strftime('%Y-%m-%dT%H:00:00.000+00:00', OLD."created_at");
END;

CREATE TRIGGER "patient_files_hour_update" AFTER UPDATE OF "network_id", "created_at" ON "patient_files" BEGIN
  UPDATE "record_hour_counts" SET "count" = "count" - 1
    WHERE "network_id" = OLD."network_id" AND "table_name" = 'patient_files' AND "hour" = strftime('%Y-%m-%dT%H:00:00.000+00:00', OLD."created_at");
  INSERT INTO "record_hour_counts" ("network_id", "table_name", "hour", "count")
    SELECT NEW."network_id", 'patient_files', strftime('%Y-%m-%dT%H:00:00.000+00:00', NEW."created_at"), 1 WHERE strftime('%Y-%m-%dT%H:00:00.000+00:00', NEW."created_at") IS NOT NULL
    ON CONFLICT ("network_id", "table_name", "hour") DO UPDATE SET "count" = "count" + 1;
END;

INSERT INTO "record_hour_counts" ("network_id", "table_name", "hour", "count")
  SELECT "network_id", 'offender_files', strftime('%Y-%m-%dT%H:00:00.000+00:00', "offender_files"."created_at"), COUNT(*) FROM "offender_files"
  WHERE strftime('%Y-%m-%dT%H:00:00.000+00:00', "offender_files"."created_at") IS NOT NULL GROUP BY 1, 3;

CREATE TRIGGER "offender_files_hour_insert" AFTER INSERT ON "offender_files" WHEN strftime('%Y-%m-%dT%H:00:00.000+00:00', NEW."created_at") IS NOT NULL BEGIN
  INSERT INTO "record_hour_counts" ("network_id", "table_name", "hour", "count") VALUES (NEW."network_id", 'offender_files', strftime('%Y-%m-%dT%H:00:00.000+00:00', NEW."created_at"), 1)
    ON CONFLICT ("network_id", "table_name", "hour") DO UPDATE SET "count" = "count" + 1;
END;

CREATE TRIGGER "offender_files_hour_delete" AFTER DELETE ON "offender_files" WHEN strftime('%Y-%m-%dT%H:00:00.000+00:00', OLD."created_at") IS NOT NULL BEGIN
  UPDATE "record_hour_counts" SET "count" = "count" - 1
    WHERE "network_id" = OLD."network_id" AND "table_name" = 'offender_files' AND "hour" = strftime('%Y-%m-%dT%H:00:00.000+00:00', OLD."created_at");
END;

CREATE TRIGGER "offender_files_hour_update" AFTER UPDATE OF "network_id", "created_at" ON "offender_files" BEGIN
  UPDATE "record_hour_counts" SET "count" = "count" - 1
    WHERE "network_id" = OLD."network_id" AND "table_name" = 'offender_files' AND "hour" = strftime('%Y-%m-%dT%H:00:00.000+00:00', OLD."created_at");
  INSERT INTO "record_hour_counts" ("network_id", "table_name", "hour", "count")
    SELECT NEW."network_id", 'offender_files', strftime('%Y-%m-%dT%H:00:00.000+00:00', NEW."created_at"), 1 WHERE strftime('%Y-%m-%dT%H:00:00.000+00:00', NEW."created_at") IS NOT NULL
    ON CONFLICT ("network_id", "table_name", "hour") DO UPDATE SET "count" = "count" + 1;
END;
