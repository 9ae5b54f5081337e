// The dashboard page's three files (the HTML, one script, one stylesheet), made from its sources
// in src/dashboard/page/ with esbuild, or read where they were written made: the release folder
// carries them in dashboard/ beside main.js (scripts/release.mjs writes them with writePageFiles),
// as it carries neither the sources nor esbuild.
import fs from "node:fs";
import path from "node:path";

export type PageFile = "page" | "script" | "style";

export type PageFiles = Record<PageFile, string>;

/** The folder of made files beside the bundle, and each file's name in it. */
export const madePageDir = "dashboard";
const madeFileNames: PageFiles = { page: "index.html", script: "dashboard.js", style: "dashboard.css" };

/** The folder of the page's sources, from src/dashboard/ when run as TypeScript or dist/ when built. */
export function findPageSources(): string {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, "src", "dashboard", "page");
    if (fs.existsSync(path.join(candidate, "main.ts"))) return candidate;
    if (path.dirname(dir) === dir) throw new Error("src/dashboard/page/ not found");
  }
}

/**
 * Bundles the page's script and stylesheet from its sources with esbuild's build API into memory
 * (write: false). The build runs in esbuild's own process, off the event loop, some 100 ms.
 */
export async function makePageFiles(sources: string = findPageSources()): Promise<PageFiles> {
  // Loaded here, not at start: a process that never serves the page never loads esbuild.
  const { build, stop } = await import("esbuild");
  // esbuild's service process (some 12 MB) would otherwise idle for the process's lifetime.
  const result = await build({
    entryPoints: [
      { in: path.join(sources, "main.ts"), out: "dashboard" },
      { in: path.join(sources, "style.css"), out: "dashboard" },
    ],
    outdir: path.join(sources, "out"),
    bundle: true,
    platform: "browser",
    format: "iife",
    target: "es2020",
    charset: "utf8",
    write: false,
    logLevel: "silent",
  }).finally(stop);
  const output = (extension: string) => {
    const file = result.outputFiles.find((each) => each.path.endsWith(extension));
    if (!file) throw new Error(`esbuild wrote no ${extension} for the dashboard`);
    return file.text;
  };
  return {
    page: await fs.promises.readFile(path.join(sources, "index.html"), "utf8"),
    script: output(".js"),
    style: output(".css"),
  };
}

/** Makes the files from the sources and writes them into `dir` (created). */
export async function writePageFiles(dir: string, sources?: string): Promise<void> {
  const files = await makePageFiles(sources);
  await fs.promises.mkdir(dir, { recursive: true });
  for (const name of Object.keys(madeFileNames) as PageFile[]) {
    await fs.promises.writeFile(path.join(dir, madeFileNames[name]), files[name]);
  }
}

/** The files written by writePageFiles into `dir`, or null when `dir` does not exist. */
export async function readPageFiles(dir: string): Promise<PageFiles | null> {
  if (!fs.existsSync(dir)) return null;
  const read = (name: PageFile) => fs.promises.readFile(path.join(dir, madeFileNames[name]), "utf8");
  const [page, script, style] = await Promise.all([read("page"), read("script"), read("style")]);
  return { page, script, style };
}
