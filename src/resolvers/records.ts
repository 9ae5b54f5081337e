// Mission reports, patient files and offender files: only what the statistics need.
import type { Context } from "../context";
import { Validator, textFault } from "./validation";
import { changeWithEvents } from "../events/record";
import { recordData } from "../events/data";

export interface RecordInput {
  /** Omitted: now. Explicit null: the creation time is unknown (imported records). */
  createdAt?: Date | null;
}

function creationTime(ctx: Context, input: RecordInput): Date | null {
  return input.createdAt === undefined ? ctx.now() : input.createdAt;
}

function optionalText(check: Validator, field: string, value: string | null | undefined): string | null {
  if (value == null) return null;
  const fault = textFault(field, value, 255);
  if (fault) check.fail(field, fault);
  return value;
}

export async function createMissionReport(ctx: Context, input: RecordInput & { title?: string | null }) {
  const check = new Validator();
  const title = optionalText(check, "title", input.title);
  check.throwIfInvalid();
  return changeWithEvents(ctx, async (tx, record) => {
    const created = await tx.records.addMissionReport({ networkId: ctx.network.id, title, createdAt: creationTime(ctx, input) });
    record("missionReport.created", created.id, recordData(created));
    return created;
  });
}

export async function createPatientFile(ctx: Context, input: RecordInput & { patientName?: string | null }) {
  const check = new Validator();
  const patientName = optionalText(check, "patientName", input.patientName);
  check.throwIfInvalid();
  return changeWithEvents(ctx, async (tx, record) => {
    const created = await tx.records.addPatientFile({ networkId: ctx.network.id, patientName, createdAt: creationTime(ctx, input) });
    record("patientFile.created", created.id, recordData(created));
    return created;
  });
}

export async function createOffenderFile(ctx: Context, input: RecordInput & { offenderName?: string | null }) {
  const check = new Validator();
  const offenderName = optionalText(check, "offenderName", input.offenderName);
  check.throwIfInvalid();
  return changeWithEvents(ctx, async (tx, record) => {
    const created = await tx.records.addOffenderFile({ networkId: ctx.network.id, offenderName, createdAt: creationTime(ctx, input) });
    record("offenderFile.created", created.id, recordData(created));
    return created;
  });
}
