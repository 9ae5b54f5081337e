// Hours on duty per officer and period (day, ISO week or month of a time zone): the report a
// supervisor reads first. The rules of counting are in ./dutySeconds.ts, the periods in
// ./calendar.ts.
import type { Context } from "../context";
import { keptPerReadPath } from "../db/adapterReads";
import type { ReportEntries, ReportOfficer } from "../db/store";
import type { Officer } from "../generated/prisma/client";
import { checkTimeZone, periodsIn, type Grouping, type Period } from "./calendar";
import { periodBounds, secondsPerPeriod, shiftsOf, shiftSummary } from "./dutySeconds";
import { KeptEntries, windowAround } from "./keptEntries";
import { KeptReports, reportBytes } from "./keptReports";
import { identifierFault } from "./officers";
import { endStaleEntries } from "./staleEntries";
import { Validator } from "./validation";

/** Most officers one report may name. */
export const maxReportIdentifiers = 100;

export interface DutyHoursArgs {
  from: Date;
  /** Default: now. */
  to?: Date | null;
  /** Default: DAY. */
  groupBy?: Grouping | null;
  /** Default: the network's time zone. */
  timeZone?: string | null;
  /** Only these officers (removed ones too), each in the report even without hours; default: every officer with hours. */
  identifiers?: readonly string[] | null;
}

export interface PeriodHours extends Period {
  /** Seconds on duty of all the report's officers in the period. */
  seconds: number;
}

export interface OfficerHours {
  identifier: string;
  name: string;
  removed: boolean;
  /** Seconds on duty per period of the report, in its order. */
  seconds: number[];
  totalSeconds: number;
  /** Stretches on duty in the range (overlapping entries count as one). */
  shifts: number;
  averageShiftSeconds: number;
  longestShiftSeconds: number;
}

export interface DutyHoursReport {
  from: Date;
  to: Date;
  groupBy: Grouping;
  timeZone: string;
  periods: PeriodHours[];
  officers: OfficerHours[];
}

function checkArgs(ctx: Context, args: DutyHoursArgs) {
  const check = new Validator();
  const to = args.to ?? ctx.now();
  const groupBy = args.groupBy ?? "DAY";
  const timeZone = checkTimeZone(check, "timeZone", args.timeZone ?? ctx.network.timeZone);
  const periods = periodsIn(check, args.from, to, groupBy, timeZone);
  const identifiers = [...new Set(args.identifiers ?? [])];
  if (identifiers.length > maxReportIdentifiers) check.fail("identifiers", `The identifiers field must not have more than ${maxReportIdentifiers} items.`);
  else for (const identifier of identifiers) {
    const fault = identifierFault(ctx.network, identifier);
    if (fault) check.fail("identifiers", fault);
  }
  check.throwIfInvalid();
  return { to, groupBy, timeZone, periods, identifiers: args.identifiers ? identifiers : null };
}

/** The report's officers: those named (each of them must exist), else every officer with entries. */
async function officersOf(ctx: Context, identifiers: string[] | null) {
  if (identifiers === null) return null;
  const officers = await ctx.db.officers.byIdentifiers(ctx.network.id, identifiers);
  const unknown = identifiers.filter((identifier) => !officers.some((officer) => officer.identifier === identifier));
  if (unknown.length > 0) {
    const check = new Validator();
    check.fail("identifiers", `The identifiers field names no officer of the network: ${unknown.join(", ")}.`);
    check.throwIfInvalid();
  }
  return officers;
}

/** Reports kept with their network's dutytime_version, per database a process has open. */
const keptReportsOf = keptPerReadPath(() => new KeptReports<DutyHoursReport>());
/** Windows of entries kept with their network's dutytime_version, likewise. */
const keptEntriesOf = keptPerReadPath(() => new KeptEntries());

type CheckedArgs = ReturnType<typeof checkArgs>;

/** Everything a report depends on besides the stored entries and now: requests of one key ask the same report. */
const reportKey = (ctx: Context, from: Date, checked: CheckedArgs, named: Officer[] | null) =>
  [
    ctx.network.id,
    from.getTime(),
    checked.to.getTime(),
    checked.groupBy,
    checked.timeZone,
    ctx.network.autoStopAfterHours,
    named === null ? "all" : named.map((officer) => officer.id).sort((a, b) => a - b).join(","),
  ].join("|");

