-- Officers removed but kept for past reports, the networks' report time zone and auto-stop rule,
-- and entries ended by that rule. Hand-written as ADD COLUMN: Prisma's diff redefines the tables
-- (copy, drop, rename), which would drop their triggers and the partial unique index
-- dutytime_entries_one_open_per_officer, and copy every dutytime entry.
ALTER TABLE "officers" ADD COLUMN "removed_at" DATETIME;
ALTER TABLE "networks" ADD COLUMN "time_zone" TEXT NOT NULL DEFAULT 'UTC';
ALTER TABLE "networks" ADD COLUMN "auto_stop_after_hours" INTEGER;
ALTER TABLE "dutytime_entries" ADD COLUMN "auto_stopped" BOOLEAN NOT NULL DEFAULT false;

-- An officer's dutytime history, newest first.
CREATE INDEX "dutytime_entries_officer_id_started_at_idx" ON "dutytime_entries"("officer_id", "started_at");
