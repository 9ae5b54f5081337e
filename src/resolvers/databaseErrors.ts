// Recognises the database outcomes that are normal results, not failures.
import { Prisma } from "../generated/prisma/client";

const codeOf = (error: unknown) =>
  error instanceof Prisma.PrismaClientKnownRequestError ? error.code : undefined;

/** A unique constraint (or the one-open-dutytime partial index) refused the write. */
export const isUniqueViolation = (error: unknown) => codeOf(error) === "P2002";

/** The row to update or delete is gone. */
export const isRecordNotFound = (error: unknown) => codeOf(error) === "P2025";

const unavailableCodes = new Set(["P1001", "P1002", "P1008", "P1017", "P2024"]);

/** The database cannot be reached or is overloaded: the client should retry (503). */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (error instanceof Prisma.PrismaClientInitializationError) return true;
  if (error instanceof Prisma.PrismaClientRustPanicError) return true;
  const code = codeOf(error);
  if (code && unavailableCodes.has(code)) return true;
  const text = String((error as Error | undefined)?.message ?? "");
  return /ECONNREFUSED|ECONNRESET|ETIMEDOUT|Connection terminated|timeout exceeded when trying to connect|statement timeout|too many clients|the database system is (starting up|shutting down)|database is locked|SQLITE_BUSY/i.test(
    text,
  );
}
