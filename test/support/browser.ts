// Debian's chromium, driven by puppeteer-core, for the tests of pages in a real browser
// (test/dashboard.test.ts, test/graphiql.test.ts). Chromium: CHROME_PATH, else /usr/bin/chromium
// (`apt-get install chromium`; .ci/run does it). Without it such tests are skipped with a
// warning, but fail when CI=true.
import fs from "node:fs";
import type { Browser } from "puppeteer-core";

export const chromePath = (process.env.CHROME_PATH ? [process.env.CHROME_PATH] : ["/usr/bin/chromium", "/usr/bin/chromium-browser"]).find((file) =>
  fs.existsSync(file),
);
const inCi = process.env.CI === "true";

/** `describe` where chromium is found or CI requires it; else `describe.skip`, with a warning naming the test file. */
export function describeInBrowser(testFile: string): jest.Describe {
  if (chromePath || inCi) return describe;
  console.warn(`\n\n*** ${testFile} SKIPPED: chromium not found (set CHROME_PATH or \`apt-get install -y chromium\`). With CI=true this fails. ***\n\n`);
  return describe.skip;
}

/**
 * puppeteer-core 25 ships ES modules only, which jest's CommonJS module system cannot load; Node's
 * own require can (require(esm): Node 20.19+ and 22.12+), so the package is loaded with that,
 * outside jest's registry. Only a type is imported above.
 */
function loadPuppeteer(): typeof import("puppeteer-core") {
  const { createRequire } = process.getBuiltinModule("node:module");
  return createRequire(__filename)("puppeteer-core");
}

/** A headless chromium; fails when there is none. */
export function launchBrowser(): Promise<Browser> {
  if (!chromePath) throw new Error("chromium not found: set CHROME_PATH or `apt-get install -y chromium` (required when CI=true)");
  return loadPuppeteer().launch({
    executablePath: chromePath,
    headless: true,
    // --no-sandbox: the tests run as root; --disable-dev-shm-usage: containers' small /dev/shm.
    args: ["--no-sandbox", "--disable-dev-shm-usage"],
  });
}
