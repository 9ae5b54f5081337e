// Officers of a network, addressed by their connector identifier "<type>:<value>".
import type { Context, NetworkScope } from "../context";
import type { Officer } from "../generated/prisma/client";
import { conflict, notFound } from "../errors";
import { Validator, messages, textFault } from "./validation";
import { pageOf, pageWindow, type Page, type PageArgs } from "./pages";
import { endStaleEntries } from "./staleEntries";
import { oneWithDuty, withDuty, type OfficerWithDuty } from "./officerDuty";
import { isUniqueViolation } from "../db/databaseErrors";
import { changeWithEvents } from "../events/record";
import { retryAsRead } from "./asRead";

/** Most characters of an officer's identifier, `type:value` included. */
export const identifierMaxLength = 255;

/**
 * Checks an identifier against the network's connector type; returns it unchanged when valid.
 * Throws a 422-style error on `identifier` otherwise.
 */
export function checkIdentifier(network: NetworkScope, identifier: string): string {
  const check = new Validator();
  const fault = identifierFault(network, identifier);
  if (fault) check.fail("identifier", fault);
  check.throwIfInvalid();
  return identifier;
}

/** What is wrong with an identifier for the network, or null. */
export function identifierFault(network: NetworkScope, identifier: string): string | null {
  const colon = identifier.indexOf(":");
  const type = colon < 0 ? "" : identifier.slice(0, colon);
  const value = colon < 0 ? "" : identifier.slice(colon + 1);
  if (colon < 0 || type === "" || value.trim() === "") return `The identifier must have the form type:value, e.g. ${network.identifierType}:12345.`;
  if (type !== network.identifierType) return `The identifier type must be ${network.identifierType}.`;
  return textFault("identifier", identifier, identifierMaxLength);
}

/** The network's officer of this identifier, removed ones too (their history stays readable); NOT_FOUND otherwise. */
export async function findOfficerOrRemoved(ctx: Context, identifier: string): Promise<Officer> {
  checkIdentifier(ctx.network, identifier);
  const officer = await ctx.db.officers.byIdentifier(ctx.network.id, identifier);
  if (!officer) throw notFound("Officer");
  return officer;
}

/** findOfficerOrRemoved's officer with its duty, as the graph answers it. */
export async function officerWithDuty(ctx: Context, identifier: string): Promise<OfficerWithDuty> {
  return oneWithDuty(ctx, await findOfficerOrRemoved(ctx, identifier));
}

/** The network's officer (not removed) of this identifier; NOT_FOUND otherwise. */
export async function findOfficer(ctx: Context, identifier: string): Promise<Officer> {
  checkIdentifier(ctx.network, identifier);
  const officer = await ctx.db.officers.byIdentifier(ctx.network.id, identifier);
  if (!officer || officer.removedAt !== null) throw notFound("Officer");
  return officer;
}

/** Most characters of an officer's name. */
export const nameMaxLength = 255;

/** The name trimmed, checked into `check`. */
function checkName(check: Validator, name: string): string {
  const trimmed = name.trim();
  const fault = trimmed === "" ? messages.required("name") : textFault("name", trimmed, nameMaxLength);
  if (fault) check.fail("name", fault);
  return trimmed;
}

export interface OfficerInput {
  identifier: string;
  name: string;
}

/**
 * Adds an officer to the network. An officer removed before comes back under the new name with
 * the dutytime it served: an identifier is one person of the game server, whose hours a
 * supervisor expects in one line.
 */
