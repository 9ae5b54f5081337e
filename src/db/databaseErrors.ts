// Recognises the database outcomes that are normal results, not failures.
import { Prisma } from "../generated/prisma/client";

const codeOf = (error: unknown) =>
  error instanceof Prisma.PrismaClientKnownRequestError ? error.code : undefined;

/** pg's own failures (hot reads and transactions on PostgreSQL) carry the SQLSTATE as `code`. */
const sqlStateOf = (error: unknown) => {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === "string" ? code : undefined;
};

/**
 * The codes of a refused duplicate: PostgreSQL's SQLSTATE (pg), and libsql's extended result
 * codes, for statements run on the SQLite connection without Prisma's adapter
 * (src/db/sqlite/connectionWrites.ts), which the adapter itself reports as UniqueConstraintViolation.
 */
const uniqueViolationCodes = new Set(["23505", "SQLITE_CONSTRAINT_UNIQUE", "SQLITE_CONSTRAINT_PRIMARYKEY"]);

/**
 * A unique constraint (or the one-open-dutytime partial index) refused the write: through
 * Prisma's client, plain SQL on its adapter (src/db/adapterWrites.ts), or a transaction on
 * PostgreSQL's pool (src/db/postgres/transactions.ts).
 */
export const isUniqueViolation = (error: unknown) =>
  codeOf(error) === "P2002" || adapterCause(error)?.kind === "UniqueConstraintViolation" || uniqueViolationCodes.has(sqlStateOf(error) ?? "");

const unavailableCodes = new Set(["P1001", "P1002", "P1008", "P1017", "P2024"]);

/** Driver adapter failures that mean "the database cannot serve now", not "the query is wrong". */
const unavailableKinds = new Set([
  "DatabaseNotReachable",
  "ConnectionClosed",
  "SocketTimeout",
  "TooManyConnections",
  "DatabaseDoesNotExist",
]);

/** PostgreSQL SQLSTATEs of the same kind: cancelled by statement_timeout, server shutting down. */
const unavailableSqlStates = new Set(["57014", "57P01", "57P02", "57P03", "53300", "08000", "08003", "08006"]);

interface AdapterCause {
  kind?: string;
  code?: string;
}

/** The adapter's description of a failure: on its own error (src/db/adapterReads.ts), or inside Prisma's. */
function adapterCause(error: unknown): AdapterCause | undefined {
  if ((error as Error | undefined)?.name === "DriverAdapterError") return (error as { cause?: AdapterCause }).cause;
  const meta = (error as { meta?: { driverAdapterError?: { cause?: AdapterCause } } })?.meta;
  return meta?.driverAdapterError?.cause;
}

/** The database cannot be reached or is overloaded: the client should retry (503). */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (error instanceof Prisma.PrismaClientInitializationError) return true;
  if (error instanceof Prisma.PrismaClientRustPanicError) return true;
  const code = codeOf(error);
  if (code && unavailableCodes.has(code)) return true;
  const cause = adapterCause(error);
  if (cause?.kind && unavailableKinds.has(cause.kind)) return true;
  if (cause?.code && unavailableSqlStates.has(cause.code)) return true;
  const sqlState = sqlStateOf(error);
  if (sqlState && unavailableSqlStates.has(sqlState)) return true;
  // "is not queryable": pg refusing a read sent to a client whose connection just failed.
  const text = String((error as Error | undefined)?.message ?? "");
  return /Can't reach database server|ECONNREFUSED|ECONNRESET|ETIMEDOUT|Connection terminated|is not queryable|timeout exceeded when trying to connect|statement timeout|too many clients|the database system is (starting up|shutting down)|database is locked|SQLITE_BUSY/i.test(
    text,
  );
}
