// What in a comment or a document reads as a repository path, and whether that path exists.
//
// A reference is:
//   - a token that starts with one of the repository's top-level folders (`rootFolders`), read
//     from the repository's root: `src/db/client.ts`, `bench/results/`, `prisma/*/migrations/`;
//   - in source comments, a token starting with `./` or `../`, read from the file's folder;
//   - in Markdown, the target of a link or image, `[x](operations.md#anchor)`, read from the
//     document's folder (`/x` from the root).
// A token must not follow a letter, digit, `.`, `/`, `@`, `-`, `:` or `$`, so a path inside a URL
// (`https://host/src/x`), a package's file (`swagger-ui-dist/package.json`, `sofa-api/src/x`),
// `file:./data/dev.db` or `${dir}/src` is no reference. Markdown links with a scheme (`https:`,
// `mailto:`) and anchors within the document (`#x`) are not checked; neither are the anchors.
//
// How a token is read:
//   - a placeholder `<name>` stands for anything in its segment (a `*`); a token cut by a blank
//     inside a placeholder (`prisma/<p>/migrations/<UTC timestamp>_<name>`) keeps its folders;
//   - trailing sentence punctuation is not part of it (`see src/main.ts.`, `src/db/postgres/...`);
//   - `*` matches any part of one segment (`**` too: one segment); a pattern must match something;
//   - a token without extension may name a module (`src/db/client` for `src/db/client.ts`).
//
// Accepted without looking: paths under the folders that generation and builds make (`dist/`,
// `src/generated/`): whether they exist says whether `npm ci` or the build ran, not whether the
// comment is true.
import fs from "node:fs";
import path from "node:path";

export const rootFolders = ["src", "test", "bench", "scripts", "prisma", "docs", "deploy", ".ci"];
const generated = ["dist/", "src/generated/"];
const moduleExtensions = [".ts", ".mts", ".cts", ".js", ".mjs", ".cjs", ".json"];

export interface Reference {
  /** As the report names it: placeholders read as `*`, trailing punctuation dropped. */
  text: string;
  /** From the repository's root, with `/` separators. */
  fromRoot: string;
}

const pathChars = String.raw`[\w.*<>@+/-]`;
const notAfter = String.raw`(?<![\w./@:$-])`;
const rooted = new RegExp(`${notAfter}(?:${rootFolders.map((f) => f.replace(".", "\\.")).join("|")})/${pathChars}*`, "g");
const relative = new RegExp(`${notAfter}\\.\\.?/${pathChars}*`, "g");
const markdownLink = /\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)|^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/g;

/** A token as a path pattern: placeholders become `*`, punctuation after it is dropped. */
function readToken(token: string): string {
  let text = token.replace(/<[^<>/]*>/g, "*");
  // A placeholder with a blank in it: keep the folders before it.
  const open = text.search(/[<>]/);
  if (open >= 0) text = text.slice(0, text.lastIndexOf("/", open) + 1);
  return text.replace(/[.-]+$/, "");
}

/** Rooted tokens (any text), and in source comments the ones relative to the file's folder. */
export function pathTokens(line: string, fileFromRoot: string, { relativeToFile }: { relativeToFile: boolean }): Reference[] {
  const found: Reference[] = [];
  for (const match of line.matchAll(rooted)) found.push({ text: readToken(match[0]), fromRoot: readToken(match[0]) });
  if (relativeToFile) {
    for (const match of line.matchAll(relative)) {
      const text = readToken(match[0]);
      found.push({ text, fromRoot: path.posix.join(path.posix.dirname(fileFromRoot), text) });
    }
  }
  return found.filter((reference) => !/^(?:\.\.?\/)?$/.test(reference.text));
}

/** The local targets of a Markdown line's links, from the document's folder. */
export function markdownTargets(line: string, fileFromRoot: string): Reference[] {
  const found: Reference[] = [];
  for (const match of line.matchAll(markdownLink)) {
    const target = match[1] ?? match[2];
    if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith("#") || target.startsWith("//")) continue;
    const file = decodeURIComponent(target.replace(/[#?].*$/, ""));
    if (file === "") continue;
    const fromRoot = file.startsWith("/") ? file.slice(1) : path.posix.join(path.posix.dirname(fileFromRoot), file);
    found.push({ text: target, fromRoot });
  }
  return found;
}

/** The names in `dir` a glob segment matches (`*`: any characters). */
function matchingNames(dir: string, segment: string): string[] {
  const pattern = new RegExp(`^${segment.split(/\*+/).map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&")).join(".*")}$`);
  try {
    return fs.readdirSync(dir).filter((name) => pattern.test(name));
  } catch {
    return [];
  }
}

/** Whether a path pattern (from `root`) names at least one existing file or folder. */
export function exists(root: string, fromRoot: string): boolean {
  const normal = path.posix.normalize(fromRoot);
  if (normal.startsWith("../")) return false;
  if (generated.some((folder) => normal === folder.slice(0, -1) || normal.startsWith(folder))) return true;
  if (!normal.includes("*")) {
    const file = path.join(root, normal);
    return fs.existsSync(file) || moduleExtensions.some((extension) => fs.existsSync(file + extension));
  }
  let candidates = [root];
  for (const segment of normal.split("/").filter((s) => s !== "")) {
    candidates = candidates.flatMap((dir) =>
      segment.includes("*") ? matchingNames(dir, segment).map((name) => path.join(dir, name)) : [path.join(dir, segment)].filter((p) => fs.existsSync(p)),
    );
  }
  return candidates.length > 0;
}
