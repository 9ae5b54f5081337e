-- AlterTable
ALTER TABLE "networks" ADD COLUMN     "mission_report_count" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "patient_file_count" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "offender_file_count" INTEGER NOT NULL DEFAULT 0;

-- Hand-written: each network's number of mission reports and of patient and offender files
-- follows every insert and delete, in the same transaction, so the statistics totals a
-- dashboard polls need no COUNT over the network's records.
UPDATE "networks" SET "mission_report_count" = (SELECT COUNT(*) FROM "mission_reports" WHERE "mission_reports"."network_id" = "networks"."id");
UPDATE "networks" SET "patient_file_count" = (SELECT COUNT(*) FROM "patient_files" WHERE "patient_files"."network_id" = "networks"."id");
UPDATE "networks" SET "offender_file_count" = (SELECT COUNT(*) FROM "offender_files" WHERE "offender_files"."network_id" = "networks"."id");

CREATE FUNCTION "mission_reports_count_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE "networks" SET "mission_report_count" = "mission_report_count" + 1 WHERE "id" = NEW."network_id";
  ELSE
    UPDATE "networks" SET "mission_report_count" = "mission_report_count" - 1 WHERE "id" = OLD."network_id";
  END IF;
  RETURN NULL;
END;
$$;

CREATE TRIGGER "mission_reports_count" AFTER INSERT OR DELETE ON "mission_reports"
  FOR EACH ROW EXECUTE FUNCTION "mission_reports_count_change"();

CREATE FUNCTION "patient_files_count_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE "networks" SET "patient_file_count" = "patient_file_count" + 1 WHERE "id" = NEW."network_id";
  ELSE
    UPDATE "networks" SET "patient_file_count" = "patient_file_count" - 1 WHERE "id" = OLD."network_id";
  END IF;
  RETURN NULL;
END;
$$;

CREATE TRIGGER "patient_files_count" AFTER INSERT OR DELETE ON "patient_files"
  FOR EACH ROW EXECUTE FUNCTION "patient_files_count_change"();

CREATE FUNCTION "offender_files_count_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE "networks" SET "offender_file_count" = "offender_file_count" + 1 WHERE "id" = NEW."network_id";
  ELSE
    UPDATE "networks" SET "offender_file_count" = "offender_file_count" - 1 WHERE "id" = OLD."network_id";
  END IF;
  RETURN NULL;
END;
$$;

CREATE TRIGGER "offender_files_count" AFTER INSERT OR DELETE ON "offender_files"
  FOR EACH ROW EXECUTE FUNCTION "offender_files_count_change"();
