// Query parameters of GET routes as the arguments of their GraphQL operation: each argument is
// read under its snake_case name (per_page, sort_field, on_duty, time_zone) or its GraphQL name
// (perPage), the first one sent winning in that order, and typed as the schema declares it.
// Errors name the snake_case parameter.
import { getNamedType, GraphQLBoolean, isListType, isNonNullType, type GraphQLArgument, type GraphQLInputType } from "graphql";
import { Validator, messages } from "../resolvers/validation";
import { queryToVariable } from "./variables";

const snakeCase = (name: string) => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

/** The REST names of an argument: its snake_case name first, then its GraphQL name where that differs. */
export const parameterNamesOf = (argument: string): string[] => [...new Set([snakeCase(argument), argument])];

/** The REST name a client sees in errors for an argument. */
export const restNameOf = (argument: string) => snakeCase(argument);

const listType = (type: GraphQLInputType) => isListType(isNonNullType(type) ? type.ofType : type);

/** A query value as the argument's type: booleans as true/false/1/0; enum values exactly as the schema spells them. */
function valueOf(check: Validator, name: string, text: string, type: GraphQLInputType): unknown {
  const named = getNamedType(type);
  if (named === GraphQLBoolean) {
    const value = { true: true, "1": true, false: false, "0": false }[text.trim().toLowerCase()];
    if (value === undefined) check.fail(name, messages.boolean(name));
    return value;
  }
  return queryToVariable(check, name, text, type);
}

/**
 * A reader of the arguments `args` of an operation from the query string (the caller leaves out
 * those its path gives), made once per route: each argument's REST names are worked out here, not
 * per request. A list argument is the parameter repeated (`identifiers=a&identifiers=b`, or
 * `identifiers[]=a`). An empty search is no search.
 */
export function queryReader(args: readonly GraphQLArgument[]): (check: Validator, url: URL) => Record<string, unknown> {
  const parameters = args.map((arg) => {
    const names = parameterNamesOf(arg.name);
    return { arg, names, rest: names[0], list: listType(arg.type), required: isNonNullType(arg.type), itemType: getNamedType(arg.type) as GraphQLInputType };
  });
  return (check, url) => {
    const variables: Record<string, unknown> = {};
    for (const { arg, names, rest, list, required, itemType } of parameters) {
      if (list) {
        const values = names.flatMap((name) => [...url.searchParams.getAll(name), ...url.searchParams.getAll(`${name}[]`)]);
        if (values.length > 0) variables[arg.name] = values.map((text) => valueOf(check, rest, text, itemType));
        continue;
      }
      const name = names.find((candidate) => url.searchParams.has(candidate));
      if (!name) {
        if (required) check.fail(rest, messages.required(rest));
        continue;
      }
      const text = url.searchParams.get(name)!;
      if (text === "" && arg.name === "search") continue;
      const value = valueOf(check, rest, text, arg.type);
      if (value !== undefined) variables[arg.name] = value;
    }
    return variables;
  };
}
