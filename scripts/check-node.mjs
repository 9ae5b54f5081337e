// Refuses a Node.js outside package.json's "engines" before `npm start` or `npm run admin` does
// anything, with one line naming the supported versions: the service is tested only on those lines,
// and its dependencies declare nothing older. ALLOW_UNSUPPORTED_NODE=1 lets it run anyway.
//   node scripts/check-node.mjs [version]   (default: this Node's; exit 1 when not supported)
// The range is read with npm's own range rules (semver), so this check and npm's engine check agree.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
let semver;
try {
  semver = require("semver");
} catch {
  console.error("The dependencies are not installed: run `npm ci` first.");
  process.exit(1);
}
const packageJson = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "package.json");
const range = JSON.parse(fs.readFileSync(packageJson, "utf8")).engines.node;
const version = semver.clean(process.argv[2] || process.versions.node);
if (version === null) {
  console.error(`check-node: cannot read the version "${process.argv[2]}"`);
  process.exit(2);
}

if (!semver.satisfies(version, range) && process.env.ALLOW_UNSUPPORTED_NODE !== "1") {
  console.error(`Node.js ${version} is not supported: use a version of package.json's "engines", ${range}; ALLOW_UNSUPPORTED_NODE=1 starts it anyway, untested.`);
  process.exit(1);
}
