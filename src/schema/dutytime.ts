// Duty time of SPEC 3.1: toggles, stops, and who is on duty now.
import { builder } from "./builder";
import { activeOfficers, stopDutytime, toggleDutytime, type ActiveOfficer, type DutytimeStatus } from "../resolvers/dutytime";
import { needs } from "./scopes";

const DutytimeStatusType = builder.objectRef<DutytimeStatus>("DutytimeStatus").implement({
  description: "An officer's duty state after a toggle or stop.",
  fields: (t) => ({
    identifier: t.exposeString("identifier"),
    onDuty: t.exposeBoolean("onDuty"),
    startedAt: t.expose("startedAt", { type: "DateTime", nullable: true, description: "Start of the open entry, if on duty." }),
    stoppedEntries: t.exposeInt("stoppedEntries", { description: "Open entries this call closed." }),
  }),
});

const ActiveUserType = builder.objectRef<ActiveOfficer>("ActiveUser").implement({
  fields: (t) => ({
    identifier: t.exposeString("identifier"),
    name: t.exposeString("name"),
    startedAt: t.expose("startedAt", { type: "DateTime" }),
  }),
});

const ActiveUsersType = builder.objectRef<ActiveOfficer[]>("ActiveUsers").implement({
  fields: (t) => ({
    data: t.field({ type: [ActiveUserType], resolve: (officers) => officers }),
    count: t.int({ resolve: (officers) => officers.length }),
  }),
});

builder.queryFields((t) => ({
  activeUsers: t.field({
    type: ActiveUsersType,
    description: "Officers on duty now and when each one's dutytime started, earliest first.",
    resolve: (_root, _args, ctx) => activeOfficers(ctx),
  }),
}));

builder.mutationFields((t) => ({
  toggleDutytime: t.field({
    extensions: needs("dutytime"),
    type: DutytimeStatusType,
    description: "Starts dutytime if the officer is not on duty; otherwise stops the open entries.",
    args: { identifier: t.arg.string({ required: true }) },
    resolve: (_root, { identifier }, ctx) => toggleDutytime(ctx, identifier),
  }),
  stopDutytime: t.field({
    extensions: needs("dutytime"),
    type: DutytimeStatusType,
    description: "Stops the officer's open entries; succeeds without change when not on duty.",
    args: { identifier: t.arg.string({ required: true }) },
    resolve: (_root, { identifier }, ctx) => stopDutytime(ctx, identifier),
  }),
}));
