// The deployment test (`npm run test:deployment`): it installs the service on this machine as
// docs/deployment.md says (a system user, /opt, /etc, nginx on ports 80 and 443, PostgreSQL's
// main cluster), so it runs only where that is wanted: as root, on a throwaway machine (.ci/run),
// or with DEPLOYMENT_TEST=1. `npm test` leaves it out (jest.config.js).
const path = require("node:path");
const base = require("../../jest.config.js").projects[0];
const rootDir = path.resolve(__dirname, "..", "..");

/** @type {import('jest').Config} */
module.exports = {
  rootDir,
  projects: [{ ...base, rootDir, displayName: "deployment", roots: ["<rootDir>/test/deployment"], testPathIgnorePatterns: [] }],
  testTimeout: 600000,
};
