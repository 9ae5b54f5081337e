// The stale-path check of `npm run lint` (scripts/check-paths.ts), run on a temporary folder laid
// out like the repository: a comment naming a file that does not exist fails the check with the
// file, line and path, and passes once the file is there; and what counts as a path and what not.
// No database: the SQLite project runs it once.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { temporaryDir, testProvider } from "./support/database";
import { repoRoot } from "./support/process";
import { missingPaths } from "../scripts/check-paths";

const sqliteOnly = testProvider === "sqlite" ? describe : describe.skip;

/** A folder holding `files` (path from the folder: text). */
function folderWith(files: Record<string, string>): string {
  const root = temporaryDir("vrd-check-paths-");
  for (const [file, text] of Object.entries(files)) write(root, file, text);
  return root;
}

function write(root: string, file: string, text = "") {
  fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  fs.writeFileSync(path.join(root, file), text);
}

/** The check as `npm run lint` runs it. */
function checkPaths(root: string) {
  const run = spawnSync(process.execPath, ["--import", "tsx", "scripts/check-paths.ts", "--root", root], { cwd: repoRoot, encoding: "utf8" });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** The missing paths the check lists, as `file:line path`. */
const missingIn = (root: string) => missingPaths(root).missing.map(({ file, line, path: named }) => `${file}:${line} ${named}`);

sqliteOnly("the check that every path named in a comment or document exists", () => {
  test("fails on a comment naming a missing file, listing file, line and path; passes once the file exists", () => {
    const root = folderWith({ "src/main.ts": "export const main = 1;\n\n// The rules live in src/rules/vehicle.ts.\n" });
    try {
      const failing = checkPaths(root);
      expect(failing.status).toBe(1);
      expect(failing.stderr).toContain("src/main.ts:3: names src/rules/vehicle.ts, which does not exist");
      write(root, "src/rules/vehicle.ts");
      const passing = checkPaths(root);
      expect(passing).toMatchObject({ status: 0, stderr: "" });
      expect(passing.stdout).toMatch(/all 1 paths named in 2 files' comments and docs exist/);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  }, 30_000);

  test("reads comments, Markdown and its links; leaves strings, URLs, packages and records alone", () => {
    const root = folderWith({
      "src/db/client.ts": [
        "// Missing: src/db/gone.ts, ./sibling.ts and ../../bench/gone/ (the last two from this file's folder).",
        "/* Present: src/db/client.ts, src/db/client (a module), ./client.ts and src/db/... */",
        "// A pattern must match: src/*/client.ts yes, src/*/nothing.ts no; placeholders too: src/<layer>/client.ts.",
        "// Not paths: https://example.com/src/x.ts, swagger-ui-dist/package.json, file:./data/x.db, dist/main.js, src/generated/x.",
        'const text = "src/in/a/string.ts"; // a string is no comment',
        "const pattern = /\"src\\/x\\//; // nor is a regex, whose quote opens no string: src/regex/after.ts",
        "const template = `// src/in/a/template.ts`;",
      ].join("\n"),
      "prisma/sqlite/schema.prisma": "// Read by src/db/prismaGone.ts\nmodel A { id Int @id }\n",
      "scripts/tool.sql": "SELECT '-- src/not/a/comment.sql'; -- but src/is/a/comment.sql\n",
      ".ci/run": '#!/usr/bin/env bash\necho "# src/in/quotes.sh" # src/after/hash.sh\n',
      "docs/guide.md": [
        "See [operations](operations.md#backups) and [missing](nowhere.md), and src/db/client.ts.",
        "`logger[level](record)` is code, not a link; [site](https://example.com/x.md) has a scheme.",
        "```",
        "fn[0](also-code.md)",
        "```",
      ].join("\n"),
      "docs/operations.md": "",
      "bench/results/sqlite-full.md": "Measured with src/then/existed.ts.\n",
      "prisma/sqlite/migrations/1_init/migration.sql": "-- Shipped, so frozen: src/resolvers/old.ts\n",
      "node_modules/pkg/index.ts": "// src/of/a/package.ts\n",
    });
    try {
      expect(missingIn(root)).toEqual([
        ".ci/run:2 src/after/hash.sh",
        "docs/guide.md:1 nowhere.md",
        "prisma/sqlite/schema.prisma:1 src/db/prismaGone.ts",
        "scripts/tool.sql:1 src/is/a/comment.sql",
        "src/db/client.ts:1 src/db/gone.ts",
        "src/db/client.ts:1 ./sibling.ts",
        "src/db/client.ts:1 ../../bench/gone/",
        "src/db/client.ts:3 src/*/nothing.ts",
        "src/db/client.ts:6 src/regex/after.ts",
      ]);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
