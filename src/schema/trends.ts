// Records per day of a time zone, by the rules of SPEC 4.2 (src/resolvers/trends.ts).
import { builder } from "./builder";
import { reportComplexity } from "../config/limits";
import { filesPerDay, missionsPerDay, type DailyCount, type DailyCounts } from "../resolvers/trends";

const DailyCountType = builder.objectRef<DailyCount>("DailyCount").implement({
  fields: (t) => ({
    date: t.exposeString("label", { description: "The local date, e.g. 2026-11-25." }),
    start: t.expose("start", { type: "DateTime", description: "The day's start in the time zone, or the range's start." }),
    end: t.expose("end", { type: "DateTime", description: "The day's end in the time zone, or the range's end." }),
    count: t.exposeInt("count"),
  }),
});

const DailyCountsType = builder.objectRef<DailyCounts>("DailyCounts").implement({
  description: "days and unknown are null (never zeros) when creation times cannot be evaluated; timestampAvailable says so.",
  fields: (t) => ({
    timeZone: t.exposeString("timeZone"),
    timestampAvailable: t.exposeBoolean("timestampAvailable"),
    days: t.field({ type: [DailyCountType], nullable: true, resolve: (counts) => counts.days }),
    unknown: t.exposeInt("unknown", { nullable: true, description: "Records with an unknown creation time: in no day." }),
  }),
});

const trendArgs = (t: Parameters<Parameters<typeof builder.queryFields>[0]>[0]) => ({
  from: t.arg({ type: "DateTime", required: true }),
  to: t.arg({ type: "DateTime", description: "Default: now." }),
  timeZone: t.arg.string({ description: "An IANA time zone, e.g. Europe/Berlin; default: the network's." }),
});

builder.queryFields((t) => ({
  missionsPerDay: t.field({
    type: DailyCountsType,
    description: "Mission reports created per day of the time zone in [from, to).",
    args: trendArgs(t),
    complexity: reportComplexity,
    resolve: (_root, args, ctx) => missionsPerDay(ctx, args),
  }),
  filesPerDay: t.field({
    type: DailyCountsType,
    description: "Patient and offender files created per day of the time zone in [from, to).",
    args: trendArgs(t),
    complexity: reportComplexity,
    resolve: (_root, args, ctx) => filesPerDay(ctx, args),
  }),
}));
