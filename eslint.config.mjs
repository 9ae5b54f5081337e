// ESLint's and typescript-eslint's recommended rules over the project's TypeScript, run by
// `npm run lint` (and so in .ci/run) beside `tsc`, which checks the types.
import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["dist/", "release/", "node_modules/", "src/generated/", "bench/peers/", "data/", "coverage/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.ts"],
    rules: {
      // `_`-prefixed names are placeholders by choice (an argument a signature needs).
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" }],
    },
  },
  {
    // Tests read JSON bodies whose shape is what they check.
    files: ["test/**/*.ts"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
  {
    files: ["**/*.js", "**/*.mjs", "**/*.cjs"],
    languageOptions: { globals: { require: "readonly", module: "writable", process: "readonly", console: "readonly", __dirname: "readonly", setTimeout: "readonly" } },
  },
  {
    // Jest's configuration is CommonJS: the deployment test's extends the suite's.
    files: ["**/jest.config.js"],
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
);
