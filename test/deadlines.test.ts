// Deadlines swept together (src/server/deadlines.ts): each expires once, after its time and at
// most about a sweep late, a cancelled one never, and the sweep stops when nothing is pending.
import v8 from "node:v8";
import { deadlines, sweepPeriodFor } from "../src/server/deadlines";
import { exposeGc } from "./support/gc";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test("a deadline expires once, not before its time; a cancelled one never", async () => {
  const due = deadlines(5);
  const expired: { name: string; late: number }[] = [];
  const start = Date.now();
  const add = (name: string, at: number) => due.add(at, () => expired.push({ name, late: Date.now() - at }));
  add("soon", start + 20);
  const cancel = add("cancelled", start + 20);
  add("later", start + 60);
  cancel();
  while (expired.length < 2 && Date.now() - start < 5_000) await sleep(5);
  await sleep(30);
  expect(expired.map(({ name }) => name)).toEqual(["soon", "later"]);
  for (const { late } of expired) expect(late).toBeGreaterThanOrEqual(0);
});

test("the sweep stops once nothing is pending, and starts again for a new deadline", async () => {
  // The sweep's own interval, watched through the timer functions it calls (the process's count
  // of timers also moves with other tests' and jest's).
  const started = jest.spyOn(global, "setInterval");
  const stopped = jest.spyOn(global, "clearInterval");
  try {
    const due = deadlines(5);
    const cancel = due.add(Date.now() + 1_000, () => undefined);
    due.add(Date.now() + 1_000, () => undefined)();
    expect(started).toHaveBeenCalledTimes(1);
    const sweeper = started.mock.results[0].value;
    cancel();
    await sleep(40);
    expect(stopped).toHaveBeenCalledWith(sweeper);
    let expired = false;
    due.add(Date.now(), () => (expired = true));
    expect(started).toHaveBeenCalledTimes(2);
    await sleep(40);
    expect(expired).toBe(true);
  } finally {
    started.mockRestore();
    stopped.mockRestore();
  }
});

test("the sweep's period is a twentieth of the limit, within 5 and 500 ms", () => {
  expect(sweepPeriodFor(10_000)).toBe(500);
  expect(sweepPeriodFor(60_000)).toBe(500);
  expect(sweepPeriodFor(1_000)).toBe(50);
  expect(sweepPeriodFor(50)).toBe(5);
});

const oldSpaceUsed = () => v8.getHeapSpaceStatistics().find((space) => space.space_name === "old_space")!.space_used_size;

test("a cancelled deadline keeps nothing of its operation, even when its Set's table has grown old", () => {
  // A Set whose table grew into the old generation can keep deleted entries where the
  // young-generation collector still follows them: what a cancelled deadline's expire held (an
  // operation's request and answer) then survived every scavenge and was promoted (figures:
  // docs/performance.md, "Deadlines let go of their operations"). Operations here hold 8 KB
  // each, 16 MB in all.
  const gc = exposeGc();
  // The sweep finds nothing due while the test runs, and stops after it.
  const due = deadlines(20);
  const grown = Array.from({ length: 1_000 }, () => due.add(Date.now() + 60_000, () => undefined));
  gc({ type: "major" });
  gc({ type: "major" });
  for (const cancel of grown) cancel();
  const before = oldSpaceUsed();
  const inFlight: (() => void)[] = [];
  for (let operation = 0; operation < 2_000; operation++) {
    const answer = new Array<number>(1_000).fill(operation);
    inFlight.push(due.add(Date.now() + 60_000, () => answer.length));
    if (inFlight.length > 10) inFlight.shift()!();
    if (operation % 50 === 49) gc({ type: "minor" });
  }
  for (const cancel of inFlight.splice(0)) cancel();
  gc({ type: "minor" });
  gc({ type: "minor" });
  expect(oldSpaceUsed() - before).toBeLessThan(2_000_000);
});
