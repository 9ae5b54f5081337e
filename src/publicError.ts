// Turns any error into what a client may see: domain errors as they are, an unreachable
// database as UNAVAILABLE, and everything else as an opaque internal error (logged here).
import { GraphQLError } from "graphql";
import { codeOf, unavailable } from "./errors";
import { isDatabaseUnavailable } from "./resolvers/databaseErrors";

/** The error a resolver failed with, under GraphQL's wrapping. */
export function originalErrorOf(error: unknown): unknown {
  let current = error;
  while (current instanceof GraphQLError && current.originalError && current.originalError !== current) {
    current = current.originalError;
  }
  return current;
}

export function publicError(error: unknown): GraphQLError | null {
  const original = originalErrorOf(error);
  if (codeOf(original)) return original as GraphQLError;
  if (codeOf(error)) return error as GraphQLError;
  if (isDatabaseUnavailable(original)) return unavailable();
  return null;
}

export function logInternalError(error: unknown): void {
  const original = originalErrorOf(error);
  console.error("internal error:", original instanceof Error ? original.stack ?? original.message : original);
}
