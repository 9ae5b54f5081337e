// The esbuild bundle of the service and the admin command, in one place for the two folders that
// run it: dist/ (scripts/build.mjs, for `npm start`) and the release folder (scripts/release.mjs).
// Dependencies stay external (`packages: "external"`): they load from a node_modules/ beside the
// bundle, and the metafile says which ones the bundle asks for, from which the release takes its
// production dependencies.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** The bundle's files, main.js and admin.js with their source maps, in memory, and the metafile. */
export function bundleService() {
  return build({
    // Paths from the repository, wherever the script is started from.
    absWorkingDir: repoRoot,
    entryPoints: { main: "src/main.ts", admin: "src/admin/main.ts" },
    // Always laid out as dist/, also for the release: the source maps then name the sources
    // src/..., one folder up from the bundle, in both.
    outdir: "dist",
    bundle: true,
    platform: "node",
    target: "node20",
    format: "cjs",
    packages: "external",
    sourcemap: true,
    metafile: true,
    logLevel: "warning",
    write: false,
  });
}

/**
 * Writes the bundle's files into a folder. Each is written under a temporary name and renamed,
 * so commands starting at the same moment never load a half-written bundle.
 */
export function writeBundle(outputFiles, dir) {
  fs.mkdirSync(dir, { recursive: true });
  for (const file of outputFiles) {
    const target = path.join(dir, path.basename(file.path));
    const temporary = `${target}.${process.pid}.tmp`;
    fs.writeFileSync(temporary, file.contents);
    fs.renameSync(temporary, target);
  }
}
