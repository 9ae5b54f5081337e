-- Webhooks and their delivery log (the contract's "Webhooks"; src/db/webhooks.ts, src/webhooks/).
-- CreateTable
CREATE TABLE "webhooks" (
    "id" SERIAL NOT NULL,
    "network_id" INTEGER NOT NULL,
    "url" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "types" TEXT NOT NULL DEFAULT '',
    "format" TEXT NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "disabled_reason" TEXT,
    "secret" TEXT NOT NULL DEFAULT '',
    "previous_secret" TEXT,
    "previous_secret_until_ms" BIGINT,
    "created_at" TIMESTAMP(3) NOT NULL,
    "delivered_through" INTEGER NOT NULL,
    "failed_attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_ms" BIGINT NOT NULL DEFAULT 0,
    "failing_since_ms" BIGINT,
    "lease_owner" TEXT,
    "lease_until_ms" BIGINT NOT NULL DEFAULT 0,
    "send_window" TEXT NOT NULL DEFAULT '[]',

    CONSTRAINT "webhooks_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_attempts" (
    "id" SERIAL NOT NULL,
    "webhook_id" INTEGER NOT NULL,
    "event_id" TEXT NOT NULL,
    "first_sequence" INTEGER,
    "last_sequence" INTEGER,
    "attempt" INTEGER NOT NULL,
    "attempted_at" TIMESTAMP(3) NOT NULL,
    "status" INTEGER,
    "duration_ms" INTEGER NOT NULL,
    "error" TEXT,
    "kind" TEXT NOT NULL,
    "outcome" TEXT NOT NULL,

    CONSTRAINT "webhook_attempts_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "webhooks_network_id_idx" ON "webhooks"("network_id");

-- CreateIndex
CREATE INDEX "webhook_attempts_webhook_id_id_idx" ON "webhook_attempts"("webhook_id", "id");

-- CreateIndex
CREATE INDEX "webhook_attempts_attempted_at_idx" ON "webhook_attempts"("attempted_at");

-- AddForeignKey
ALTER TABLE "webhooks" ADD CONSTRAINT "webhooks_network_id_fkey" FOREIGN KEY ("network_id") REFERENCES "networks"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_attempts" ADD CONSTRAINT "webhook_attempts_webhook_id_fkey" FOREIGN KEY ("webhook_id") REFERENCES "webhooks"("id") ON DELETE CASCADE ON UPDATE CASCADE;