export async function addOfficer(ctx: Context, input: OfficerInput): Promise<OfficerWithDuty> {
  checkIdentifier(ctx.network, input.identifier);
  const check = new Validator();
  const name = checkName(check, input.name);
  check.throwIfInvalid();
  const { officers } = ctx.db;
  const taken = conflict("An officer with this identifier already exists in the network.");
  const existing = await officers.byIdentifier(ctx.network.id, input.identifier);
  if (existing && !existing.removedAt) throw taken;
  try {
    const added = await changeWithEvents(ctx, async (tx, record): Promise<Officer> => {
      if (existing) {
        if (!(await tx.officers.update(ctx.network.id, existing.id, { name, removedAt: null }))) throw notFound("Officer");
        record("officer.added", existing.identifier, { identifier: existing.identifier, name, returned: true });
        return { ...existing, name, removedAt: null };
      }
      const created = await tx.officers.add({ networkId: ctx.network.id, identifier: input.identifier, name, createdAt: ctx.now(), removedAt: null });
      record("officer.added", created.identifier, { identifier: created.identifier, name, returned: false });
      return created;
    });
    return await oneWithDuty(ctx, added);
  } catch (error) {
    if (isUniqueViolation(error)) throw taken;
    throw error;
  }
}

export async function renameOfficer(ctx: Context, identifier: string, name: string): Promise<OfficerWithDuty> {
  let officer = await findOfficer(ctx, identifier);
  const check = new Validator();
  const trimmed = checkName(check, name);
  check.throwIfInvalid();
  // A compare-and-set on the name: the event's `from` is the name the rename replaced.
  for (let attempt = 0; ; attempt++) {
    if (attempt > 0) officer = await findOfficer(ctx, identifier);
    if (officer.name === trimmed) return oneWithDuty(ctx, officer);
    const renamed = await changeWithEvents(ctx, async (tx, record) => {
      const { id, name: from } = officer;
      if (!(await tx.officers.rename(ctx.network.id, id, from, trimmed))) return false;
      record("officer.renamed", identifier, { changes: { name: { from, to: trimmed } } });
      return true;
    });
    if (renamed) return oneWithDuty(ctx, { ...officer, name: trimmed });
    retryAsRead("officer rename", attempt);
  }
}

/**
 * Removes an officer from the network's lists and from duty (its open entry ends now). Its row
 * and dutytime stay: reports of the past still show the hours it served, marked removed, and
 * adding the identifier again brings it back (addOfficer).
 */
export async function removeOfficer(ctx: Context, identifier: string): Promise<OfficerWithDuty> {
  const officer = await findOfficer(ctx, identifier);
  // An entry past the auto-stop rule ends at its limit, not at the removal.
  await endStaleEntries(ctx);
  const removedAt = ctx.now();
  // One transaction: a removed officer is never left on duty.
  const removed = await changeWithEvents(ctx, async (tx, record) => {
    if (!(await tx.officers.remove(ctx.network.id, officer.id, removedAt))) return false;
    const [ended] = await tx.dutytime.stopOpen(ctx.network.id, officer.id, removedAt);
    record("officer.removed", officer.identifier, { identifier: officer.identifier, name: officer.name, removedAt, endedEntryId: ended?.id ?? null });
    return true;
  });
  if (!removed) throw notFound("Officer");
  return oneWithDuty(ctx, { ...officer, removedAt });
}

export interface OfficerListArgs extends PageArgs {
  search?: string | null;
  onDuty?: boolean | null;
}

/** Most characters of an officer search. */
export const officerSearchMaxLength = 255;

/** A page of the network's officers (not removed) by name; search: a substring of name or identifier, any case. */
export async function listOfficers(ctx: Context, args: OfficerListArgs): Promise<Page<OfficerWithDuty>> {
  const check = new Validator();
  const window = pageWindow(check, args);
  const fault = args.search == null ? null : textFault("search", args.search, officerSearchMaxLength);
  if (fault) check.fail("search", fault);
  check.throwIfInvalid();
  const needle = args.search?.toLowerCase() ?? "";
  const matches = needle === "" ? null : (officer: Officer) => officer.name.toLowerCase().includes(needle) || officer.identifier.toLowerCase().includes(needle);
  // Who is on duty is read after stale entries are ended.
  if (args.onDuty != null) await endStaleEntries(ctx);
  const { data, total } = await ctx.db.officers.page(ctx.network.id, { onDuty: args.onDuty ?? null, matches, limit: window.limit, offset: window.offset });
  // A page shows who is on duty: read once for the page, not per officer.
  return pageOf(await withDuty(ctx, data), total, window);
}
