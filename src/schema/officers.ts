// Officers, their duty now and in the past, and supervisors' changes: renames, removals and
// corrections of dutytime entries.
import { builder } from "./builder";
import { pageArgs, pageType } from "./page";
import type { DutytimeEntry, OfficerWithDuty } from "../resolvers/officerDuty";
import { pageComplexity } from "../resolvers/pages";
import { addOfficer, findOfficerOrRemoved, listOfficers, officerWithDuty, removeOfficer, renameOfficer } from "../resolvers/officers";
import { dutySecondsOf, dutytimeOf, durationSecondsOf } from "../resolvers/officerDuty";
import { correctDutytimeEntry } from "../resolvers/dutytimeCorrections";
import { needs } from "./scopes";

export const DutytimeEntryType = builder.objectRef<DutytimeEntry>("DutytimeEntry").implement({
  description: "A stretch on duty of one officer.",
  fields: (t) => ({
    id: t.exposeInt("id"),
    startedAt: t.expose("startedAt", { type: "DateTime" }),
    endedAt: t.expose("endedAt", { type: "DateTime", nullable: true, description: "null while the entry is open." }),
    open: t.boolean({ resolve: (entry) => entry.endedAt === null }),
    durationSeconds: t.int({ description: "Whole seconds; an open entry's up to now.", resolve: (entry, _args, ctx) => durationSecondsOf(entry, ctx.now()) }),
    autoStopped: t.exposeBoolean("autoStopped", { description: "Ended by the network's auto-stop rule (at start + autoStopAfterHours), not by a stop." }),
  }),
});

const DutytimeEntryPageType = pageType<DutytimeEntry>("DutytimeEntryPage", DutytimeEntryType);

// onDuty and currentEntry are exposed: every resolver answering an Officer gives them (OfficerWithDuty).
export const OfficerType = builder.objectRef<OfficerWithDuty>("Officer").implement({
  fields: (t) => ({
    id: t.exposeInt("id"),
    identifier: t.exposeString("identifier", { description: "type:value, the type being the network's connector type." }),
    name: t.exposeString("name"),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    removedAt: t.expose("removedAt", {
      type: "DateTime",
      nullable: true,
      description: "When the officer was removed from the network; null while it belongs to it. A removed officer's dutytime stays in reports.",
    }),
    onDuty: t.exposeBoolean("onDuty"),
    currentEntry: t.expose("currentEntry", { type: DutytimeEntryType, nullable: true, description: "The open entry, if on duty." }),
    dutySeconds: t.int({
      description: "Seconds on duty in [from, to) (to: default now), up to now; overlapping entries count once.",
      // Not in REST's officers (src/rest/sofa.ts): no route gives a range per officer.
      extensions: { restOmitted: true },
      args: { from: t.arg({ type: "DateTime", required: true }), to: t.arg({ type: "DateTime" }) },
      resolve: (officer, { from, to }, ctx) => dutySecondsOf(ctx, officer, from, to),
    }),
    dutytime: t.field({
      type: DutytimeEntryPageType,
      description: "The officer's entries that meet [from, to) (either bound optional), newest first.",
      // REST has its own route for them: GET /officers/{identifier}/dutytime.
      extensions: { restOmitted: true },
      args: { from: t.arg({ type: "DateTime" }), to: t.arg({ type: "DateTime" }), ...pageArgs(t.arg) },
      complexity: pageComplexity,
      resolve: (officer, args, ctx) => dutytimeOf(ctx, officer, args),
    }),
  }),
});

const OfficerPageType = pageType<OfficerWithDuty>("OfficerPage", OfficerType);

const CreateOfficerInput = builder.inputType("CreateOfficerInput", {
  fields: (t) => ({
    identifier: t.string({ required: true, description: "type:value; the type must be the network's connector type." }),
    name: t.string({ required: true }),
  }),
});

const CorrectDutytimeEntryInput = builder.inputType("CorrectDutytimeEntryInput", {
  description: "Only the fields sent change. endedAt null opens the entry again.",
  fields: (t) => ({
    startedAt: t.field({ type: "DateTime" }),
    endedAt: t.field({ type: "DateTime" }),
  }),
});

builder.queryFields((t) => ({
  officers: t.field({
    type: OfficerPageType,
    description: "A page of the network's officers (removed ones not), by name. search: a substring of name or identifier, any case.",
    args: { search: t.arg.string(), onDuty: t.arg.boolean(), ...pageArgs(t.arg) },
    complexity: pageComplexity,
    resolve: (_root, args, ctx) => listOfficers(ctx, args),
  }),
  officer: t.field({
    type: OfficerType,
    description: "One officer of the network, removed ones too (NOT_FOUND otherwise).",
    args: { identifier: t.arg.string({ required: true }) },
    resolve: (_root, { identifier }, ctx) => officerWithDuty(ctx, identifier),
  }),
  officerDutytime: t.field({
    type: DutytimeEntryPageType,
    description: "The officer's entries that meet [from, to) (either bound optional), newest first: officer(identifier) { dutytime } as one field.",
    args: { identifier: t.arg.string({ required: true }), from: t.arg({ type: "DateTime" }), to: t.arg({ type: "DateTime" }), ...pageArgs(t.arg) },
    complexity: pageComplexity,
    resolve: async (_root, { identifier, ...args }, ctx) => dutytimeOf(ctx, await findOfficerOrRemoved(ctx, identifier), args),
  }),
}));

builder.mutationFields((t) => ({
  createOfficer: t.field({
    extensions: needs("write"),
    type: OfficerType,
    description: "Adds an officer to the key's network (CONFLICT if the identifier is taken); a removed officer comes back with its history.",
    args: { input: t.arg({ type: CreateOfficerInput, required: true }) },
    resolve: (_root, { input }, ctx) => addOfficer(ctx, input),
  }),
  renameOfficer: t.field({
    extensions: needs("write"),
    type: OfficerType,
    args: { identifier: t.arg.string({ required: true }), name: t.arg.string({ required: true }) },
    resolve: (_root, { identifier, name }, ctx) => renameOfficer(ctx, identifier, name),
  }),
  removeOfficer: t.field({
    extensions: needs("write"),
    type: OfficerType,
    description: "Removes an officer from the lists and from duty; its dutytime stays in reports. createOfficer brings it back.",
    args: { identifier: t.arg.string({ required: true }) },
    resolve: (_root, { identifier }, ctx) => removeOfficer(ctx, identifier),
  }),
  correctDutytimeEntry: t.field({
    extensions: needs("write"),
    type: DutytimeEntryType,
    description: "Sets an entry's start or end: end after start, neither in the future, no overlap with the officer's other entries.",
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: CorrectDutytimeEntryInput, required: true }) },
    resolve: (_root, { id, input }, ctx) => correctDutytimeEntry(ctx, id, input),
  }),
}));
