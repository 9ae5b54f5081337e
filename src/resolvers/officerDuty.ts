// An officer's duty as the graph shows it: on duty now, the open entry, seconds on duty in a
// range, and the dutytime history. A page of officers reads each once per page, not once per
// officer: the open entries with the page (withDuty), seconds on duty batched per request
// (DataLoader), one statement for the page.
import DataLoader from "dataloader";
import type { Context } from "../context";
import type { Officer } from "../generated/prisma/client";
import type { DutytimeEntry } from "../db/store";

export type { DutytimeEntry };
import { pageOf, pageWindow, type Page, type PageArgs } from "./pages";
import { shiftsOf, totalSeconds } from "./dutySeconds";
import { endStaleEntries } from "./staleEntries";
import { Validator } from "./validation";

/** Each request's loaders, by what they load (one per range for seconds on duty). */
const loadersOf = new WeakMap<Context, Map<string, DataLoader<number, unknown>>>();

function loader<V>(ctx: Context, key: string, batch: (officerIds: readonly number[]) => Promise<V[]>): DataLoader<number, V> {
  let loaders = loadersOf.get(ctx);
  if (!loaders) loadersOf.set(ctx, (loaders = new Map()));
  let found = loaders.get(key) as DataLoader<number, V> | undefined;
  if (!found) loaders.set(key, (found = new DataLoader<number, V>(batch)) as DataLoader<number, unknown>);
  return found;
}

/**
 * An officer as the graph answers one: with its duty now, read with it. onDuty and currentEntry
 * are the officer's own properties, not resolvers: graphql-jit reads a property where it calls a
 * resolver with its own arguments, path and info for each officer of a page (figures:
 * docs/performance.md, "Officers carry their duty").
 */
export type OfficerWithDuty = Officer & { onDuty: boolean; currentEntry: DutytimeEntry | null };

/** Each officer's open entry (null: none), in one statement; at most one is open per officer. */
async function openEntriesBy(ctx: Context, officerIds: readonly number[]): Promise<Map<number, DutytimeEntry>> {
  const byOfficer = new Map<number, DutytimeEntry>();
  for (const entry of await ctx.db.dutytime.openEntries(ctx.network.id, officerIds)) byOfficer.set(entry.officerId, entry);
  return byOfficer;
}

/** The officers with their duty: their open entries read in one statement, after the network's stale entries are ended. */
export async function withDuty(ctx: Context, officers: readonly Officer[]): Promise<OfficerWithDuty[]> {
  if (officers.length === 0) return [];
  await endStaleEntries(ctx);
  const open = await openEntriesBy(
    ctx,
    officers.map((officer) => officer.id),
  );
  return officers.map((officer) => {
    const entry = open.get(officer.id) ?? null;
    return { ...officer, onDuty: entry !== null, currentEntry: entry };
  });
}

/** One officer with its duty (withDuty). */
export async function oneWithDuty(ctx: Context, officer: Officer): Promise<OfficerWithDuty> {
  const [found] = await withDuty(ctx, [officer]);
  return found;
}

/** Seconds the officer served in [from, to) up to now, by the rules of every report. */
export async function dutySecondsOf(ctx: Context, officer: Officer, from: Date, to: Date | null | undefined): Promise<number> {
  const check = new Validator();
  if ((to ?? ctx.now()).getTime() <= from.getTime()) check.fail("to", "The to field must be a date after from.");
  check.throwIfInvalid();
  await endStaleEntries(ctx);
  // One batch per range: "now" is read once per batch, so officers of a page share it.
  return loader(ctx, `seconds:${from.getTime()}:${to?.getTime() ?? "now"}`, async (officerIds) => {
    const now = ctx.now();
    const until = to ?? now;
    const counted = new Date(Math.min(until.getTime(), now.getTime()));
    const entries = counted > from ? await ctx.db.dutytime.entriesMeeting(ctx.network.id, from, counted, officerIds) : null;
    return officerIds.map((id) => totalSeconds(shiftsOf(entries?.get(id) ?? [], from, until, now)));
  }).load(officer.id);
}

export interface DutytimeHistoryArgs extends PageArgs {
  from?: Date | null;
  to?: Date | null;
}

/** A page of the officer's entries that meet [from, to), newest first. */
export async function dutytimeOf(ctx: Context, officer: Officer, args: DutytimeHistoryArgs): Promise<Page<DutytimeEntry>> {
  const check = new Validator();
  const window = pageWindow(check, args);
  if (args.from && args.to && args.to.getTime() <= args.from.getTime()) check.fail("to", "The to field must be a date after from.");
  check.throwIfInvalid();
  await endStaleEntries(ctx);
  const { data, total } = await ctx.db.dutytime.entriesOf(ctx.network.id, officer.id, { from: args.from ?? null, to: args.to ?? null }, window);
  return pageOf(data, total, window);
}

/** An entry's length in whole seconds; an open one's up to now. */
export const durationSecondsOf = (entry: DutytimeEntry, now: Date) =>
  Math.max(0, Math.floor(((entry.endedAt ?? now).getTime() - entry.startedAt.getTime()) / 1000));
