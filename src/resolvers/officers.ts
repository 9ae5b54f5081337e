// Officers of a network, addressed by their connector identifier "<type>:<value>".
import type { Context, NetworkScope } from "../context";
import type { Officer } from "../generated/prisma/client";
import type { OfficerStore } from "../db/store";
import { conflict, notFound } from "../errors";
import { Validator, messages, textFault } from "./validation";
import { isUniqueViolation } from "./databaseErrors";

/** Most characters of an officer's identifier, `type:value` included. */
export const identifierMaxLength = 255;

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
    const fault = textFault("identifier", identifier, identifierMaxLength);
    if (fault) check.fail("identifier", fault);
  }
  check.throwIfInvalid();
  return identifier;
}

export async function findOfficer(ctx: Context, identifier: string): Promise<Officer> {
  checkIdentifier(ctx.network, identifier);
  const officer = await ctx.db.officers.byIdentifier(ctx.network.id, identifier);
  if (!officer) throw notFound("Officer");
  return officer;
}

export interface OfficerInput {
  identifier: string;
  name: string;
}

export async function addOfficer(
  officers: OfficerStore,
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
    return await officers.add({ networkId: network.id, identifier: input.identifier, name, createdAt: now });
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict("An officer with this identifier already exists in the network.");
    throw error;
  }
}
