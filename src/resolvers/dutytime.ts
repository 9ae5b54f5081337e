// Duty time state machine of SPEC 3.1. Each step is one SQL statement, and a partial unique
// index allows one open entry per officer, so concurrent calls can never open a second entry.
import type { Context } from "../context";
import type { ActiveOfficer } from "../db/store";
import { findOfficer } from "./officers";
import { isUniqueViolation } from "../db/databaseErrors";
import { conflict } from "../errors";
import { endStaleEntries } from "./staleEntries";
import { changeInOneStatement } from "../events/record";
import { dutytimeData } from "../events/data";

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
  const stopped = await changeInOneStatement(ctx, async (tx, record) => {
    const ended = await tx.dutytime.stopOpen(ctx.network.id, officer.id, ctx.now());
    for (const entry of ended) record("dutytime.stopped", officer.identifier, { ...dutytimeData(officer, entry), reason: "stop" });
    return ended;
  });
  return { identifier, onDuty: false, startedAt: null, stoppedEntries: stopped.length };
}

/**
 * Stops open entries if there are any; otherwise starts one, in one transaction with its event.
 * When a concurrent call starts an entry between our stop and our start, our start fails, the
 * transaction rolls back, and this call comes after the other and toggles again: the outcome is
 * that of the calls made one after another.
 */
export async function toggleDutytime(ctx: Context, identifier: string): Promise<DutytimeStatus> {
  const officer = await findOfficer(ctx, identifier);
  // An entry past the auto-stop rule is over: the officer is off duty, and this call starts.
  await endStaleEntries(ctx);
  for (let attempt = 0; attempt < maxToggleAttempts; attempt++) {
    try {
      return await changeInOneStatement(ctx, async (tx, record): Promise<DutytimeStatus> => {
        const { stopped, started } = await tx.dutytime.toggle(ctx.network.id, officer.id, ctx.now());
        for (const entry of stopped) record("dutytime.stopped", officer.identifier, { ...dutytimeData(officer, entry), reason: "toggle" });
        if (started === null) return { identifier, onDuty: false, startedAt: null, stoppedEntries: stopped.length };
        record("dutytime.started", officer.identifier, dutytimeData(officer, started));
        return { identifier, onDuty: true, startedAt: started.startedAt, stoppedEntries: 0 };
      });
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
