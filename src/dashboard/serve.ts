// Serves the dashboard page: GET /dashboard (the HTML) and /dashboard/assets/dashboard.js and
// dashboard.css. Like /docs it needs no API key: the page asks for one and sends it with each
// GraphQL operation, the only thing it calls. Nothing is loaded from elsewhere, and the page has
// no inline script or style, so its Content-Security-Policy allows this origin only. A copy of
// the three files on another site calls the service its <meta name="vrd-api"> names, with a key
// that lists that site's origin (docs/dashboards.md).
//
// The page's TypeScript (src/dashboard/page/) is bundled with esbuild's build API into memory
// (write: false) on the first request of a dashboard path, once per process, and kept: the
// HTML, one script, one stylesheet, some tens of kilobytes. Not at build time into dist/,
// because the tests run the service from its TypeScript sources (ts-jest, tsx) without
// scripts/build.mjs; this way `npm start` and the tests serve the same bundle, never a stale
// one. The build runs in esbuild's own process, off the event loop, and takes about 100 ms;
// requests arriving meanwhile wait for the same build, and that process is ended after it.
// esbuild is on hand at run time: tsx, a dependency, runs on it; scripts/build.mjs uses it too.
import fs from "node:fs";
import path from "node:path";
import { errorJson, onlyFetchMethods, toResponse } from "../rest/responses";
import { Response } from "@whatwg-node/fetch";

export const isDashboardPath = (pathname: string) => pathname === "/dashboard" || pathname.startsWith("/dashboard/");

const assetsPath = "/dashboard/assets/";

/** What the page's HTML may load: its own script and stylesheet, GraphQL on this origin. */
const contentSecurityPolicy = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  // The page's <link rel="icon" href="data:,">: no favicon request.
  "img-src 'self' data:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

interface Asset {
  body: string;
  contentType: string;
}

type Files = Record<"page" | "script" | "style", Asset>;

/** The folder of the page's sources, from src/dashboard/ when run as TypeScript or dist/ when built. */
function findPageDir(): string {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, "src", "dashboard", "page");
    if (fs.existsSync(path.join(candidate, "main.ts"))) return candidate;
    if (path.dirname(dir) === dir) throw new Error("src/dashboard/page/ not found");
  }
}

async function bundle(): Promise<Files> {
  const pageDir = findPageDir();
  // Loaded here, not at start: a process that never serves the page never loads esbuild.
  const { build, stop } = await import("esbuild");
  // esbuild's service process (some 12 MB) would otherwise idle for the process's lifetime.
  const result = await build({
    entryPoints: [
      { in: path.join(pageDir, "main.ts"), out: "dashboard" },
      { in: path.join(pageDir, "style.css"), out: "dashboard" },
    ],
    outdir: path.join(pageDir, "out"),
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
    page: { body: await fs.promises.readFile(path.join(pageDir, "index.html"), "utf8"), contentType: "text/html; charset=utf-8" },
    script: { body: output(".js"), contentType: "text/javascript; charset=utf-8" },
    style: { body: output(".css"), contentType: "text/css; charset=utf-8" },
  };
}

let built: Promise<Files> | null = null;

/** A failed build is answered as failed this long before a request may try again. */
const retryAfterFailureMs = 60_000;

/**
 * The bundle, built on first use; one build runs at a time. A failed one (a broken install) is
 * tried again only after a while: requests without a key may not start a build each.
 */
function files(): Promise<Files> {
  if (!built) {
    const building = bundle();
    built = building;
    building.catch(() => setTimeout(() => built === building && (built = null), retryAfterFailureMs).unref());
  }
  return built;
}

/** Which file a path names, or null when it names none (so an unknown path builds nothing). */
function fileAt(pathname: string): keyof Files | null {
  if (pathname === "/dashboard" || pathname === "/dashboard/") return "page";
  if (pathname === `${assetsPath}dashboard.js`) return "script";
  if (pathname === `${assetsPath}dashboard.css`) return "style";
  return null;
}

/** Answers every path isDashboardPath accepts; GET and HEAD only (the app drops HEAD bodies). */
export async function serveDashboard(method: string, url: URL): Promise<Response> {
  const name = fileAt(url.pathname);
  if (!name) return toResponse(errorJson(404, "Not Found."));
  const refused = onlyFetchMethods(method);
  if (refused) return toResponse(refused);
  const asset = (await files())[name];
  const headers: Record<string, string> = {
    "Content-Type": asset.contentType,
    // Unversioned names: the browser asks again each time and gets the current deploy's files.
    "Cache-Control": "no-cache",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
  };
  if (name === "page") headers["Content-Security-Policy"] = contentSecurityPolicy;
  return new Response(asset.body, { status: 200, headers });
}
