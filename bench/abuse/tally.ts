// Counts of outcomes by name ("200", "401", "ECONNRESET", "open at end"), for the attacker's
// and the victim's answers. One small type so every attack reports its outcomes the same way.

export type TallyRecord = Record<string, number>;

export class Tally {
  readonly counts = new Map<string, number>();

  add(outcome: string | number, n = 1): void {
    const key = String(outcome);
    this.counts.set(key, (this.counts.get(key) ?? 0) + n);
  }

  get(outcome: string | number): number {
    return this.counts.get(String(outcome)) ?? 0;
  }

  total(): number {
    let sum = 0;
    for (const n of this.counts.values()) sum += n;
    return sum;
  }

  /** Everything but the outcome named (e.g. the victim's answers other than 200). */
  totalExcept(outcome: string | number): number {
    return this.total() - this.get(outcome);
  }

  toRecord(): TallyRecord {
    return Object.fromEntries(this.counts);
  }

  static from(record: TallyRecord): Tally {
    const tally = new Tally();
    for (const [key, n] of Object.entries(record)) tally.add(key, n);
    return tally;
  }

  /** "200×1,234, 401×5": HTTP statuses first (in order), then client-side outcomes. */
  toString(): string {
    if (this.counts.size === 0) return "none";
    const entries = [...this.counts].sort(([a], [b]) => {
      const [na, nb] = [Number(a), Number(b)];
      if (Number.isInteger(na) && Number.isInteger(nb)) return na - nb;
      if (Number.isInteger(na)) return -1;
      if (Number.isInteger(nb)) return 1;
      return a.localeCompare(b);
    });
    return entries.map(([key, n]) => `${key}×${n.toLocaleString("en-US")}`).join(", ");
  }
}

/** The name of a client-side failure: the system error code where there is one (EPIPE, ECONNRESET). */
export function errorName(error: unknown): string {
  let current: unknown = error;
  // fetch wraps the socket's error: TypeError("fetch failed", { cause }).
  for (let depth = 0; depth < 4 && current; depth++) {
    const { code, cause } = current as { code?: unknown; cause?: unknown };
    if (typeof code === "string" && code !== "ERR_STREAM_PREMATURE_CLOSE") return code;
    if (!cause) break;
    current = cause;
  }
  const name = (current as { name?: unknown })?.name;
  const message = (current as { message?: unknown })?.message;
  return typeof message === "string" && message ? `${String(name ?? "Error")}: ${message.slice(0, 60)}` : String(name ?? error);
}
