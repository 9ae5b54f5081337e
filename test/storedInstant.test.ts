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
    // Text Date's parser takes for another instant than it spells: not kept.
    "2026-02-30T00:00:00.000+00:00",
    "2025-02-29T12:00:00.000+00:00",
    "2026-04-31T00:00:00.000+00:00",
    "2026-01-01T24:00:00.000+00:00",
    // Kept, at the edges of the ranges.
    "2024-02-29T23:59:59.999+00:00",
    "2000-02-29T00:00:00.000+00:00",
    "2026-12-31T23:59:59.999+00:00",
    // Years Date.UTC would read as 19xx, and the first and last of four digits.
    "0050-06-15T10:20:30.400+00:00",
    "0100-01-01T00:00:00.000+00:00",
    "9999-12-31T23:59:59.999+00:00",
  ])("%s reads as the same instant and serializes like a Date", (text) => {
    const instant = storedInstant(text);
    const date = new Date(text);
    expect(instant).toBeInstanceOf(Date);
    expect(instant.getTime()).toBe(date.getTime());
    expect(instant.toISOString()).toBe(date.toISOString());
    expect(JSON.stringify({ at: instant })).toBe(JSON.stringify({ at: date }));
  });

  test("every instant in stored form, over years 100 to 9999, keeps its time and its text", () => {
    let seed = 7;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    const first = Date.UTC(100, 0, 1);
    const last = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
    for (let i = 0; i < 20_000; i++) {
      const date = new Date(first + Math.floor(random() * (last - first)));
      const text = `${date.toISOString().slice(0, 23)}+00:00`;
      // PostgreSQL's spelling of the same instant: the fraction without its last zeros.
      const trimmed = text.replace(/\.?0+\+/, "+");
      for (const spelled of [text, trimmed]) {
        const instant = storedInstant(spelled);
        expect(instant.getTime()).toBe(date.getTime());
        expect(instant.toISOString()).toBe(date.toISOString());
      }
    }
  });

  test.each([
    ["2026-11-21T22:32:09.003+00:00", "2026-11-21T22:32:09.003Z"],
    ["2026-11-21T22:32:09.12+00:00", "2026-11-21T22:32:09.120Z"],
    ["2026-11-21T22:32:09.1+00:00", "2026-11-21T22:32:09.100Z"],
    ["2026-11-21T22:32:09+00:00", "2026-11-21T22:32:09.000Z"],
  ])("%s, as PostgreSQL spells an instant, keeps its text: serializing formats no date", (text, iso) => {
    const formatted = jest.spyOn(Date.prototype, "toISOString");
    try {
      const instant = storedInstant(text);
      expect(JSON.stringify({ at: instant })).toBe(JSON.stringify({ at: iso }));
      expect(formatted).not.toHaveBeenCalled();
    } finally {
      formatted.mockRestore();
    }
  });

  test.each([
    "2026-11-21T22:32:09.00a+00:00",
    "2026-11-21T22:32:09.0a+00:00",
    "2026-11-21T22:32:09.a+00:00",
    "2026-11-21T22:32:09.+00:00",
    "2026-11-21T22:32:09x1+00:00",
    "2026-11-21T22:32:09.0001+00:00",
    "2026-11-21 22:32:09.003+00:00",
    "2026-11-21T22:32:60.003+00:00",
    "2026-11-21T22:60:09.003+00:00",
    "2026-00-21T22:32:09.003+00:00",
    "2026-11-00T22:32:09.003+00:00",
    "2026-11-32T22:32:09.003+00:00",
    "-026-11-21T22:32:09.003+00:00",
  ])("%s is no stored instant, as Date's parser says", (text) => {
    expect(Number.isNaN(storedInstant(text).getTime())).toBe(Number.isNaN(new Date(text).getTime()));
    if (!Number.isNaN(new Date(text).getTime())) expect(storedInstant(text).toISOString()).toBe(new Date(text).toISOString());
  });

  test("a Date is taken as it is; invalid text stays an invalid Date", () => {
    const date = new Date("2026-11-21T22:32:09.003Z");
    expect(storedInstant(date).getTime()).toBe(date.getTime());
    expect(Number.isNaN(storedInstant("2026-13-45T99:99:99.999+00:00").getTime())).toBe(true);
  });
});
