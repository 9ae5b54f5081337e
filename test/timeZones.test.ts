// checkTimeZone keeps the canonical names of zones found valid (src/resolvers/calendar.ts): a
// kept name must answer as the first check did, and a refused name must be refused every time.
import { checkTimeZone, keptZoneNames, maxValidZones } from "../src/resolvers/calendar";
import { Validator } from "../src/resolvers/validation";

const checked = (zone: string) => {
  const check = new Validator();
  const name = checkTimeZone(check, "timeZone", zone);
  return { name, errors: check.errors };
};

test.each(["Europe/Berlin", "europe/berlin", "utc", "America/New_York"])("%s is accepted, and answered alike when kept", (zone) => {
  const first = checked(zone);
  expect(first.errors).toEqual({});
  expect(first.name.toLowerCase()).toBe(zone.toLowerCase());
  for (let i = 0; i < 3; i++) expect(checked(zone)).toEqual(first);
});

test.each(["Mars/Olympus", "", "Europe/Berlin\u0000", "x".repeat(65)])("%j is refused every time, with the field's message", (zone) => {
  for (let i = 0; i < 3; i++) {
    expect(checked(zone)).toEqual({ name: "UTC", errors: { timeZone: ["The time zone field must be an IANA time zone, e.g. Europe/Berlin or UTC."] } });
  }
});

test("spellings in other letter cases are all accepted, and at most maxValidZones names are kept", () => {
  const zone = "America/Argentina/ComodRivadavia";
  const letters = [...zone].map((c, i) => ({ c, i })).filter(({ c }) => /[a-z]/i.test(c));
  for (let n = 0; n < maxValidZones + 500; n++) {
    // The n-th spelling: bit k of n flips the case of the k-th letter.
    const spelling = [...zone];
    letters.forEach(({ c, i }, k) => (spelling[i] = (n >> k) & 1 ? c.toUpperCase() : c.toLowerCase()));
    expect(checked(spelling.join("")).errors).toEqual({});
  }
  expect(keptZoneNames()).toBe(maxValidZones);
});
