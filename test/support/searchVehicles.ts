// Vehicles whose searched text holds what trips search indexes up: letters beyond ASCII in
// either case, LIKE's wildcards and escape, FTS5's query syntax, a term only in a field that is
// not searched. Shared by the tests of SQLite's and PostgreSQL's trigram indexes.
export const awkwardVehicles = [
  { plate: "B-AB 1234", owner: "Günther Müller", car: "Stanier", color: "Weiß" },
  { plate: "B-CD 5123", owner: "GÜNTHER MÜLLER", cartyp: "Vapid" },
  { plate: "HH-X 1239", owner: "Zoë Ångström", wanted_reason: "100% sicher" },
  { plate: "M-Q 9999", owner: "Straße_Test", car: "back\\slash" },
  { plate: "K-ÖL 12", owner: "Ölfass Özdemir", color: "ΣΊΣΥΦΟΣ" },
  { plate: "S-Z 4567", owner: "ab_cd", comment: "1234 only in the comment, which is not searched" },
  { plate: "Q-1", owner: 'Der "Boss" Kowalski AND OR NEAR(x) *' },
];
