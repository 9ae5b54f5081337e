// Makes the release folder: the service as `node main.js` and the admin command as
// `node admin.js ...`, started with Node.js alone from any working directory, without the
// repository, its TypeScript sources or its dev dependencies. The systemd unit runs it
// (in deploy/).
//   npm run release                    (writes release/ at the repository's root)
//   npm run release -- --out <dir>     (writes <dir>, relative to where npm was started)
// The folder holds:
//   main.js, admin.js and their source maps   the bundle of scripts/bundle.mjs, as in dist/
//   dashboard/                                the dashboard page, made now (src/dashboard/pageFiles.ts)
//   prisma/<provider>/migrations/             applied at start (src/db/migrate.ts looks beside main.js)
//   package.json, package-lock.json           the production dependencies the bundle loads, no scripts
//   node_modules/                             those, installed by npm from the repository's lockfile
//   deploy/                                   the systemd unit, nginx site, Caddyfile and settings
//                                             file that docs/deployment.md installs from here
//   README.md                                 how to start it
// The folder is made beside its destination under another name and renamed into place, so a
// failed run leaves the old folder as it was.
import fs from "node:fs";
import { isBuiltin } from "node:module";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { parseArgs } from "node:util";
import { tsImport } from "tsx/esm/api";
import { bundleService, repoRoot, writeBundle } from "./bundle.mjs";

/**
 * Dependencies the bundle may load that the release leaves out, with the reason. Dev
 * dependencies are left out too, unnamed here: a bundle that loads one must do without it
 * (pino-pretty: LOG_FORMAT=pretty says what is missing).
 */
const leftOut = {
  esbuild: "makes the dashboard page from its sources at run time; the release carries it made, in dashboard/",
};

/** A reason not to make the folder, said in one line (no stack: nothing is broken). */
class Refusal extends Error {}

const { values: options } = parseArgs({ options: { out: { type: "string" } } });
// npm runs scripts from the repository's root; INIT_CWD is where it was started.
const out = options.out ? path.resolve(process.env.INIT_CWD ?? process.cwd(), options.out) : path.join(repoRoot, "release");
const rootPackage = JSON.parse(fs.readFileSync(path.join(repoRoot, "package.json"), "utf8"));
const lockfile = JSON.parse(fs.readFileSync(path.join(repoRoot, "package-lock.json"), "utf8"));

/** `@scope/name/sub/path` -> `@scope/name`, `name/sub/path` -> `name`. */
function packageNameOf(specifier) {
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
}

/**
 * The packages the bundle loads, from esbuild's metafile: what its output files import, so
 * type-only imports and code left out of the bundle do not count. Each is a dependency of
 * package.json at the version package-lock.json installed.
 */
function productionDependencies(metafile) {
  const names = new Set();
  for (const output of Object.values(metafile.outputs)) {
    for (const imported of output.imports) {
      if (imported.external && !isBuiltin(imported.path)) names.add(packageNameOf(imported.path));
    }
  }
  const dependencies = {};
  for (const name of [...names].sort()) {
    if (name in leftOut || name in (rootPackage.devDependencies ?? {})) continue;
    if (!(name in rootPackage.dependencies)) throw new Refusal(`The bundle loads ${name}, which package.json does not list in "dependencies".`);
    const installed = lockfile.packages[`node_modules/${name}`];
    if (!installed) throw new Refusal(`package-lock.json has no ${name}: run \`npm install\`.`);
    dependencies[name] = installed.version;
  }
  return dependencies;
}

/** The npm this script was started by (`npm run release`), else the one on the PATH. */
function runNpm(args, cwd) {
  const startedBy = process.env.npm_execpath;
  const [command, prefix] = startedBy && /npm-cli\.c?js$/.test(startedBy) ? [process.execPath, [startedBy]] : ["npm", []];
  const result = spawnSync(command, [...prefix, ...args], { cwd, stdio: ["ignore", "inherit", "inherit"] });
  if (result.error) throw result.error;
  if (result.status !== 0) throw new Refusal(`npm ${args.join(" ")} failed (exit ${result.status ?? result.signal}), said above.`);
}

