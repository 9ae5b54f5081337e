-- CreateTable
CREATE TABLE "networks" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "name" TEXT NOT NULL,
    "identifier_type" TEXT NOT NULL,
    "key_grace_seconds" INTEGER NOT NULL DEFAULT 0,
    "created_at" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "api_keys" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "network_id" INTEGER NOT NULL,
    "prefix" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "created_at" DATETIME NOT NULL,
    "expires_at" DATETIME,
    CONSTRAINT "api_keys_network_id_fkey" FOREIGN KEY ("network_id") REFERENCES "networks" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "vehicles" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "network_id" INTEGER NOT NULL,
    "plate" TEXT NOT NULL,
    "car_type" TEXT,
    "car" TEXT,
    "owner" TEXT,
    "general_inspection" TEXT,
    "comment" TEXT,
    "color" TEXT,
    "wanted" BOOLEAN NOT NULL DEFAULT false,
    "wanted_reason" TEXT,
    "synced" BOOLEAN NOT NULL DEFAULT false,
    "sync_id" TEXT,
    "search_text" TEXT NOT NULL,
    "created_at" DATETIME NOT NULL,
    "updated_at" DATETIME NOT NULL,
    CONSTRAINT "vehicles_network_id_fkey" FOREIGN KEY ("network_id") REFERENCES "networks" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "officers" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "network_id" INTEGER NOT NULL,
    "identifier" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "created_at" DATETIME NOT NULL,
    CONSTRAINT "officers_network_id_fkey" FOREIGN KEY ("network_id") REFERENCES "networks" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "dutytime_entries" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "network_id" INTEGER NOT NULL,
    "officer_id" INTEGER NOT NULL,
    "started_at" DATETIME NOT NULL,
    "ended_at" DATETIME,
    CONSTRAINT "dutytime_entries_network_id_fkey" FOREIGN KEY ("network_id") REFERENCES "networks" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "dutytime_entries_officer_id_fkey" FOREIGN KEY ("officer_id") REFERENCES "officers" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "mission_reports" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "network_id" INTEGER NOT NULL,
    "title" TEXT,
    "created_at" DATETIME,
    CONSTRAINT "mission_reports_network_id_fkey" FOREIGN KEY ("network_id") REFERENCES "networks" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "patient_files" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "network_id" INTEGER NOT NULL,
    "patient_name" TEXT,
    "created_at" DATETIME,
    CONSTRAINT "patient_files_network_id_fkey" FOREIGN KEY ("network_id") REFERENCES "networks" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "offender_files" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "network_id" INTEGER NOT NULL,
    "offender_name" TEXT,
    "created_at" DATETIME,
    CONSTRAINT "offender_files_network_id_fkey" FOREIGN KEY ("network_id") REFERENCES "networks" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "api_keys_hash_key" ON "api_keys"("hash");

-- CreateIndex
CREATE INDEX "api_keys_network_id_idx" ON "api_keys"("network_id");

-- CreateIndex
CREATE INDEX "vehicles_network_id_id_idx" ON "vehicles"("network_id", "id");

-- CreateIndex
CREATE INDEX "vehicles_network_id_plate_id_idx" ON "vehicles"("network_id", "plate", "id");

-- CreateIndex
CREATE INDEX "vehicles_network_id_car_id_idx" ON "vehicles"("network_id", "car", "id");

-- CreateIndex
CREATE INDEX "vehicles_network_id_owner_id_idx" ON "vehicles"("network_id", "owner", "id");

-- CreateIndex
CREATE INDEX "vehicles_network_id_general_inspection_id_idx" ON "vehicles"("network_id", "general_inspection", "id");

-- CreateIndex
CREATE INDEX "vehicles_network_id_wanted_id_idx" ON "vehicles"("network_id", "wanted", "id");

-- CreateIndex
CREATE UNIQUE INDEX "officers_network_id_identifier_key" ON "officers"("network_id", "identifier");

-- CreateIndex
CREATE INDEX "dutytime_entries_officer_id_ended_at_idx" ON "dutytime_entries"("officer_id", "ended_at");

-- CreateIndex
CREATE INDEX "dutytime_entries_network_id_ended_at_started_at_idx" ON "dutytime_entries"("network_id", "ended_at", "started_at");

-- CreateIndex
CREATE INDEX "mission_reports_network_id_created_at_idx" ON "mission_reports"("network_id", "created_at");

-- CreateIndex
CREATE INDEX "patient_files_network_id_created_at_idx" ON "patient_files"("network_id", "created_at");

-- CreateIndex
CREATE INDEX "offender_files_network_id_created_at_idx" ON "offender_files"("network_id", "created_at");


-- One open dutytime entry per officer, enforced by the database whatever the concurrency.
CREATE UNIQUE INDEX "dutytime_entries_one_open_per_officer" ON "dutytime_entries"("officer_id") WHERE "ended_at" IS NULL;
