// Turns REST values (a flat JSON body, query-string text) into GraphQL variables of the types
// the schema declares, with one Laravel-style message per field the types reject.
import {
  coerceInputValue,
  getNamedType,
  GraphQLBoolean,
  GraphQLEnumType,
  GraphQLInt,
  isNonNullType,
  type GraphQLInputObjectType,
  type GraphQLInputType,
} from "graphql";
import { Validator, messages } from "../resolvers/validation";

/** Keys that name a network: the network comes from the API key alone. */
const networkKeys = new Set(["network", "network_id", "networkId"]);

function typeMessage(field: string, type: GraphQLInputType): string {
  const named = getNamedType(type);
  if (named === GraphQLBoolean) return messages.boolean(field);
  if (named === GraphQLInt) return messages.integer(field);
  if (named instanceof GraphQLEnumType) return messages.oneOf(field, named.getValues().map((value) => value.name));
  if (named.name === "DateTime") return messages.dateTime(field);
  return messages.string(field);
}

function coerce(check: Validator, field: string, value: unknown, type: GraphQLInputType): unknown {
  let failed = false;
  const coerced = coerceInputValue(value, type, () => {
    failed = true;
  });
  if (failed) check.fail(field, value === null && isNonNullType(type) ? messages.required(field) : typeMessage(field, type));
  return coerced;
}

/** Laravel clients send booleans as 0 and 1 too. */
const asBoolean = (value: unknown) => (value === 0 || value === 1 ? value === 1 : value);

/**
 * Maps a flat JSON body onto a GraphQL input object: known fields are type-checked, network
 * fields refused, other unknown fields ignored. The validator collects the messages.
 */
export function bodyToInput(check: Validator, body: Record<string, unknown>, type: GraphQLInputObjectType) {
  const input: Record<string, unknown> = {};
  for (const key of Object.keys(body)) {
    if (networkKeys.has(key)) check.fail(key, messages.prohibited(key));
  }
  for (const [name, field] of Object.entries(type.getFields())) {
    if (!Object.prototype.hasOwnProperty.call(body, name)) {
      if (isNonNullType(field.type)) check.fail(name, messages.required(name));
      continue;
    }
    const raw = getNamedType(field.type) === GraphQLBoolean ? asBoolean(body[name]) : body[name];
    input[name] = coerce(check, name, raw, field.type);
  }
  return input;
}

/** Converts query-string text to a variable of an argument's type (Int, enum, String). */
export function queryToVariable(check: Validator, field: string, text: string, type: GraphQLInputType): unknown {
  if (getNamedType(type) === GraphQLInt) {
    if (!/^[+-]?\d{1,15}$/.test(text.trim())) {
      check.fail(field, messages.integer(field));
      return undefined;
    }
    return coerce(check, field, Number(text), type);
  }
  return coerce(check, field, text, type);
}
