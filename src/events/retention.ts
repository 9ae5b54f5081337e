// Events older than their network's retention (networks.event_retention_days, default 365;
// `admin network set --event-retention-days N`) are removed in small batches, so that no
// statement holds the writer for long. Sequences are never reused: the network's counter
// (networks.event_sequence) is not touched. Webhook attempts older than 7 days go in the same round.
import { Prisma } from "../generated/prisma/client";
import type { Database } from "../db/client";

/** Events removed per statement. */
export const retentionBatch = 1_000;
/** How often a service process removes what has aged out. */
export const retentionIntervalMs = 10 * 60_000;

const dayMs = 86_400_000;

/** How long webhooks' delivery logs are kept (CONTRACT: at least 7 days). */
export const attemptRetentionDays = 7;

/** Removes every network's events older than its retention; answers how many were removed. */
export async function removeExpiredEvents(db: Database, now: Date): Promise<number> {
  const networks = await db.read<{ id: number | string; event_retention_days: number | string }>(
    Prisma.sql`SELECT id, event_retention_days FROM networks ORDER BY id`,
  );
  let removed = 0;
  for (const network of networks) {
    const before = new Date(now.getTime() - Number(network.event_retention_days) * dayMs);
    for (;;) {
      const batch = await db.events.removeOlderThan(Number(network.id), before, retentionBatch);
      removed += batch;
      if (batch < retentionBatch) break;
    }
  }
  // The webhooks' delivery logs age out in the same round, by the same batches.
  const attemptsBefore = new Date(now.getTime() - attemptRetentionDays * dayMs);
  while ((await db.webhooks.removeAttemptsBefore(attemptsBefore, retentionBatch)) === retentionBatch);
  return removed;
}

/** Removes expired events now and every interval, until stopped; failures wait for the next round. */
export function keepEventRetention(db: Database, now: () => Date, onError: (error: unknown) => void): () => void {
  const round = () => void removeExpiredEvents(db, now()).catch(onError);
  round();
  const timer = setInterval(round, retentionIntervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
