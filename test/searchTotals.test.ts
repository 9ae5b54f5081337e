// The in-process store of search totals (src/db/vehicles/searchTotals.ts): a total is given back
// only at the version it was counted at, and the store stays bounded.
import { SearchTotals } from "../src/db/vehicles/searchTotals";

test("a kept total answers only at its own version, network and term", () => {
  const totals = new SearchTotals();
  totals.set(1, "müller", "7", 42);
  expect(totals.get(1, "müller", "7")).toBe(42);
  expect(totals.get(1, "müller", "8")).toBeUndefined();
  expect(totals.get(2, "müller", "7")).toBeUndefined();
  expect(totals.get(1, "mülle", "7")).toBeUndefined();
  totals.set(1, "müller", "8", 43);
  expect(totals.get(1, "müller", "7")).toBeUndefined();
  expect(totals.get(1, "müller", "8")).toBe(43);
});

test("the least recently used totals go first once 10,000 are kept", () => {
  const totals = new SearchTotals();
  for (let i = 0; i < 10_000; i++) totals.set(1, `term ${i}`, "1", i);
  expect(totals.get(1, "term 0", "1")).toBe(0); // used: now the most recent
  totals.set(1, "one more", "1", -1);
  expect(totals.get(1, "term 0", "1")).toBe(0);
  expect(totals.get(1, "term 1", "1")).toBeUndefined();
  expect(totals.get(1, "term 2", "1")).toBe(2);
  expect(totals.get(1, "one more", "1")).toBe(-1);
});
