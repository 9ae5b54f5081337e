// Fails (exit 1) when a comment or a document names a repository path that does not exist,
// listing file:line and the path; part of `npm run lint`. A stale name sends the next reader
// looking for a file that moved: fix it by naming the file that now holds the thing.
//   tsx scripts/check-paths.ts [--root <dir>]      (the tests check a temporary folder)
//
// What is read (scripts/paths/references.ts says what counts as a path, comments.ts how
// comments are found):
//   - the comments of source files: .ts/.js/.mjs/.cjs (src/, test/, bench/, scripts/ and the
//     configuration at the top level), Prisma schemas, tsconfig.json, SQL (`--`, `/* */`),
//     GraphQL and shell scripts (`#`; a file without extension that starts with `#!...sh`, like .ci/run);
//   - every Markdown file, all of its text (prose and code blocks), and its links.
// Not read:
//   - node_modules/ and .git/ anywhere, and what is made or kept out of git at the top level
//     (dist/, release/, coverage/, data/, bench-data/, src/generated/): not the repository's text;
//   - bench/results/*.md: each is the record of one run at one commit, naming the files of that
//     commit; rewriting them when a file moves would make the record say what did not happen
//     (the commit they name still has those files);
//   - the migrations, prisma/*/migrations/: a shipped migration may not change at all, not even
//     a comment (src/db/migrate.ts refuses a database whose applied migrations' checksums
//     differ), so its comments name the files of the commit that wrote it;
//   - JSON other than tsconfig (no comments), package.json's scripts, string literals: the tests
//     and the build check those paths by using them.
import fs from "node:fs";
import path from "node:path";
import { commentsOnly, type CommentSyntax } from "./paths/comments";
import { exists, markdownTargets, pathTokens, type Reference } from "./paths/references";

const skippedAnywhere = new Set(["node_modules", ".git"]);
const skippedFromRoot = new Set(["dist", "release", "coverage", "data", "bench-data", "src/generated"]);
/** Files that are records of their commit (see above). */
const records = [/^bench\/results\/[^/]+\.md$/, /^prisma\/[^/]+\/migrations\//];

type Reading = { kind: "comments"; syntax: CommentSyntax } | { kind: "markdown" };

/** How a file is read, or null when it is not. */
function readingOf(file: string): Reading | null {
  const name = path.basename(file);
  if (/\.(?:[cm]?[jt]s|prisma)$/.test(name) || /^tsconfig.*\.json$/.test(name)) return { kind: "comments", syntax: "c" };
  if (name.endsWith(".sql")) return { kind: "comments", syntax: "sql" };
  if (/\.(?:graphql|sh)$/.test(name)) return { kind: "comments", syntax: "hash" };
  if (name.endsWith(".md")) return { kind: "markdown" };
  if (!name.includes(".")) {
    const start = Buffer.alloc(64);
    const descriptor = fs.openSync(file, "r");
    const length = fs.readSync(descriptor, start, 0, start.length, 0);
    fs.closeSync(descriptor);
    if (/^#!.*\b(?:ba|da|z)?sh\b/.test(start.subarray(0, length).toString().split("\n")[0])) return { kind: "comments", syntax: "hash" };
  }
  return null;
}

/** The files to read, from the root, with `/` separators, in order. */
function filesUnder(root: string, dir = ""): string[] {
  const files: string[] = [];
  for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const fromRoot = dir === "" ? entry.name : `${dir}/${entry.name}`;
    if (entry.isDirectory()) {
      if (!skippedAnywhere.has(entry.name) && !skippedFromRoot.has(fromRoot)) files.push(...filesUnder(root, fromRoot));
    } else if (entry.isFile() && !records.some((record) => record.test(fromRoot))) {
      files.push(fromRoot);
    }
  }
  return files.sort();
}

export interface Missing {
  file: string;
  line: number;
  path: string;
}

/** Every reference in the files under `root` to a path that does not exist there. */
export function missingPaths(root: string): { missing: Missing[]; references: number; files: number } {
  const missing: Missing[] = [];
  let references = 0;
  let files = 0;
  for (const file of filesUnder(root)) {
    const reading = readingOf(path.join(root, file));
    if (reading === null) continue;
    files++;
    const text = fs.readFileSync(path.join(root, file), "utf8");
    const lines = (reading.kind === "markdown" ? text : commentsOnly(text, reading.syntax)).split("\n");
    let inFence = false;
    lines.forEach((line, index) => {
      // Markdown: no link in a fenced block or a code span is a link (`logger[level](record)`).
      if (reading.kind === "markdown" && /^\s*(?:```|~~~)/.test(line)) inFence = !inFence;
      const found: Reference[] =
        reading.kind === "markdown"
          ? [...pathTokens(line, file, { relativeToFile: false }), ...(inFence ? [] : markdownTargets(line.replace(/`[^`]*`/g, ""), file))]
          : pathTokens(line, file, { relativeToFile: true });
      for (const reference of found) {
        references++;
        if (!exists(root, reference.fromRoot)) missing.push({ file, line: index + 1, path: reference.text });
      }
    });
  }
  return { missing, references, files };
}

if (require.main === module) {
  const args = process.argv.slice(2);
  const rootFlag = args.indexOf("--root");
  if (args.length > 0 && !(args.length === 2 && rootFlag === 0)) {
    console.error("usage: tsx scripts/check-paths.ts [--root <dir>]");
    process.exit(2);
  }
  const root = rootFlag === 0 ? path.resolve(args[1]) : path.resolve(__dirname, "..");
  const { missing, references, files } = missingPaths(root);
  for (const { file, line, path: named } of missing) console.error(`${file}:${line}: names ${named}, which does not exist`);
  if (missing.length > 0) {
    console.error(`${missing.length} of ${references} paths named in comments and docs do not exist (scripts/check-paths.ts)`);
    process.exit(1);
  }
  console.log(`check-paths: all ${references} paths named in ${files} files' comments and docs exist`);
}
