// Bundles the service and the admin command into dist/ with esbuild (a few hundred ms), so
// `npm start` runs plain JavaScript: loading through a TypeScript loader at every start costs
// seconds. Dependencies stay in node_modules. Each file is written under a temporary name and
// renamed, so commands starting at the same moment never load a half-written bundle.
import fs from "node:fs";
import { build } from "esbuild";

const result = await build({
  entryPoints: { main: "src/main.ts", admin: "src/admin/main.ts" },
  outdir: "dist",
  bundle: true,
  platform: "node",
  target: "node20",
  format: "cjs",
  packages: "external",
  sourcemap: true,
  logLevel: "warning",
  write: false,
});

fs.mkdirSync("dist", { recursive: true });
for (const file of result.outputFiles) {
  const temporary = `${file.path}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, file.contents);
  fs.renameSync(temporary, file.path);
}
