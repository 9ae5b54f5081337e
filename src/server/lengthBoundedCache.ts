// A cache of values by text key, bounded by the number of entries and by the keys' total length
// (a parsed document's memory grows with its text), dropping the least recently used first.
export class LengthBoundedCache<Value> {
  /** A Map keeps insertion order: re-inserting an entry marks it as recently used. */
  private readonly entries = new Map<string, Value>();
  private length = 0;

  constructor(
    private readonly maxEntries: number,
    private readonly maxLength: number,
  ) {}

  get(key: string): Value | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  /** Keeps the value unless its key alone is over the length bound. */
  set(key: string, value: Value): void {
    if (key.length > this.maxLength) return;
    if (this.entries.delete(key)) this.length -= key.length;
    while (this.entries.size > 0 && (this.entries.size >= this.maxEntries || this.length + key.length > this.maxLength)) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
      this.length -= oldest.length;
    }
    this.entries.set(key, value);
    this.length += key.length;
  }

  get size(): number {
    return this.entries.size;
  }
}