/** An existing folder is only replaced when it is empty or a release (never, say, the repository). */
function assertReplaceable(dir) {
  if (!fs.existsSync(dir) || fs.readdirSync(dir).length === 0) return;
  const manifest = path.join(dir, "package.json");
  const found = fs.existsSync(manifest) ? JSON.parse(fs.readFileSync(manifest, "utf8")) : {};
  const isRelease = fs.existsSync(path.join(dir, "main.js")) && found.name === rootPackage.name && found.scripts === undefined;
  if (!isRelease) throw new Refusal(`${dir} exists and is not a release folder: not replaced.`);
}

async function makeRelease(dir) {
  const bundle = await bundleService();
  writeBundle(bundle.outputFiles, dir);

  const { madePageDir, writePageFiles } = await tsImport("../src/dashboard/pageFiles.ts", import.meta.url);
  await writePageFiles(path.join(dir, madePageDir), path.join(repoRoot, "src", "dashboard", "page"));

  // Only the migrations: src/db/migrate.ts reads nothing else of prisma/ (the generated client
  // is in the bundle).
  const prismaDir = path.join(repoRoot, "prisma");
  for (const provider of fs.readdirSync(prismaDir)) {
    const migrations = path.join(prismaDir, provider, "migrations");
    if (fs.existsSync(migrations)) fs.cpSync(migrations, path.join(dir, "prisma", provider, "migrations"), { recursive: true });
  }

  // What docs/deployment.md installs on the server comes with the release it runs.
  fs.cpSync(path.join(repoRoot, "deploy"), path.join(dir, "deploy"), { recursive: true });

  // No scripts: the repository's postinstall generates the Prisma client, which is in the bundle.
  const manifest = {
    name: rootPackage.name,
    version: rootPackage.version,
    private: true,
    description: rootPackage.description,
    license: rootPackage.license,
    engines: rootPackage.engines,
    dependencies: productionDependencies(bundle.metafile),
  };
  fs.writeFileSync(path.join(dir, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  // The repository's lockfile, which npm prunes to these dependencies: the same versions as the
  // tests ran with, down to the dependencies' own. --ignore-scripts: none of these needs its
  // install script (the repository allows esbuild's only, which is left out); @prisma/client's
  // would try to generate a client. Optional dependencies stay: libsql's native addon is one
  // package per platform, of which npm installs this machine's.
  fs.copyFileSync(path.join(repoRoot, "package-lock.json"), path.join(dir, "package-lock.json"));
  runNpm(["install", "--omit=dev", "--ignore-scripts", "--no-audit", "--no-fund", "--prefer-offline", "--prefix", dir], dir);

  fs.writeFileSync(path.join(dir, "README.md"), readme(manifest));
}

function readme(manifest) {
  return `# Vehicle Records and Duty Time Service ${manifest.version}

This folder is the service, made by \`npm run release\` in its repository. It runs on Node.js
alone (${manifest.engines.node}), from any working directory:

    node main.js                        # the service; applies the database migrations at start
    node admin.js network create --name "Los Santos PD" --identifier-type steam
    node admin.js --help                # the admin command's groups and commands

Settings are environment variables, as the repository's README lists them (Configuration):
\`DATABASE_URL\` or \`DATA_DIR\` (SQLite in \`./data\` by default, relative to the working
directory), \`PORT\`, \`HOST\` and the rest; the admin command needs the same database settings
as the service. The systemd unit in \`deploy/\` runs \`main.js\` with the memory flags it is
measured with; the repository's docs/deployment.md installs it behind nginx or Caddy.

\`node_modules/\` holds the production dependencies installed for ${process.platform}-${process.arch};
on another platform run \`npm ci --omit=dev --ignore-scripts\` in this folder first.
`;
}

const started = Date.now();
try {
  assertReplaceable(out);
  fs.mkdirSync(path.dirname(out), { recursive: true });
  const staging = `${out}.${process.pid}.tmp`;
  const previous = `${out}.${process.pid}.old`;
  try {
    await makeRelease(staging);
    if (fs.existsSync(out)) fs.renameSync(out, previous);
    fs.renameSync(staging, out);
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
    fs.rmSync(previous, { recursive: true, force: true });
  }
} catch (error) {
  if (!(error instanceof Refusal)) throw error;
  console.error(`release: ${error.message}`);
  process.exit(1);
}
const shown = path.relative(process.cwd(), out);
console.log(`Release ${rootPackage.version} made in ${shown.startsWith("..") ? out : shown || "."}/ (${((Date.now() - started) / 1000).toFixed(1)} s)`);