export async function dutyHours(ctx: Context, args: DutyHoursArgs): Promise<DutyHoursReport> {
  const checked = checkArgs(ctx, args);
  const named = await officersOf(ctx, checked.identifiers);
  await endStaleEntries(ctx);
  // Without `to` the range ends now, a new range each request: never asked again, never kept
  // (its entries may be: ./keptEntries.ts).
  if (!args.to) return (await countedReport(ctx, args.from, checked, named)).report;
  const key = reportKey(ctx, args.from, checked, named);
  const reports = keptReportsOf(ctx.db.read);
  // Asked for the first time: no kept report answers it, and counting it only remembers the key.
  if (!reports.known(key)) {
    const { report, final } = await countedReport(ctx, args.from, checked, named);
    if (final) reports.rememberAsked(key);
    return report;
  }
  // Read before the entries: a report computed after it is at least as new as the version (./keptReports.ts).
  const version = await ctx.db.dutytime.version(ctx.network.id);
  const kept = reports.get(key, version);
  if (kept) return kept;
  const { report, final } = await countedReport(ctx, args.from, checked, named, version);
  if (final) reports.offer(key, version, report, reportBytes(report.periods.length, report.officers.length));
  return report;
}

/**
 * The report counted from the stored entries, and whether it is final: whether it stays the same
 * at every later moment while the network's dutytime_version is unchanged. The entries of the
 * whole range are read, also those after now: an entry written by a process whose clock runs
 * ahead, or started at this very instant, is already in the version and may start after `now`.
 * Counting cuts every entry at now; so the report is final when its range ended before now, or
 * when every entry read has ended by now: no entry is open and none has an instant after the
 * moment it was counted, whichever process wrote it.
 */
async function countedReport(ctx: Context, from: Date, { to, groupBy, timeZone, periods }: CheckedArgs, named: Officer[] | null, version?: string) {
  const now = ctx.now();
  const read = to > from;
  const entries: ReportEntries = read ? await entriesMeeting(ctx, from, to, named, version) : new Map();
  // Entries of a kept window reach beyond the range: more entries can only make this false.
  const final = to <= now || (read && allEndedBy(entries, now.getTime()));

  // The officers named, else every officer of the network: those with no entry in the range are left out below.
  const reported: ReportOfficer[] = named
    ? named.map((officer) => ({ id: officer.id, identifier: officer.identifier, name: officer.name, removed: officer.removedAt !== null }))
    : entries.size > 0
      ? await ctx.db.officers.reportOfficers(ctx.network.id)
      : [];
  const officers: OfficerHours[] = [];
  const bounds = periodBounds(periods);
  for (const officer of reported) {
    const shifts = shiftsOf(entries.get(officer.id) ?? [], from, to, now);
    const summary = shiftSummary(shifts);
    if (summary.totalSeconds === 0 && named === null) continue;
    officers.push({
      identifier: officer.identifier,
      name: officer.name,
      removed: officer.removed,
      seconds: secondsPerPeriod(shifts, bounds),
      ...summary,
    });
  }
  officers.sort((a, b) => b.totalSeconds - a.totalSeconds || a.name.localeCompare(b.name) || a.identifier.localeCompare(b.identifier));
  const report: DutyHoursReport = {
    from,
    to,
    groupBy,
    timeZone,
    periods: periods.map((period, i) => ({ ...period, seconds: officers.reduce((sum, officer) => sum + officer.seconds[i], 0) })),
    officers,
  };
  return { report, final };
}

/**
 * The entries that meet [from, to), and maybe others around them (a kept window's: counting cuts
 * them to the range). The version is read first (./keptEntries.ts), unless the caller read it.
 * A report of every officer reads a window around its range and keeps it; one of named
 * officers is answered from a kept window, else reads theirs only, as their few entries cost
 * less than a window's.
 */
async function entriesMeeting(ctx: Context, from: Date, to: Date, named: Officer[] | null, version?: string): Promise<ReportEntries> {
  const windows = keptEntriesOf(ctx.db.read);
  const networkId = ctx.network.id;
  const readVersion = version ?? (await ctx.db.dutytime.version(networkId));
  const kept = windows.get(networkId, readVersion, from, to);
  if (kept) return kept;
  if (named) return ctx.db.dutytime.entriesMeeting(networkId, from, to, named.map((officer) => officer.id));
  const window = windowAround(from, to);
  const entries = await ctx.db.dutytime.entriesMeeting(networkId, window.from, window.to, null);
  windows.offer(networkId, readVersion, window.from, window.to, entries);
  return entries;
}

/** Whether every entry has ended by this instant (epoch ms; an open entry's end is Infinity). */
function allEndedBy(entries: ReportEntries, instant: number): boolean {
  for (const list of entries.values()) {
    for (let end = 1; end < list.length; end += 2) if (list[end] > instant) return false;
  }
  return true;
}
