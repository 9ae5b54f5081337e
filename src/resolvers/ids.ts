// Ids of stored rows (vehicles, dutytime entries) as clients send them, in a path or as GraphQL ID.

/** A positive integer id, or null: any other text names no row (and answers NOT_FOUND). */
export function parseStoredId(id: string | number): number | null {
  const text = String(id);
  if (!/^[1-9]\d{0,15}$/.test(text)) return null;
  const value = Number(text);
  return Number.isSafeInteger(value) ? value : null;
}
