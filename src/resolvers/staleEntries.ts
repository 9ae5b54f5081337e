// The network's auto-stop rule (its setting autoStopAfterHours): an entry left open longer than
// that, because a game server crashed before its connector sent the stop, ends at its start plus
// that many hours. Whichever request of the network notices it first stores that end, so every
// process and report agrees, and `activeUsers` and `onDuty` never show the entry as open.
import type { Context } from "../context";
import { changeWithEvents, systemActor } from "../events/record";
import { dutytimeData } from "../events/data";

const hourMs = 3_600_000;

/** How long an entry of the network may stay open, in ms; null: for ever (no rule). */
export const autoStopLimitMs = (network: Context["network"]): number | null =>
  network.autoStopAfterHours === null ? null : network.autoStopAfterHours * hourMs;

/**
 * Each request's check, once per request (its resolvers run side by side, and each waits for
 * the same check before it reads who is on duty).
 */
const checks = new WeakMap<Context, Promise<void>>();

/** Ends the network's stale entries: a statement per request while the rule is set, one more per stale entry. */
export function endStaleEntries(ctx: Context): Promise<void> {
  const limitMs = autoStopLimitMs(ctx.network);
  if (limitMs === null) return Promise.resolve();
  let check = checks.get(ctx);
  if (!check) checks.set(ctx, (check = endEntriesOlderThan(ctx, limitMs)));
  return check;
}

async function endEntriesOlderThan(ctx: Context, limitMs: number): Promise<void> {
  const stale = await ctx.db.dutytime.openSince(ctx.network.id, new Date(ctx.now().getTime() - limitMs));
  for (const entry of stale) {
    const endedAt = new Date(entry.startedAt.getTime() + limitMs);
    // Removed with foreign keys off (plain SQL): the entry still ends, and its event says whose it was by id.
    const officer = (await ctx.db.officers.byId(ctx.network.id, entry.officerId)) ?? { identifier: String(entry.officerId), name: "" };
    // The rule ends it, not the key whose request noticed it.
    await changeWithEvents(
      ctx,
      async (tx, record) => {
        if (!(await tx.dutytime.autoStop(ctx.network.id, entry.id, endedAt))) return;
        record("dutytime.stopped", officer.identifier, { ...dutytimeData(officer, { ...entry, endedAt }), reason: "auto-stop" });
      },
      systemActor,
    );
  }
}
