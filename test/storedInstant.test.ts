// Instants read from the database keep their text only when it is exactly what toISOString gives.
import { storedInstant } from "../src/db/storedInstant";

describe("storedInstant", () => {
  test.each([
    "2026-11-21T22:32:09.003+00:00",
    "2026-01-01T00:00:00.000+00:00",
    "1999-12-31T23:59:59.999+00:00",
    // PostgreSQL's TIMESTAMP(3) text, normalised by its adapter: other lengths are parsed.
    "2026-11-21T22:32:09+00:00",
    "2026-11-21T22:32:09.1+00:00",
    "2026-11-21T23:32:09.003+01:00",
  ])("%s reads as the same instant and serializes like a Date", (text) => {
    const instant = storedInstant(text);
    const date = new Date(text);
    expect(instant).toBeInstanceOf(Date);
    expect(instant.getTime()).toBe(date.getTime());
    expect(instant.toISOString()).toBe(date.toISOString());
    expect(JSON.stringify({ at: instant })).toBe(JSON.stringify({ at: date }));
  });

  test("a Date is taken as it is; invalid text stays an invalid Date", () => {
    const date = new Date("2026-11-21T22:32:09.003Z");
    expect(storedInstant(date).getTime()).toBe(date.getTime());
    expect(Number.isNaN(storedInstant("2026-13-45T99:99:99.999+00:00").getTime())).toBe(true);
  });
});
