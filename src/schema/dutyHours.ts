// The duty hours report: seconds on duty per officer and per day, ISO week or month of a time zone.
import { builder } from "./builder";
import { reportComplexity } from "../config/limits";
import { groupings } from "../resolvers/calendar";
import { dutyHours, type DutyHoursReport, type OfficerHours, type PeriodHours } from "../resolvers/dutyHours";

const DutyHoursGroupingEnum = builder.enumType("DutyHoursGrouping", {
  description: "Calendar periods of the report's time zone; weeks start on Monday (ISO).",
  values: groupings,
});

const DutyHoursBucketType = builder.objectRef<PeriodHours>("DutyHoursBucket").implement({
  description: "One period of the report, cut to its range, with the seconds on duty of all its officers.",
  fields: (t) => ({
    label: t.exposeString("label", { description: "DAY 2026-03-29, WEEK 2026-W13 (ISO week), MONTH 2026-03." }),
    start: t.expose("start", { type: "DateTime" }),
    end: t.expose("end", { type: "DateTime" }),
    seconds: t.exposeInt("seconds"),
  }),
});

const OfficerDutyHoursType = builder.objectRef<OfficerHours>("OfficerDutyHours").implement({
  fields: (t) => ({
    identifier: t.exposeString("identifier"),
    name: t.exposeString("name"),
    removed: t.exposeBoolean("removed", { description: "The officer was removed from the network; its hours stay." }),
    seconds: t.exposeIntList("seconds", { description: "Seconds on duty per bucket, in the order of the report's buckets." }),
    totalSeconds: t.exposeInt("totalSeconds"),
    shifts: t.exposeInt("shifts", { description: "Stretches on duty in the range; overlapping entries count as one." }),
    averageShiftSeconds: t.exposeInt("averageShiftSeconds"),
    longestShiftSeconds: t.exposeInt("longestShiftSeconds"),
  }),
});

const DutyHoursReportType = builder.objectRef<DutyHoursReport>("DutyHoursReport").implement({
  fields: (t) => ({
    from: t.expose("from", { type: "DateTime" }),
    to: t.expose("to", { type: "DateTime" }),
    groupBy: t.expose("groupBy", { type: DutyHoursGroupingEnum }),
    timeZone: t.exposeString("timeZone"),
    buckets: t.field({ type: [DutyHoursBucketType], resolve: (report) => report.periods }),
    officers: t.field({ type: [OfficerDutyHoursType], resolve: (report) => report.officers }),
  }),
});

builder.queryFields((t) => ({
  dutyHours: t.field({
    type: DutyHoursReportType,
    description:
      "Seconds on duty in [from, to) per officer and period of the time zone (default: the network's). Open entries count up to now; " +
      "overlapping entries of an officer count once. Officers: those named in identifiers (removed ones too), else every officer with hours.",
    args: {
      from: t.arg({ type: "DateTime", required: true }),
      to: t.arg({ type: "DateTime", description: "Default: now." }),
      groupBy: t.arg({ type: DutyHoursGroupingEnum, description: "Default: DAY." }),
      timeZone: t.arg.string({ description: "An IANA time zone, e.g. Europe/Berlin." }),
      identifiers: t.arg.stringList(),
    },
    complexity: reportComplexity,
    resolve: (_root, args, ctx) => dutyHours(ctx, args),
  }),
}));
