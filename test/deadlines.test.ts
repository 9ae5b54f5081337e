// Deadlines swept together (src/server/deadlines.ts): each expires once, after its time and at
// most about a sweep late, a cancelled one never, and the sweep stops when nothing is pending.
import { deadlines, sweepPeriodFor } from "../src/server/deadlines";

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
