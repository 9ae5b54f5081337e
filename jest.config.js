// Every test runs on SQLite; with TEST_DATABASE_URL (a PostgreSQL server the tests may create
// databases on), every test runs on PostgreSQL as well.
const base = {
  testEnvironment: "node",
  roots: ["<rootDir>/test"],
  testMatch: ["**/*.test.ts"],
  // The deployment test installs the service on the machine: its own command (test/deployment/jest.config.js).
  testPathIgnorePatterns: ["/node_modules/", "/test/deployment/"],
  transform: {
    "^.+\\.ts$": ["ts-jest", { tsconfig: "tsconfig.json" }],
    // request-filtering-agent is published as ES modules only, which Jest's module system does not
    // load (Node's own require does: the built service needs nothing).
    "/node_modules/request-filtering-agent/.+\\.js$": ["ts-jest", { tsconfig: { allowJs: true, module: "commonjs", esModuleInterop: true } }],
  },
  transformIgnorePatterns: ["/node_modules/(?!request-filtering-agent/)"],
  // The generated Prisma client imports its siblings with .js specifiers.
  moduleNameMapper: { "^(\\.{1,2}/.*)\\.js$": "$1" },
};

const projects = [{ ...base, displayName: "sqlite" }];
if (process.env.TEST_DATABASE_URL) {
  projects.push({ ...base, displayName: "postgresql", setupFiles: ["<rootDir>/test/support/usePostgres.ts"] });
}

/** @type {import('jest').Config} */
module.exports = { projects, testTimeout: 60000 };
