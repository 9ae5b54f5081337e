// A path that plainPath (src/server/nodeRequests.ts) lets through unparsed must be the pathname
// the URL parser would make of it: else a handler would route on another path than a URL reads.
import fc from "fast-check";
import { plainPath } from "../src/server/nodeRequests";

const pathnameOf = (path: string) => new URL(`http://localhost${path}`).pathname;

test("every path plainPath accepts is its own URL pathname", () => {
  // Characters around the edges: escapes (a dot's among them), dots, colons, and what must be encoded.
  const piece = fc.constantFrom("/", "a", "Z", "0", "_", "-", "~", ":", ".", "%", "2", "e", "E", "3", "A", "f", "%2e", "%2E", "%3A", "%3a", " ", "?", "#", "ä", "\\", "@");
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
      const path = `/${pieces.join("")}`;
      if (plainPath.test(path)) expect(pathnameOf(path)).toBe(path);
    }),
    { numRuns: 5000 },
  );
});

test("identifiers with escapes and colons are plain; dot segments, spelled or escaped, are not", () => {
  for (const path of ["/dutytime/steam%3A1100001000035cd/toggle", "/officers/steam:42", "/vehicles/10250", "/dutytime/a%2Fb"]) {
    expect(plainPath.test(path)).toBe(true);
  }
  for (const path of ["/vehicles/%2e%2e/statistics", "/vehicles/%2E%2E", "/vehicles/../x", "/a b", "/%zz", "/%3"]) {
    expect(plainPath.test(path)).toBe(false);
  }
});
