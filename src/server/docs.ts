// The browsable API docs at /docs: Swagger UI served from the swagger-ui-dist package, so the
// page works without internet (the stock page loads its assets from a CDN and stays blank).
// No inline script: the page's own start-up code is a served file, so a strict CSP can be added.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { errorJson, onlyFetchMethods, toResponse } from "../rest/responses";
import { otherMethodsTag } from "../rest/openapi/paths";
import { Response } from "@whatwg-node/fetch";

const assetsPath = "/docs/assets/";

/** Directory of swagger-ui-dist (its package.json has no "exports", so this resolves). */
const distDir = path.dirname(require.resolve("swagger-ui-dist/package.json"));

/** The only files served from the package, with their Content-Type. */
const distFiles: Record<string, string> = {
  "swagger-ui.css": "text/css; charset=utf-8",
  "index.css": "text/css; charset=utf-8",
  "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
  "swagger-ui-standalone-preset.js": "text/javascript; charset=utf-8",
  "favicon-32x32.png": "image/png",
  "favicon-16x16.png": "image/png",
};

/**
 * Starts Swagger UI on /openapi.json. validatorUrl null: the default sends the document's URL
 * to validator.swagger.io, which leaks it and fails offline. persistAuthorization keeps the
 * entered API key across reloads (in the browser's localStorage). The document lists its tags
 * in the order Swagger UI shows them, the tag of the methods a path does not serve (405) last;
 * docExpansion "list" (the default) opens every tag, so once the document is shown (onComplete)
 * that one is closed, unless the page was opened on a link into it (deepLinking's #/tag/...).
 */
const initializer = `window.addEventListener("load", function () {
  var collapsedTag = ${JSON.stringify(otherMethodsTag.name)};
  window.ui = SwaggerUIBundle({
    url: "/openapi.json",
    dom_id: "#swagger-ui",
    deepLinking: true,
    docExpansion: "list",
    persistAuthorization: true,
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    plugins: [SwaggerUIBundle.plugins.DownloadUrl],
    layout: "StandaloneLayout",
    onComplete: function () {
      var linked = decodeURIComponent(window.location.hash.replace(/^#\\/?/, "")).split("/")[0];
      if (linked !== collapsedTag) window.ui.layoutActions.show(["operations-tag", collapsedTag], false);
    },
  });
});
`;

const page = `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>Vehicle Records and Duty Time Service: REST API</title>
    <link rel="stylesheet" href="${assetsPath}swagger-ui.css">
    <link rel="stylesheet" href="${assetsPath}index.css">
    <link rel="icon" type="image/png" href="${assetsPath}favicon-32x32.png" sizes="32x32">
    <link rel="icon" type="image/png" href="${assetsPath}favicon-16x16.png" sizes="16x16">
  </head>
  <body>
    <div id="swagger-ui"></div>
    <script src="${assetsPath}swagger-ui-bundle.js" charset="utf-8"></script>
    <script src="${assetsPath}swagger-ui-standalone-preset.js" charset="utf-8"></script>
    <script src="${assetsPath}swagger-initializer.js" charset="utf-8"></script>
  </body>
</html>
`;

interface Asset {
  body: Uint8Array<ArrayBuffer> | string;
  contentType: string;
  /** The page may change with a deploy; the package files only with a new package version. */
  cacheControl: string;
}

const assetCache = "public, max-age=86400";

/** Package files, each read from disk once, on first request. */
const loaded = new Map<string, Promise<Asset>>();

function distAsset(name: string): Promise<Asset> {
  let asset = loaded.get(name);
  if (!asset) {
    asset = readFile(path.join(distDir, name)).then(
      (bytes) => ({ body: new Uint8Array(bytes), contentType: distFiles[name], cacheControl: assetCache }),
    );
    // A failed read is not remembered: the next request tries again.
    asset.catch(() => loaded.delete(name));
    loaded.set(name, asset);
  }
  return asset;
}

/** How to load the asset at a /docs path, or null when the path is not one we serve. */
function assetAt(pathname: string): (() => Promise<Asset> | Asset) | null {
  if (pathname === "/docs" || pathname === "/docs/") {
    return () => ({ body: page, contentType: "text/html; charset=utf-8", cacheControl: "no-cache" });
  }
  if (!pathname.startsWith(assetsPath)) return null;
  const name = pathname.slice(assetsPath.length);
  if (name === "swagger-initializer.js") {
    return () => ({ body: initializer, contentType: "text/javascript; charset=utf-8", cacheControl: "no-cache" });
  }
  // Own-property lookup against the allow-list: no path from the request reaches the disk.
  return Object.prototype.hasOwnProperty.call(distFiles, name) ? () => distAsset(name) : null;
}

/** Answers /docs, /docs/ and /docs/assets/...; GET and HEAD only (the app drops HEAD bodies). */
export async function serveDocs(method: string, url: URL): Promise<Response> {
  const load = assetAt(url.pathname);
  if (!load) return toResponse(errorJson(404, "Not Found."));
  const refused = onlyFetchMethods(method);
  if (refused) return toResponse(refused);
  const asset = await load();
  return new Response(asset.body, {
    status: 200,
    headers: {
      "Content-Type": asset.contentType,
      "Cache-Control": asset.cacheControl,
      "X-Content-Type-Options": "nosniff",
    },
  });
}
