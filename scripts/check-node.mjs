// Refuses a Node.js outside package.json's "engines" before `npm start` or `npm run admin` does
// anything, with one line naming the supported versions: the service is tested only on those lines,
// and its dependencies declare nothing older. ALLOW_UNSUPPORTED_NODE=1 lets it run anyway.
//   node scripts/check-node.mjs [version]   (default: this Node's; exit 1 when not supported)
// Plain JavaScript with no dependencies, so that it runs, and says so, on old versions too.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const packageJson = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "package.json");
const range = JSON.parse(fs.readFileSync(packageJson, "utf8")).engines.node;

/** [major, minor, patch] of "22", "22.15" or "v22.15.0" (a pre-release tag is ignored). */
function parts(text) {
  const match = /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?(?:-.*)?$/.exec(text.trim());
  if (!match) throw new Error(`check-node: cannot read the version "${text}"`);
  return [Number(match[1]), Number(match[2] || 0), Number(match[3] || 0)];
}

function compare(a, b) {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return 0;
}

/** Whether `version` meets one comparator: ^X.Y.Z, >=, >, <=, <, = or a bare version. */
function meets(version, comparator) {
  const match = /^(\^|>=|>|<=|<|=)?(.+)$/.exec(comparator);
  if (!match) throw new Error(`check-node: cannot read the range "${range}"`);
  const bound = parts(match[2]);
  switch (match[1]) {
    case "^":
      return compare(version, bound) >= 0 && version[0] === bound[0];
    case ">=":
      return compare(version, bound) >= 0;
    case ">":
      return compare(version, bound) > 0;
    case "<=":
      return compare(version, bound) <= 0;
    case "<":
      return compare(version, bound) < 0;
    default:
      return compare(version, bound) === 0;
  }
}

/** The alternatives of the range ("a || b"), each a list of comparators that must all hold. */
const alternatives = range.split("||").map((alternative) => alternative.trim().split(/\s+/));

/** "22 (22.15.0 or newer) or 24 and newer" for "^22.15.0 || >=24"; other forms as written. */
function described() {
  return alternatives
    .map((comparators) => {
      const match = comparators.length === 1 ? /^(\^|>=)(.+)$/.exec(comparators[0]) : null;
      if (!match) return comparators.join(" ");
      const [major, minor, patch] = parts(match[2]);
      const from = minor === 0 && patch === 0 ? `${major}` : `${major}.${minor}.${patch}`;
      return match[1] === "^" ? (from === `${major}` ? from : `${major} (${from} or newer)`) : `${from} and newer`;
    })
    .join(" or ");
}

const version = (process.argv[2] || process.versions.node).replace(/^v/, "");
const current = parts(version);
const supported = alternatives.some((comparators) => comparators.every((comparator) => meets(current, comparator)));

if (!supported && process.env.ALLOW_UNSUPPORTED_NODE !== "1") {
  console.error(
    `Node.js ${version} is not supported: use Node.js ${described()} (package.json "engines": "${range}"); ` +
      "ALLOW_UNSUPPORTED_NODE=1 starts it anyway, untested.",
  );
  process.exit(1);
}
