// Serves the dashboard page: GET /dashboard (the HTML) and /dashboard/assets/dashboard.js and
// dashboard.css. Like /docs it needs no API key: the page asks for one and sends it with each
// GraphQL operation, the only thing it calls. Nothing is loaded from elsewhere, and the page has
// no inline script or style, so its Content-Security-Policy allows this origin only. A copy of
// the three files on another site calls the service its <meta name="vrd-api"> names, with a key
// that lists that site's origin (docs/dashboards.md).
//
// The page's TypeScript (src/dashboard/page/) is bundled with esbuild's build API into memory
// (src/dashboard/pageFiles.ts) on the first request of a dashboard path, once per process, and
// kept: the HTML, one script, one stylesheet, some tens of kilobytes. Not at build time into
// dist/, because the tests run the service from its TypeScript sources (ts-jest, tsx) without
// scripts/build.mjs; this way `npm start` and the tests serve the same bundle, never a stale
// one. Requests arriving during the build (about 100 ms) wait for the same build.
// esbuild is on hand at run time: tsx, a dependency, runs on it; scripts/build.mjs uses it too.
// The release folder has neither the sources nor esbuild: scripts/release.mjs makes the files
// when it makes the folder and puts them in dashboard/ beside main.js, which are read instead.
import path from "node:path";
import { madePageDir, makePageFiles, readPageFiles, type PageFile } from "./pageFiles";
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

type Files = Record<PageFile, Asset>;

/** The made files beside the bundle (a release folder) or, where there are none, made now. */
async function loadFiles(): Promise<Files> {
  const texts = (await readPageFiles(path.join(__dirname, madePageDir))) ?? (await makePageFiles());
  return {
    page: { body: texts.page, contentType: "text/html; charset=utf-8" },
    script: { body: texts.script, contentType: "text/javascript; charset=utf-8" },
    style: { body: texts.style, contentType: "text/css; charset=utf-8" },
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
    const building = loadFiles();
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
