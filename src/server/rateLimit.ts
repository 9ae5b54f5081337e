// Requests per API key per minute, counted in this process (a fixed one-minute window).
export interface RateLimitOptions {
  /** Requests allowed per key per minute; 0 turns the limit off. */
  perMinute: number;
}

export interface RateLimiter {
  /** Counts a request; returns the seconds to wait when the key is over its limit, else 0. */
  take(key: string): number;
}

export function createRateLimiter(options: RateLimitOptions = { perMinute: 0 }): RateLimiter {
  if (options.perMinute <= 0) return { take: () => 0 };
  let windowStart = Date.now();
  let counts = new Map<string, number>();
  return {
    take(key) {
      const now = Date.now();
      if (now - windowStart >= 60_000) {
        windowStart = now;
        counts = new Map();
      }
      const count = (counts.get(key) ?? 0) + 1;
      counts.set(key, count);
      return count > options.perMinute ? Math.max(1, Math.ceil((windowStart + 60_000 - now) / 1000)) : 0;
    },
  };
}
