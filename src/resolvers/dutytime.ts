// Duty time state machine of SPEC 3.1. Each step is one SQL statement, and a partial unique
// index allows one open entry per officer, so concurrent calls can never open a second entry.
import type { Context } from "../context";
import { Prisma, type Officer } from "../generated/prisma/client";
import { storedInstant } from "../db/storedInstant";
import { findOfficer } from "./officers";
import { isUniqueViolation } from "./databaseErrors";
import { conflict } from "../errors";

export interface DutytimeStatus {
  identifier: string;
  onDuty: boolean;
  startedAt: Date | null;
  stoppedEntries: number;
}

// Both statements are plain SQL on Prisma's adapter (src/db/adapterWrites.ts): a connector
// toggles at every shift change, and Prisma's client would be most of a toggle's CPU.

async function stopOpenEntries(ctx: Context, officer: Officer): Promise<number> {
  return ctx.db.write.execute(Prisma.sql`
    UPDATE dutytime_entries SET ended_at = ${ctx.now()}
    WHERE officer_id = ${officer.id} AND network_id = ${ctx.network.id} AND ended_at IS NULL`);
}

async function startEntry(ctx: Context, officer: Officer, startedAt: Date): Promise<void> {
  await ctx.db.write.execute(Prisma.sql`
    INSERT INTO dutytime_entries (network_id, officer_id, started_at) VALUES (${ctx.network.id}, ${officer.id}, ${startedAt})`);
}

/** Stops open entries; succeeds (changing nothing) when the officer is not on duty. */
export async function stopDutytime(ctx: Context, identifier: string): Promise<DutytimeStatus> {
  const officer = await findOfficer(ctx, identifier);
  const stoppedEntries = await stopOpenEntries(ctx, officer);
  return { identifier, onDuty: false, startedAt: null, stoppedEntries };
}

/**
 * Stops open entries if there are any; otherwise starts one. When a concurrent call starts an
 * entry between our stop and our start, this call comes after it and toggles again: the
 * outcome is that of the calls made one after another.
 */
export async function toggleDutytime(ctx: Context, identifier: string): Promise<DutytimeStatus> {
  const officer = await findOfficer(ctx, identifier);
  for (let attempt = 0; attempt < maxToggleAttempts; attempt++) {
    const stoppedEntries = await stopOpenEntries(ctx, officer);
    if (stoppedEntries > 0) return { identifier, onDuty: false, startedAt: null, stoppedEntries };
    const startedAt = ctx.now();
    try {
      await startEntry(ctx, officer, startedAt);
      return { identifier, onDuty: true, startedAt, stoppedEntries: 0 };
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
  }
  throw conflict("The officer's dutytime is changing too fast; please retry.");
}

const maxToggleAttempts = 20;

export interface ActiveOfficer {
  identifier: string;
  name: string;
  startedAt: Date;
}

/** Officers on duty now, earliest start first (on the read path: a dashboard polls this). */
export async function activeOfficers(ctx: Context): Promise<ActiveOfficer[]> {
  const rows = await ctx.db.read<{ identifier: string; name: string; started_at: Date | string }>(Prisma.sql`
    SELECT o.identifier, o.name, d.started_at
    FROM dutytime_entries d JOIN officers o ON o.id = d.officer_id
    WHERE d.network_id = ${ctx.network.id} AND d.ended_at IS NULL
    ORDER BY d.started_at ASC, d.id ASC`);
  return rows.map((row) => ({ identifier: row.identifier, name: row.name, startedAt: storedInstant(row.started_at) }));
}
