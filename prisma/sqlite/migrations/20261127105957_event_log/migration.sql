-- The audit log (the contract's "Events: the audit log"; src/events/record.ts writes it).
-- CreateTable
CREATE TABLE "events" (
    "network_id" INTEGER NOT NULL,
    "sequence" INTEGER NOT NULL,
    "type" TEXT NOT NULL,
    "occurred_at" DATETIME NOT NULL,
    "actor_kind" TEXT NOT NULL,
    "actor_key_id" INTEGER,
    "actor_key_name" TEXT,
    "subject_type" TEXT NOT NULL,
    "subject_id" TEXT NOT NULL,
    "data" TEXT NOT NULL,

    PRIMARY KEY ("network_id", "sequence"),
    CONSTRAINT "events_network_id_fkey" FOREIGN KEY ("network_id") REFERENCES "networks" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- AlterTable (hand-written: columns added in place rather than the table rebuilt)
ALTER TABLE "networks" ADD COLUMN "event_sequence" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "networks" ADD COLUMN "event_retention_days" INTEGER NOT NULL DEFAULT 365;

-- CreateIndex
CREATE INDEX "events_network_id_subject_type_subject_id_sequence_idx" ON "events"("network_id", "subject_type", "subject_id", "sequence");

-- CreateIndex
CREATE INDEX "events_network_id_actor_key_id_occurred_at_idx" ON "events"("network_id", "actor_key_id", "occurred_at");

-- CreateIndex
CREATE INDEX "events_network_id_occurred_at_idx" ON "events"("network_id", "occurred_at");


-- Hand-written: the network's last sequence follows its events (src/db/events.ts writes an event
-- under event_sequence + 1 in the change's transaction; SQLite has one writer at a time). Never
-- lowered: removing old events does not free their sequences.
CREATE TRIGGER "events_raise_network_sequence" AFTER INSERT ON "events"
BEGIN
  UPDATE "networks" SET "event_sequence" = NEW."sequence" WHERE "id" = NEW."network_id" AND "event_sequence" < NEW."sequence";
END;
