-- Trigram search (pg_trgm) with the network id in the same GIN index (btree_gin).
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE EXTENSION IF NOT EXISTS btree_gin;

-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateTable
CREATE TABLE "networks" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "identifier_type" TEXT NOT NULL,
    "key_grace_seconds" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "networks_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "api_keys" (
    "id" SERIAL NOT NULL,
    "network_id" INTEGER NOT NULL,
    "prefix" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL,
    "expires_at" TIMESTAMP(3),

    CONSTRAINT "api_keys_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "vehicles" (
    "id" SERIAL NOT NULL,
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
    "created_at" TIMESTAMP(3) NOT NULL,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "vehicles_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "officers" (
    "id" SERIAL NOT NULL,
    "network_id" INTEGER NOT NULL,
    "identifier" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "officers_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "dutytime_entries" (
    "id" SERIAL NOT NULL,
    "network_id" INTEGER NOT NULL,
    "officer_id" INTEGER NOT NULL,
    "started_at" TIMESTAMP(3) NOT NULL,
    "ended_at" TIMESTAMP(3),

    CONSTRAINT "dutytime_entries_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "mission_reports" (
    "id" SERIAL NOT NULL,
    "network_id" INTEGER NOT NULL,
    "title" TEXT,
    "created_at" TIMESTAMP(3),

    CONSTRAINT "mission_reports_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "patient_files" (
    "id" SERIAL NOT NULL,
    "network_id" INTEGER NOT NULL,
    "patient_name" TEXT,
    "created_at" TIMESTAMP(3),

    CONSTRAINT "patient_files_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "offender_files" (
    "id" SERIAL NOT NULL,
    "network_id" INTEGER NOT NULL,
    "offender_name" TEXT,
    "created_at" TIMESTAMP(3),

    CONSTRAINT "offender_files_pkey" PRIMARY KEY ("id")
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
CREATE INDEX "vehicles_search_trgm_idx" ON "vehicles" USING GIN ("network_id" int4_ops, "search_text" gin_trgm_ops);

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

-- AddForeignKey
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_network_id_fkey" FOREIGN KEY ("network_id") REFERENCES "networks"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "vehicles" ADD CONSTRAINT "vehicles_network_id_fkey" FOREIGN KEY ("network_id") REFERENCES "networks"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "officers" ADD CONSTRAINT "officers_network_id_fkey" FOREIGN KEY ("network_id") REFERENCES "networks"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "dutytime_entries" ADD CONSTRAINT "dutytime_entries_network_id_fkey" FOREIGN KEY ("network_id") REFERENCES "networks"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "dutytime_entries" ADD CONSTRAINT "dutytime_entries_officer_id_fkey" FOREIGN KEY ("officer_id") REFERENCES "officers"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "mission_reports" ADD CONSTRAINT "mission_reports_network_id_fkey" FOREIGN KEY ("network_id") REFERENCES "networks"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "patient_files" ADD CONSTRAINT "patient_files_network_id_fkey" FOREIGN KEY ("network_id") REFERENCES "networks"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "offender_files" ADD CONSTRAINT "offender_files_network_id_fkey" FOREIGN KEY ("network_id") REFERENCES "networks"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- One open dutytime entry per officer, enforced by the database whatever the concurrency.
CREATE UNIQUE INDEX "dutytime_entries_one_open_per_officer" ON "dutytime_entries"("officer_id") WHERE "ended_at" IS NULL;
