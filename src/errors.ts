// The one error vocabulary of the service. Resolvers throw these; GraphQL reports the code in
// `extensions.code`, and the REST layer maps the same code to the contract's status and body.
import { GraphQLError } from "graphql";

export const ErrorCode = {
  UNAUTHENTICATED: "UNAUTHENTICATED",
  FORBIDDEN: "FORBIDDEN",
  NOT_FOUND: "NOT_FOUND",
  BAD_USER_INPUT: "BAD_USER_INPUT",
  CONFLICT: "CONFLICT",
  RATE_LIMITED: "RATE_LIMITED",
  UNAVAILABLE: "UNAVAILABLE",
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/** HTTP status of each code, for GraphQL-over-HTTP and for REST alike. */
export const statusOfCode: Record<ErrorCode, number> = {
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  BAD_USER_INPUT: 422,
  CONFLICT: 409,
  RATE_LIMITED: 429,
  UNAVAILABLE: 503,
};

/** Per-field messages, keyed by the input field name as the client sent it. */
export type FieldErrors = Record<string, string[]>;

/**
 * No `extensions.http` here: a GraphQL response that carries data stays 200 (clients such as
 * Apollo treat any other status as a network failure); REST maps the code to its status.
 */
function domainError(code: ErrorCode, message: string, extensions: Record<string, unknown> = {}) {
  return new GraphQLError(message, { extensions: { code, ...extensions } });
}

export const unauthenticated = () => domainError(ErrorCode.UNAUTHENTICATED, "Unauthenticated.");

/**
 * The key lacks a scope the operation needs: refused before anything runs (src/server/guardedExecute.ts),
 * so the answer's status is 403 over GraphQL too.
 */
export const forbidden = () =>
  new GraphQLError("This action is unauthorized.", { extensions: { code: ErrorCode.FORBIDDEN, http: { status: 403 } } });

export const notFound = (what: string) => domainError(ErrorCode.NOT_FOUND, `${what} not found.`);

export const conflict = (message: string) => domainError(ErrorCode.CONFLICT, message);

export const unavailable = () =>
  domainError(ErrorCode.UNAVAILABLE, "The service is temporarily unavailable. Please retry.");

export const rateLimited = (retryAfterSeconds: number) =>
  domainError(ErrorCode.RATE_LIMITED, "Too Many Attempts.", { retryAfter: retryAfterSeconds });

/** Laravel's summary of a validation failure: the first message, plus how many more follow. */
export function validationSummary(errors: FieldErrors): string {
  const messages = Object.values(errors).flat();
  const more = messages.length - 1;
  return more > 0 ? `${messages[0]} (and ${more} more error${more === 1 ? "" : "s"})` : messages[0];
}

export const invalidInput = (errors: FieldErrors) =>
  domainError(ErrorCode.BAD_USER_INPUT, validationSummary(errors), { errors });

export function codeOf(error: unknown): ErrorCode | undefined {
  const code = (error as GraphQLError | undefined)?.extensions?.code;
  return typeof code === "string" && code in statusOfCode ? (code as ErrorCode) : undefined;
}
