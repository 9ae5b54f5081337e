-- The duty hours report (src/db/dutytime.ts entriesMeeting) reads the network's entries ended after
-- its start and the open ones from this index alone: every column it selects is in it (id too;
-- on SQLite the rowid), so a year's ~30,000 entries are not ~30,000 scattered row reads.

-- DropIndex
DROP INDEX "dutytime_entries_network_id_ended_at_started_at_idx";

-- CreateIndex
CREATE INDEX "dutytime_entries_network_id_ended_at_started_at_officer_id_auto_stopped_id_idx" ON "dutytime_entries"("network_id", "ended_at", "started_at", "officer_id", "auto_stopped", "id");

