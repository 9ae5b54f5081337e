-- CreateTable
CREATE TABLE "record_hour_counts" (
    "network_id" INTEGER NOT NULL,
    "table_name" TEXT NOT NULL,
    "hour" TIMESTAMP(3) NOT NULL,
    "count" INTEGER NOT NULL,

    CONSTRAINT "record_hour_counts_pkey" PRIMARY KEY ("network_id","table_name","hour")
);

-- AddForeignKey
ALTER TABLE "record_hour_counts" ADD CONSTRAINT "record_hour_counts_network_id_fkey" FOREIGN KEY ("network_id") REFERENCES "networks"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Hand-written: each table's records per network and hour of creation follow every insert,
-- delete and change of network or creation time, in the same transaction, so "last 7 days"
-- sums the window's hours and counts only the records of its first, partial hour
-- (src/resolvers/statistics.ts). Records of unknown creation time are in no hour.
CREATE FUNCTION "record_hour_counts_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('DELETE', 'UPDATE') AND OLD."created_at" IS NOT NULL THEN
    UPDATE "record_hour_counts" SET "count" = "count" - 1
      WHERE "network_id" = OLD."network_id" AND "table_name" = TG_TABLE_NAME AND "hour" = date_trunc('hour', OLD."created_at");
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') AND NEW."created_at" IS NOT NULL THEN
    INSERT INTO "record_hour_counts" ("network_id", "table_name", "hour", "count")
      VALUES (NEW."network_id", TG_TABLE_NAME, date_trunc('hour', NEW."created_at"), 1)
      ON CONFLICT ("network_id", "table_name", "hour") DO UPDATE SET "count" = "record_hour_counts"."count" + 1;
  END IF;
  RETURN NULL;
END;
$$;

INSERT INTO "record_hour_counts" ("network_id", "table_name", "hour", "count")
  SELECT "network_id", 'mission_reports', date_trunc('hour', "created_at"), COUNT(*) FROM "mission_reports"
  WHERE "created_at" IS NOT NULL GROUP BY 1, 3;

CREATE TRIGGER "mission_reports_hour_count" AFTER INSERT OR DELETE OR UPDATE OF "network_id", "created_at" ON "mission_reports"
  FOR EACH ROW EXECUTE FUNCTION "record_hour_counts_change"();

INSERT INTO "record_hour_counts" ("network_id", "table_name", "hour", "count")
  SELECT "network_id", 'patient_files', date_trunc('hour', "created_at"), COUNT(*) FROM "patient_files"
  WHERE "created_at" IS NOT NULL GROUP BY 1, 3;

CREATE TRIGGER "patient_files_hour_count" AFTER INSERT OR DELETE OR UPDATE OF "network_id", "created_at" ON "patient_files"
  FOR EACH ROW EXECUTE FUNCTION "record_hour_counts_change"();

INSERT INTO "record_hour_counts" ("network_id", "table_name", "hour", "count")
  SELECT "network_id", 'offender_files', date_trunc('hour', "created_at"), COUNT(*) FROM "offender_files"
  WHERE "created_at" IS NOT NULL GROUP BY 1, 3;

CREATE TRIGGER "offender_files_hour_count" AFTER INSERT OR DELETE OR UPDATE OF "network_id", "created_at" ON "offender_files"
  FOR EACH ROW EXECUTE FUNCTION "record_hour_counts_change"();
