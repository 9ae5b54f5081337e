// The rules of counting (src/resolvers/dutySeconds.ts) against a count second by second: an
// officer's entries, in any order, overlapping or not, open or not, cut to the range and to now,
// cover exactly the seconds their shifts say, per period too.
import { periodBounds, secondsPerPeriod, shiftsOf, shiftSummary } from "../src/resolvers/dutySeconds";

/** A generator of the same numbers each run (a test that fails must fail again). */
function random(seed: number) {
  return () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
}

test.each([1, 2, 3, 4, 5, 6, 7, 8])("random entries (seed %i), in order and shuffled, cover the seconds their shifts say", (seed) => {
  const next = random(seed);
  const from = new Date(10_000);
  const to = new Date(180_000);
  const now = new Date(150_500);
  const entries: number[] = [];
  for (let i = 0; i < 12; i++) {
    const start = Math.floor(next() * 200_000);
    const end = next() < 0.15 ? Infinity : start + Math.floor(next() * 40_000);
    entries.push(start, end);
  }
  // Second by second: covered if some entry's whole seconds hold it, within [from, min(to, now)).
  const covered: boolean[] = [];
  for (let t = 10; t < 150; t++) covered[t] = false;
  for (let i = 0; i < entries.length; i += 2) {
    for (let t = Math.max(10, Math.floor(entries[i] / 1000)); t < Math.min(150, Math.floor(entries[i + 1] / 1000)); t++) covered[t] = true;
  }
  const pairs = Array.from({ length: entries.length / 2 }, (_, i) => [entries[2 * i], entries[2 * i + 1]]);
  const inOrder = pairs.slice().sort((a, b) => a[0] - b[0]).flat();
  const reversed = pairs.slice().sort((a, b) => b[0] - a[0]).flat();
  for (const list of [entries, inOrder, reversed]) {
    const shifts = shiftsOf(list, from, to, now);
    // In order, apart: each starts after the previous one ended.
    for (let i = 2; i < shifts.length; i += 2) expect(shifts[i]).toBeGreaterThan(shifts[i - 1]);
    const fromShifts: boolean[] = covered.map(() => false);
    for (let i = 0; i < shifts.length; i += 2) for (let t = shifts[i]; t < shifts[i + 1]; t++) fromShifts[t] = true;
    expect(fromShifts).toEqual(covered);
    const summary = shiftSummary(shifts);
    expect(summary.totalSeconds).toBe(covered.filter(Boolean).length);
    expect(summary.shifts).toBe(shifts.length / 2);
    // Periods of 25 seconds: each gets the covered seconds within it.
    const periods = Array.from({ length: 7 }, (_, k) => ({ label: String(k), start: new Date(10_000 + k * 25_000), end: new Date(Math.min(180_000, 35_000 + k * 25_000)) }));
    const expected = periods.map((_, k) => covered.filter((isCovered, t) => isCovered && t >= 10 + k * 25 && t < 35 + k * 25).length);
    expect(secondsPerPeriod(shifts, periodBounds(periods))).toEqual(expected);
  }
});
