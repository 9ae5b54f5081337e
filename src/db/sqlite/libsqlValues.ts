// Values between JavaScript and libsql as @libsql/client 0.8 converts them for a local file with
// its default `intMode: "number"` (its sqlite3.js `valueToSql`, `valueFromSql`), so Prisma's
// libSQL adapter reads from our client (./connectionClient.ts) what it read from @libsql/client.
import type { InValue, Value } from "@libsql/client";

const minSafeInteger = BigInt(Number.MIN_SAFE_INTEGER);
const maxSafeInteger = BigInt(Number.MAX_SAFE_INTEGER);
const minInt64 = -(2n ** 63n);
const maxInt64 = 2n ** 63n - 1n;

/** A parameter as libsql binds it: booleans as 1 and 0, instants as milliseconds, bytes as a Buffer. */
export function valueToSql(value: InValue): unknown {
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new RangeError("Only finite numbers (not Infinity or NaN) can be passed as arguments");
    return value;
  }
  if (typeof value === "bigint") {
    if (value < minInt64 || value > maxInt64) throw new RangeError("bigint is too large to be represented as a 64-bit integer and passed as argument");
    return value;
  }
  if (typeof value === "boolean") return value ? 1 : 0;
  if (value instanceof ArrayBuffer) return Buffer.from(value);
  if (value instanceof Date) return value.valueOf();
  if (value === undefined) throw new TypeError("undefined cannot be passed as argument to the database");
  return value;
}

/**
 * A column's value as read: integers (read as bigint, so none is rounded unseen) as numbers when
 * they are safe, else a RangeError; blobs as an ArrayBuffer of exactly their bytes.
 */
export function valueFromSql(value: unknown): Value {
  if (typeof value === "bigint") {
    if (value < minSafeInteger || value > maxSafeInteger) throw new RangeError("Received integer which cannot be safely represented as a JavaScript number");
    return Number(value);
  }
  if (value instanceof Buffer) return value.buffer.slice(value.byteOffset, value.byteOffset + value.byteLength) as ArrayBuffer;
  return value as Value;
}

/**
 * A `Prisma.sql` value as Prisma's libSQL adapter binds it (its `mapArg` with the default
 * `timestampFormat`): instants as ISO text with "+00:00", flags as 1 and 0. Statements that skip
 * the adapter (the hot reads, ./reads.ts; a group's writes, ./connectionWrites.ts) bind the same,
 * so an instant is stored and compared as the same text whichever way it went.
 */
export function adapterBound(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString().replace("Z", "+00:00");
  if (typeof value === "boolean") return value ? 1 : 0;
  return value;
}
