-- AlterTable
ALTER TABLE "networks" ADD COLUMN "mission_report_count" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "networks" ADD COLUMN "patient_file_count" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "networks" ADD COLUMN "offender_file_count" INTEGER NOT NULL DEFAULT 0;

-- Hand-written: each network's number of mission reports and of patient and offender files
-- follows every insert and delete, in the same statement, so the statistics totals a dashboard
-- polls need no COUNT over the network's records.
UPDATE "networks" SET "mission_report_count" = (SELECT COUNT(*) FROM "mission_reports" WHERE "mission_reports"."network_id" = "networks"."id");
UPDATE "networks" SET "patient_file_count" = (SELECT COUNT(*) FROM "patient_files" WHERE "patient_files"."network_id" = "networks"."id");
UPDATE "networks" SET "offender_file_count" = (SELECT COUNT(*) FROM "offender_files" WHERE "offender_files"."network_id" = "networks"."id");

CREATE TRIGGER "mission_reports_count_insert" AFTER INSERT ON "mission_reports" BEGIN
  UPDATE "networks" SET "mission_report_count" = "mission_report_count" + 1 WHERE "id" = NEW."network_id";
END;

CREATE TRIGGER "mission_reports_count_delete" AFTER DELETE ON "mission_reports" BEGIN
  UPDATE "networks" SET "mission_report_count" = "mission_report_count" - 1 WHERE "id" = OLD."network_id";
END;

CREATE TRIGGER "patient_files_count_insert" AFTER INSERT ON "patient_files" BEGIN
  UPDATE "networks" SET "patient_file_count" = "patient_file_count" + 1 WHERE "id" = NEW."network_id";
END;

CREATE TRIGGER "patient_files_count_delete" AFTER DELETE ON "patient_files" BEGIN
  UPDATE "networks" SET "patient_file_count" = "patient_file_count" - 1 WHERE "id" = OLD."network_id";
END;

CREATE TRIGGER "offender_files_count_insert" AFTER INSERT ON "offender_files" BEGIN
  UPDATE "networks" SET "offender_file_count" = "offender_file_count" + 1 WHERE "id" = NEW."network_id";
END;

CREATE TRIGGER "offender_files_count_delete" AFTER DELETE ON "offender_files" BEGIN
  UPDATE "networks" SET "offender_file_count" = "offender_file_count" - 1 WHERE "id" = OLD."network_id";
END;
