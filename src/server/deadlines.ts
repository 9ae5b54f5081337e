// Deadlines of operations, checked together by one timer instead of a timer each: a timer set
// and cleared per operation was a measurable share of a small read's CPU (docs/performance.md).
// A deadline is met at most one sweep late; the sweep runs while deadlines are pending and stops
// at the first sweep that finds none, so a steady stream of operations keeps one interval.
//
// A deadline lets go of its `expire` once cancelled or expired. `expire` holds the operation (its
// request, its promise, its answer), and V8's young-generation collector can still reach entries
// deleted from a Set whose table lives in the old generation (test/deadlines.test.ts shows it):
// operations that had ended survived each scavenge, were promoted, and waited for a full
// collection (docs/performance.md, "Deadlines let go of their operations").

export interface Deadlines {
  /** Calls `expire` once `at` (ms since the epoch) has passed, unless the returned cancel ran first. */
  add(at: number, expire: () => void): () => void;
}

interface Due {
  at: number;
  /** null once cancelled or expired. */
  expire: (() => void) | null;
}

/** `due`'s expire, taken from it: it runs at most once, and nothing keeps it after. */
function takeExpire(due: Due): (() => void) | null {
  const expire = due.expire;
  due.expire = null;
  return expire;
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
      takeExpire(due)?.();
    }
  };

  return {
    add(at, expire) {
      const due: Due = { at, expire };
      pending.add(due);
      sweeper ??= setInterval(sweep, periodMs);
      return () => {
        pending.delete(due);
        takeExpire(due);
      };
    },
  };
}

/** The sweep's period for a time limit: a twentieth of it, within 5 ms and 500 ms. */
export const sweepPeriodFor = (limitMs: number) => Math.min(500, Math.max(5, Math.round(limitMs / 20)));
