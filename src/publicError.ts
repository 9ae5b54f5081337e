// Turns any error into what a client may see: domain errors as they are, an unreachable
// database as UNAVAILABLE, and everything else as an opaque internal error (logged here, with
// its stack, to the service's log: never to the client).
import { GraphQLError } from "graphql";
import { codeOf, unavailable } from "./errors";
import { isDatabaseUnavailable } from "./db/databaseErrors";

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

/** Writes an unexpected error (the original under GraphQL's wrapping) on the server's side only. */
export type InternalErrorLog = (original: unknown) => void;

/** stderr until the service sets its logger (src/main.ts); tests without one see errors there too. */
let internalErrorLog: InternalErrorLog = (original) =>
  console.error("internal error:", original instanceof Error ? original.stack ?? original.message : original);

/** Where unexpected errors of every layer go from now on: the service's logger, with their stack. */
export function logInternalErrorsWith(log: InternalErrorLog): void {
  internalErrorLog = log;
}

export function logInternalError(error: unknown): void {
  internalErrorLog(originalErrorOf(error));
}
