// Deadlines of operations, checked together by one timer instead of a timer each: a timer set
// and cleared per operation was a measurable share of a small read's CPU (docs/performance.md).
// A deadline is met at most one sweep late; the sweep runs while deadlines are pending and stops
// at the first sweep that finds none, so a steady stream of operations keeps one interval.
//
// Every deadline is the same time after it was set, read from a monotonic clock, so deadlines
// come due in the order they were set: they wait in a ring, and the sweep takes them from its
// head until the first that is not yet due. A deadline is a number (its ticket), and cancelling
// one empties its slot: nothing is allocated per deadline, and nothing keeps what its `expire`
// held (an operation's request, promise and answer) once it is cancelled or has expired.
// (A Set of deadline objects did both: docs/performance.md, "Deadlines let go of their
// operations" and "Deadlines in a ring".)

export interface Deadlines {
  /** Calls `expire` once the deadlines' time has passed, unless `cancel` got its ticket first. */
  add(expire: () => void): number;
  /** Forgets the deadline of `ticket`; one that has expired or was cancelled is left alone. */
  cancel(ticket: number): void;
}

const firstCapacity = 64;

/** Deadlines `durationMs` after each is set, swept every `periodMs`. */
export function deadlines(durationMs: number, periodMs: number): Deadlines {
  // Tickets count up from 0; ticket t lives in slot t & mask while head <= t < tail. The ring
  // grows when full, so a slot is never reused while its ticket is pending, and keeps its size.
  // The sweep frees slots from the head only, and the oldest pending deadline is at most one
  // duration and a sweep old: the ring holds at most the deadlines set within that time.
  let dueAt = new Float64Array(firstCapacity);
  let expires: ((() => void) | undefined)[] = new Array(firstCapacity).fill(undefined);
  let mask = firstCapacity - 1;
  let head = 0;
  let tail = 0;
  let sweeper: NodeJS.Timeout | null = null;

  const grow = () => {
    const capacity = (mask + 1) * 2;
    const nextDueAt = new Float64Array(capacity);
    const nextExpires: ((() => void) | undefined)[] = new Array(capacity).fill(undefined);
    for (let ticket = head; ticket < tail; ticket++) {
      nextDueAt[ticket & (capacity - 1)] = dueAt[ticket & mask];
      nextExpires[ticket & (capacity - 1)] = expires[ticket & mask];
    }
    [dueAt, expires, mask] = [nextDueAt, nextExpires, capacity - 1];
  };

  const sweep = () => {
    const now = performance.now();
    while (head < tail) {
      const slot = head & mask;
      const expire = expires[slot];
      if (expire !== undefined && dueAt[slot] > now) return;
      expires[slot] = undefined;
      head += 1;
      expire?.();
    }
    clearInterval(sweeper!);
    sweeper = null;
  };

  return {
    add(expire) {
      if (tail - head > mask) grow();
      const ticket = tail++;
      dueAt[ticket & mask] = performance.now() + durationMs;
      expires[ticket & mask] = expire;
      sweeper ??= setInterval(sweep, periodMs);
      return ticket;
    },
    cancel(ticket) {
      if (ticket >= head) expires[ticket & mask] = undefined;
    },
  };
}

/** The sweep's period for a time limit: a twentieth of it, within 5 ms and 500 ms. */
export const sweepPeriodFor = (limitMs: number) => Math.min(500, Math.max(5, Math.round(limitMs / 20)));
