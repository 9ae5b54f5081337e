// Duty time state machine of SPEC 3.1. Each step is one SQL statement, and a partial unique
// index allows one open entry per officer, so concurrent calls can never open a second entry.
import type { Context } from "../context";
import type { ActiveOfficer } from "../db/store";
import { findOfficer } from "./officers";
import { isUniqueViolation } from "./databaseErrors";
import { conflict } from "../errors";
import { endStaleEntries } from "./staleEntries";

export interface DutytimeStatus {
  identifier: string;
  onDuty: boolean;
  startedAt: Date | null;
  stoppedEntries: number;
}

export type { ActiveOfficer };

/** Stops open entries; succeeds (changing nothing) when the officer is not on duty. */
export async function stopDutytime(ctx: Context, identifier: string): Promise<DutytimeStatus> {
  const officer = await findOfficer(ctx, identifier);
  await endStaleEntries(ctx);
  const stoppedEntries = await ctx.db.dutytime.stopOpen(ctx.network.id, officer.id, ctx.now());
  return { identifier, onDuty: false, startedAt: null, stoppedEntries };
}

/**
 * Stops open entries if there are any; otherwise starts one. When a concurrent call starts an
 * entry between our stop and our start, this call comes after it and toggles again: the
 * outcome is that of the calls made one after another.
 */
export async function toggleDutytime(ctx: Context, identifier: string): Promise<DutytimeStatus> {
  const officer = await findOfficer(ctx, identifier);
  // An entry past the auto-stop rule is over: the officer is off duty, and this call starts.
  await endStaleEntries(ctx);
  for (let attempt = 0; attempt < maxToggleAttempts; attempt++) {
    const stoppedEntries = await ctx.db.dutytime.stopOpen(ctx.network.id, officer.id, ctx.now());
    if (stoppedEntries > 0) return { identifier, onDuty: false, startedAt: null, stoppedEntries };
    const startedAt = ctx.now();
    try {
      await ctx.db.dutytime.start(ctx.network.id, officer.id, startedAt);
      return { identifier, onDuty: true, startedAt, stoppedEntries: 0 };
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
  }
  throw conflict("The officer's dutytime is changing too fast; please retry.");
}

const maxToggleAttempts = 20;

/** Officers on duty now, earliest start first. */
export async function activeOfficers(ctx: Context): Promise<ActiveOfficer[]> {
  await endStaleEntries(ctx);
  return ctx.db.dutytime.onDuty(ctx.network.id);
}
