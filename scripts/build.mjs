// Bundles the service and the admin command into dist/ with esbuild (a few hundred ms), so
// `npm start` runs plain JavaScript: loading through a TypeScript loader at every start costs
// seconds. Dependencies stay in node_modules. What is bundled, and how: scripts/bundle.mjs.
import path from "node:path";
import { bundleService, repoRoot, writeBundle } from "./bundle.mjs";

const result = await bundleService();
writeBundle(result.outputFiles, path.join(repoRoot, "dist"));
