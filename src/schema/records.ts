// Mission reports, patient files and offender files: written here, counted by the statistics.
import { builder } from "./builder";
import { createMissionReport, createOffenderFile, createPatientFile } from "../resolvers/records";
import { needs } from "./scopes";

const createdAtDescription = "Omitted: now. null: unknown (records imported from older systems).";

const MissionReportType = builder.prismaObject("MissionReport", {
  fields: (t) => ({
    id: t.exposeInt("id"),
    title: t.exposeString("title", { nullable: true }),
    createdAt: t.expose("createdAt", { type: "DateTime", nullable: true }),
  }),
});

const PatientFileType = builder.prismaObject("PatientFile", {
  fields: (t) => ({
    id: t.exposeInt("id"),
    patientName: t.exposeString("patientName", { nullable: true }),
    createdAt: t.expose("createdAt", { type: "DateTime", nullable: true }),
  }),
});

const OffenderFileType = builder.prismaObject("OffenderFile", {
  fields: (t) => ({
    id: t.exposeInt("id"),
    offenderName: t.exposeString("offenderName", { nullable: true }),
    createdAt: t.expose("createdAt", { type: "DateTime", nullable: true }),
  }),
});

const CreateMissionReportInput = builder.inputType("CreateMissionReportInput", {
  fields: (t) => ({
    title: t.string(),
    createdAt: t.field({ type: "DateTime", description: createdAtDescription }),
  }),
});

const CreatePatientFileInput = builder.inputType("CreatePatientFileInput", {
  fields: (t) => ({
    patientName: t.string(),
    createdAt: t.field({ type: "DateTime", description: createdAtDescription }),
  }),
});

const CreateOffenderFileInput = builder.inputType("CreateOffenderFileInput", {
  fields: (t) => ({
    offenderName: t.string(),
    createdAt: t.field({ type: "DateTime", description: createdAtDescription }),
  }),
});

builder.mutationFields((t) => ({
  createMissionReport: t.field({
    extensions: needs("write"),
    type: MissionReportType,
    args: { input: t.arg({ type: CreateMissionReportInput, required: true }) },
    resolve: (_root, { input }, ctx) => createMissionReport(ctx, input),
  }),
  createPatientFile: t.field({
    extensions: needs("write"),
    type: PatientFileType,
    args: { input: t.arg({ type: CreatePatientFileInput, required: true }) },
    resolve: (_root, { input }, ctx) => createPatientFile(ctx, input),
  }),
  createOffenderFile: t.field({
    extensions: needs("write"),
    type: OffenderFileType,
    args: { input: t.arg({ type: CreateOffenderFileInput, required: true }) },
    resolve: (_root, { input }, ctx) => createOffenderFile(ctx, input),
  }),
}));
