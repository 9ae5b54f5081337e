// Deadlines swept together (src/server/deadlines.ts): each expires once, after its time and at
// most about a sweep late, a cancelled one never, and the sweep stops when nothing is pending.
import v8 from "node:v8";
import { deadlines, sweepPeriodFor } from "../src/server/deadlines";
import { exposeGc } from "./support/gc";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test("a deadline expires once, not before its time; a cancelled one never", async () => {
  const due = deadlines(20, 5);
  const expired: { name: string; late: number }[] = [];
  const add = (name: string) => {
    const at = Date.now() + 20;
    return due.add(() => expired.push({ name, late: Date.now() - at }));
  };
  add("soon");
  const cancelled = add("cancelled");
  due.cancel(cancelled);
  await sleep(40);
  add("later");
  const start = Date.now();
  while (expired.length < 2 && Date.now() - start < 5_000) await sleep(5);
  await sleep(30);
  // A ticket that has expired, cancelled again, changes nothing.
  due.cancel(cancelled);
  expect(expired.map(({ name }) => name)).toEqual(["soon", "later"]);
  for (const { late } of expired) expect(late).toBeGreaterThanOrEqual(0);
});

test("deadlines beyond the ring's first size each expire once, in order, the cancelled ones never", async () => {
  const due = deadlines(30, 5);
  const expired: number[] = [];
  const tickets = Array.from({ length: 1_000 }, (_, index) => due.add(() => expired.push(index)));
  for (const ticket of tickets) if (ticket % 3 === 0) due.cancel(ticket);
  // More deadlines while the first are pending, so the ring grows with pending ones in it.
  await sleep(5);
  for (let index = 1_000; index < 1_300; index++) due.add(() => expired.push(index));
  const start = Date.now();
  while (expired.length < 966 && Date.now() - start < 5_000) await sleep(5);
  const kept = [...Array.from({ length: 1_000 }, (_, index) => index).filter((index) => index % 3 !== 0), ...Array.from({ length: 300 }, (_, index) => 1_000 + index)];
  expect(expired).toEqual(kept);
});

test("cancelling a ticket that has expired leaves the deadline now in its slot alone", async () => {
  const due = deadlines(10, 5);
  let expired = 0;
  const first = due.add(() => (expired += 1));
  while (expired < 1) await sleep(5);
  // The ring's first size is 64: these take every slot again, `first`'s included.
  for (let index = 0; index < 64; index++) due.add(() => (expired += 1));
  due.cancel(first);
  const start = Date.now();
  while (expired < 65 && Date.now() - start < 2_000) await sleep(5);
  expect(expired).toBe(65);
});

test("a step of the wall clock neither expires a deadline early nor holds it back", async () => {
  const due = deadlines(50, 5);
  const expired: string[] = [];
  const realNow = Date.now;
  const stepped = jest.spyOn(Date, "now");
  try {
    due.add(() => expired.push("set before the step forward"));
    stepped.mockImplementation(() => realNow() + 3_600_000);
    await sleep(20);
    expect(expired).toEqual([]);
    stepped.mockImplementation(() => realNow() - 3_600_000);
    due.add(() => expired.push("set after the step back"));
    const start = realNow();
    while (expired.length < 2 && realNow() - start < 2_000) await sleep(5);
    expect(expired).toEqual(["set before the step forward", "set after the step back"]);
  } finally {
    stepped.mockRestore();
  }
});

test("the sweep stops once nothing is pending, and starts again for a new deadline", async () => {
  // The sweep's own interval, watched through the timer functions it calls (the process's count
  // of timers also moves with other tests' and jest's).
  const started = jest.spyOn(global, "setInterval");
  const stopped = jest.spyOn(global, "clearInterval");
  try {
    const due = deadlines(1_000, 5);
    const first = due.add(() => undefined);
    due.cancel(due.add(() => undefined));
    expect(started).toHaveBeenCalledTimes(1);
    const sweeper = started.mock.results[0].value;
    due.cancel(first);
    await sleep(40);
    expect(stopped).toHaveBeenCalledWith(sweeper);
    due.cancel(due.add(() => undefined));
    expect(started).toHaveBeenCalledTimes(2);
    await sleep(40);
    expect(stopped).toHaveBeenCalledWith(started.mock.results[1].value);
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

test("a cancelled deadline keeps nothing of its operation, even when the ring has grown old", () => {
  // A Set whose table grew into the old generation kept deleted entries where the
  // young-generation collector still followed them: what a cancelled deadline's expire held (an
  // operation's request and answer) then survived every scavenge and was promoted (figures:
  // docs/performance.md, "Deadlines let go of their operations"). The ring must not do that
  // either. Operations here hold 8 KB each, 16 MB in all.
  const gc = exposeGc();
  // The sweep finds nothing due while the test runs, and stops after it.
  const due = deadlines(60_000, 20);
  const grown = Array.from({ length: 1_000 }, () => due.add(() => undefined));
  gc({ type: "major" });
  gc({ type: "major" });
  for (const ticket of grown) due.cancel(ticket);
  const before = oldSpaceUsed();
  const inFlight: number[] = [];
  for (let operation = 0; operation < 2_000; operation++) {
    const answer = new Array<number>(1_000).fill(operation);
    inFlight.push(due.add(() => answer.length));
    if (inFlight.length > 10) due.cancel(inFlight.shift()!);
    if (operation % 50 === 49) gc({ type: "minor" });
  }
  for (const ticket of inFlight.splice(0)) due.cancel(ticket);
  gc({ type: "minor" });
  gc({ type: "minor" });
  expect(oldSpaceUsed() - before).toBeLessThan(2_000_000);
});
