// Officers of a network, addressed by their connector identifier "<type>:<value>".
import type { Context, NetworkScope } from "../context";
import type { Prisma as PrismaClient } from "../db/client";
import { Prisma, type Officer } from "../generated/prisma/client";
import { storedInstant } from "../db/storedInstant";
import { conflict, notFound } from "../errors";
import { Validator, messages, textFault } from "./validation";
import { isUniqueViolation } from "./databaseErrors";

/**
 * Checks an identifier against the network's connector type; returns it unchanged when valid.
 * Throws a 422-style error on `identifier` otherwise.
 */
export function checkIdentifier(network: NetworkScope, identifier: string): string {
  const check = new Validator();
  const colon = identifier.indexOf(":");
  const type = colon < 0 ? "" : identifier.slice(0, colon);
  const value = colon < 0 ? "" : identifier.slice(colon + 1);
  if (colon < 0 || type === "" || value.trim() === "") {
    check.fail("identifier", `The identifier must have the form type:value, e.g. ${network.identifierType}:12345.`);
  } else if (type !== network.identifierType) {
    check.fail("identifier", `The identifier type must be ${network.identifierType}.`);
  } else {
    const fault = textFault("identifier", identifier, 255);
    if (fault) check.fail("identifier", fault);
  }
  check.throwIfInvalid();
  return identifier;
}

export async function findOfficer(ctx: Context, identifier: string): Promise<Officer> {
  checkIdentifier(ctx.network, identifier);
  // On the read path (src/db/adapterReads.ts): every dutytime call starts here.
  const row = await ctx.db.read.byKey<{ id: number; network_id: number; identifier: string; name: string; created_at: Date | string }>(Prisma.sql`
    SELECT id, network_id, identifier, name, created_at FROM officers
    WHERE network_id = ${ctx.network.id} AND identifier = ${identifier}`);
  if (!row) throw notFound("Officer");
  return { id: Number(row.id), networkId: Number(row.network_id), identifier: row.identifier, name: row.name, createdAt: storedInstant(row.created_at) };
}

export interface OfficerInput {
  identifier: string;
  name: string;
}

export async function addOfficer(
  prisma: PrismaClient,
  network: NetworkScope,
  input: OfficerInput,
  now: Date,
): Promise<Officer> {
  checkIdentifier(network, input.identifier);
  const check = new Validator();
  const name = input.name.trim();
  const fault = name === "" ? messages.required("name") : textFault("name", name, 255);
  if (fault) check.fail("name", fault);
  check.throwIfInvalid();
  try {
    return await prisma.officer.create({
      data: { networkId: network.id, identifier: input.identifier, name, createdAt: now },
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict("An officer with this identifier already exists in the network.");
    throw error;
  }
}
