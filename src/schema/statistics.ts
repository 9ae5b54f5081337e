// Dashboard counts of SPEC 4.2: mission reports, and patient plus offender files.
import { builder } from "./builder";
import {
  filesLastSevenDays,
  filesTotal,
  missionsLastSevenDays,
  missionsTotal,
  type RecordCount,
} from "../resolvers/statistics";

const RecordCountType = builder.objectRef<RecordCount>("RecordCount").implement({
  description: "count is null (never 0) when creation times cannot be evaluated; timestampAvailable says so.",
  fields: (t) => ({
    count: t.exposeInt("count", { nullable: true }),
    timestampAvailable: t.exposeBoolean("timestampAvailable"),
  }),
});

builder.queryFields((t) => ({
  missionsLastSevenDays: t.field({
    type: RecordCountType,
    description: "Mission reports created at or after the instant seven days ago (unknown creation times excluded).",
    resolve: (_root, _args, ctx) => missionsLastSevenDays(ctx),
  }),
  missionsTotal: t.field({
    type: RecordCountType,
    description: "All mission reports, including those with an unknown creation time.",
    resolve: (_root, _args, ctx) => missionsTotal(ctx),
  }),
  filesLastSevenDays: t.field({
    type: RecordCountType,
    description: "Patient and offender files created at or after the instant seven days ago.",
    resolve: (_root, _args, ctx) => filesLastSevenDays(ctx),
  }),
  filesTotal: t.field({
    type: RecordCountType,
    description: "All patient and offender files, including those with an unknown creation time.",
    resolve: (_root, _args, ctx) => filesTotal(ctx),
  }),
}));
