// A supervisor's correction of a dutytime entry: its start, its end, or both. The entry stays
// one of its officer's entries that never overlap, at most one of them open, none in the future.
import { changeWithEvents, changesBetween } from "../events/record";
import { retryAsRead } from "./asRead";
import type { Context } from "../context";
import type { DutytimeEntry } from "../db/store";
import { notFound } from "../errors";
import { isUniqueViolation } from "../db/databaseErrors";
import { parseStoredId } from "./ids";
import { autoStopLimitMs, endStaleEntries } from "./staleEntries";
import { Validator } from "./validation";

export interface EntryCorrection {
  /** Not sent (undefined): unchanged. */
  startedAt?: Date | null;
  /** Not sent (undefined): unchanged; null: open again. */
  endedAt?: Date | null;
}

const describe = (entry: DutytimeEntry) => `${entry.id} (${entry.startedAt.toISOString()} to ${entry.endedAt?.toISOString() ?? "now, still open"})`;

function checkCorrection(ctx: Context, entry: DutytimeEntry, correction: EntryCorrection) {
  const check = new Validator();
  const now = ctx.now();
  if (correction.startedAt === undefined && correction.endedAt === undefined) check.fail("input", "Send startedAt, endedAt or both.");
  if (correction.startedAt === null) check.fail("startedAt", "The started at field must not be null.");
  const startedAt = correction.startedAt ?? entry.startedAt;
  const endedAt = correction.endedAt === undefined ? entry.endedAt : correction.endedAt;
  if (startedAt.getTime() > now.getTime()) check.fail("startedAt", "The started at field must not be in the future.");
  else if (endedAt !== null && endedAt.getTime() > now.getTime()) check.fail("endedAt", "The ended at field must not be in the future.");
  else if (endedAt !== null && endedAt.getTime() <= startedAt.getTime()) check.fail("endedAt", "The ended at field must be a date after started at.");
  const limitMs = autoStopLimitMs(ctx.network);
  if (endedAt === null && limitMs !== null && now.getTime() - startedAt.getTime() > limitMs) {
    check.fail("endedAt", `An entry open longer than the network's auto-stop limit (${ctx.network.autoStopAfterHours} hours) must have an end.`);
  }
  check.throwIfInvalid();
  return { startedAt, endedAt };
}

export async function correctDutytimeEntry(ctx: Context, id: string | number, correction: EntryCorrection): Promise<DutytimeEntry> {
  const entryId = parseStoredId(id);
  await endStaleEntries(ctx);
  // A compare-and-set on the entry as read: its event's `changes` are what the correction changed.
  for (let attempt = 0; ; attempt++) {
    const entry = entryId === null ? null : await ctx.db.dutytime.byId(ctx.network.id, entryId);
    if (!entry) throw notFound("Dutytime entry");
    const { startedAt, endedAt } = checkCorrection(ctx, entry, correction);
    let corrected: boolean;
    try {
      const changes = changesBetween(entry, { startedAt, endedAt }, ["startedAt", "endedAt"]);
      corrected = await changeWithEvents(ctx, async (tx, record) => {
        if (!(await tx.dutytime.correct(ctx.network.id, entry, startedAt, endedAt))) return false;
        if (Object.keys(changes).length > 0) record("dutytime.corrected", await officerIdentifierOf(ctx, entry), { entryId: entry.id, changes });
        return true;
      });
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      corrected = false;
    }
    if (corrected) return { ...entry, startedAt, endedAt, autoStopped: false };
    // Refused: another entry of the officer is in the way; else the entry changed meanwhile (a
    // stop, another correction) or went: it is read again.
    const other = await ctx.db.dutytime.meeting(ctx.network.id, entry, startedAt, endedAt);
    if (other) {
      const check = new Validator();
      check.fail(correction.endedAt !== undefined ? "endedAt" : "startedAt", `The entry would overlap the officer's entry ${describe(other)}.`);
      check.throwIfInvalid();
    }
    retryAsRead("dutytime correction", attempt);
  }
}

/** The identifier of the entry's officer: the subject of its events. */
async function officerIdentifierOf(ctx: Context, entry: DutytimeEntry): Promise<string> {
  return (await ctx.db.officers.byId(ctx.network.id, entry.officerId))?.identifier ?? String(entry.officerId);
}
