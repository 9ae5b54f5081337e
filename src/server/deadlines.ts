// Deadlines of operations, checked together by one timer instead of a timer each: a timer set
// and cleared per operation was a measurable share of a small read's CPU (docs/performance.md).
// A deadline is met at most one sweep late; the sweep runs while deadlines are pending and stops
// at the first sweep that finds none, so a steady stream of operations keeps one interval.

export interface Deadlines {
  /** Calls `expire` once `at` (ms since the epoch) has passed, unless the returned cancel ran first. */
  add(at: number, expire: () => void): () => void;
}

interface Due {
  at: number;
  expire(): void;
}

/** Deadlines swept every `periodMs`. */
export function deadlines(periodMs: number): Deadlines {
  const pending = new Set<Due>();
  let sweeper: NodeJS.Timeout | null = null;

  const sweep = () => {
    if (pending.size === 0) {
      clearInterval(sweeper!);
      sweeper = null;
      return;
    }
    const now = Date.now();
    for (const due of pending) {
      if (due.at > now) continue;
      pending.delete(due);
      due.expire();
    }
  };

  return {
    add(at, expire) {
      const due: Due = { at, expire };
      pending.add(due);
      sweeper ??= setInterval(sweep, periodMs);
      return () => void pending.delete(due);
    },
  };
}

/** The sweep's period for a time limit: a twentieth of it, within 5 ms and 500 ms. */
export const sweepPeriodFor = (limitMs: number) => Math.min(500, Math.max(5, Math.round(limitMs / 20)));
