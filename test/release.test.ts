// The release folder (`npm run release`, scripts/release.mjs) run as an operator runs it: copied
// to a temporary folder with no node_modules/ above it and no repository beside it, started with
// the Node.js running these tests (CI runs them on each supported line), from another working
// directory, with an environment holding the database setting only. Whatever the bundle loads
// that the folder lacks fails here: a dependency the metafile did not name, a file read beside
// the sources, a dev dependency.
//
// Making the folder takes some seconds (npm installs its dependencies, from npm's cache when it
// can): it is made once for a state of its inputs and kept in the system's temporary folder, so
// the two database projects and later runs on the same sources copy the same one.
import { spawn, spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { freshDatabase, temporaryDir, type FreshDatabase } from "./support/database";
import { finished, freePort, repoRoot, serviceListening } from "./support/process";
import { client } from "./support/http";

/** What a release is made of: when none of it changed, a folder made before is this one. */
const releaseInputs = ["src", "prisma", "scripts", "deploy", "package.json", "package-lock.json", "tsconfig.json"];

function filesUnder(relative: string): string[] {
  const absolute = path.join(repoRoot, relative);
  if (!fs.statSync(absolute).isDirectory()) return [relative];
  return fs
    .readdirSync(absolute)
    .sort()
    .flatMap((name) => filesUnder(path.join(relative, name)));
}

function releaseKey(): string {
  const hash = crypto.createHash("sha256").update(process.version);
  for (const file of releaseInputs.flatMap(filesUnder)) hash.update(`\0${file}\0`).update(fs.readFileSync(path.join(repoRoot, file)));
  return hash.digest("hex").slice(0, 16);
}

/** Every folder this test makes in the system's temporary folder starts with this. */
const tmpPrefix = "vrd-release-";

/**
 * What earlier runs left (some 200 MB a folder): release folders made for other inputs, copies a
 * killed run did not remove. A run uses what it made or reused within seconds (and touches a
 * reused one), so what is ten minutes old is no run's.
 */
function removeStaleFolders(keep: string) {
  const staleBefore = Date.now() - 10 * 60 * 1000;
  for (const name of fs.readdirSync(os.tmpdir())) {
    const folder = path.join(os.tmpdir(), name);
    if (!name.startsWith(tmpPrefix) || folder === keep || folder.startsWith(`${keep}.`)) continue;
    const modified = fs.statSync(folder, { throwIfNoEntry: false })?.mtimeMs;
    if (modified !== undefined && modified < staleBefore) fs.rmSync(folder, { recursive: true, force: true });
  }
}

/** Whether the process that took the lock is gone (a lock without a pid yet is being taken). */
function abandoned(lock: string): boolean {
  let holder: number;
  try {
    holder = Number(fs.readFileSync(path.join(lock, "pid"), "utf8"));
  } catch {
    return false;
  }
  try {
    process.kill(holder, 0);
    return false;
  } catch {
    return true;
  }
}

/**
 * The release folder for the repository as it is, made by `node scripts/release.mjs --out`
 * unless a folder for the same inputs exists. One process makes it (a lock folder holding its
 * pid); another waits for it, or takes over when that one died.
 */
async function madeRelease(): Promise<string> {
  const folder = path.join(os.tmpdir(), `${tmpPrefix}made-${releaseKey()}`);
  const lock = `${folder}.lock`;
  for (;;) {
    // scripts/release.mjs renames the folder into place when it is complete.
    if (fs.existsSync(path.join(folder, "package.json"))) {
      const now = new Date();
      fs.utimesSync(folder, now, now);
      return folder;
    }
    try {
      fs.mkdirSync(lock);
    } catch {
      if (abandoned(lock)) fs.rmSync(lock, { recursive: true, force: true });
      else await new Promise((resolve) => setTimeout(resolve, 250));
      continue;
    }
    try {
      fs.writeFileSync(path.join(lock, "pid"), String(process.pid));
      removeStaleFolders(folder);
      const made = spawnSync(process.execPath, ["scripts/release.mjs", "--out", folder], { cwd: repoRoot, encoding: "utf8", timeout: 200_000 });
      if (made.status !== 0) throw new Error(`scripts/release.mjs failed (${made.status ?? made.signal}):\n${made.stdout}${made.stderr}`);
      return folder;
    } finally {
      fs.rmSync(lock, { recursive: true, force: true });
    }
  }
}

/** The environment the release runs with: the database, nothing of this process's. */
function releaseEnv(db: FreshDatabase, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { DATABASE_URL: db.url, HOME: os.tmpdir(), ...extra };
}

function runRelease(app: string, args: string[], cwd: string, env: NodeJS.ProcessEnv) {
  return finished(spawn(process.execPath, [path.join(app, args[0]), ...args.slice(1)], { cwd, env }));
}

let copyRoot: string;
let app: string;
let cwd: string;
let db: FreshDatabase;

beforeAll(async () => {
  const folder = await madeRelease();
  copyRoot = temporaryDir(`${tmpPrefix}copy-`);
  app = path.join(copyRoot, "app");
  // verbatimSymlinks: node_modules/.bin links stay relative, pointing into the copy.
  fs.cpSync(folder, app, { recursive: true, verbatimSymlinks: true });
  cwd = temporaryDir(`${tmpPrefix}cwd-`);
  db = await freshDatabase();
}, 240_000);

afterAll(async () => {
  await db?.drop();
  for (const dir of [copyRoot, cwd]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

test("the folder holds the bundle, the migrations, the made dashboard page and the production dependencies only", () => {
  expect(fs.readdirSync(app).sort()).toEqual([
    "README.md",
    "admin.js",
    "admin.js.map",
    "dashboard",
    "deploy",
    "main.js",
    "main.js.map",
    "node_modules",
    "package-lock.json",
    "package.json",
    "prisma",
  ]);
  // Nothing above the copy that Node.js would look in for a package.
  for (let dir = copyRoot; ; dir = path.dirname(dir)) {
    expect([dir, fs.existsSync(path.join(dir, "node_modules"))]).toEqual([dir, false]);
    if (path.dirname(dir) === dir) break;
  }

  const rootPackage = JSON.parse(fs.readFileSync(path.join(repoRoot, "package.json"), "utf8"));
  const lock = JSON.parse(fs.readFileSync(path.join(repoRoot, "package-lock.json"), "utf8"));
  const manifest = JSON.parse(fs.readFileSync(path.join(app, "package.json"), "utf8"));
  expect(manifest).toMatchObject({ name: rootPackage.name, version: rootPackage.version, engines: rootPackage.engines });
  expect(manifest.scripts).toBeUndefined();
  for (const [name, version] of Object.entries(manifest.dependencies)) {
    expect(rootPackage.dependencies).toHaveProperty([name]);
    expect(version).toBe(lock.packages[`node_modules/${name}`].version);
  }
  // Build tools and dev dependencies: the bundle needs none of them.
  for (const absent of ["esbuild", "tsx", "typescript", "prisma", "@prisma/engines", "jest", "ts-jest", "pino-pretty", "eslint"]) {
    expect([absent, fs.existsSync(path.join(app, "node_modules", absent))]).toEqual([absent, false]);
  }
  for (const provider of ["sqlite", "postgresql"]) {
    const shipped = (dir: string) => fs.readdirSync(path.join(dir, "prisma", provider, "migrations")).sort();
    expect(shipped(app)).toEqual(shipped(repoRoot));
  }
  expect(fs.readdirSync(path.join(app, "dashboard")).sort()).toEqual(["dashboard.css", "dashboard.js", "index.html"]);
});

test(`on Node.js ${process.versions.node}: admin.js creates a network and main.js serves it, the dashboard, the docs and GraphiQL, then stops on SIGTERM`, async () => {
  const created = await runRelease(app, ["admin.js", "network", "create", "--name", "Release PD", "--identifier-type", "steam"], cwd, releaseEnv(db));
  expect({ code: created.code, stderr: created.stderr }).toEqual({ code: 0, stderr: "" });
  const { network, apiKey } = JSON.parse(created.stdout);
  expect(network).toMatchObject({ name: "Release PD", identifierType: "steam" });
  expect(apiKey).toEqual(expect.any(String));

  const port = await freePort();
  const child = spawn(process.execPath, [path.join(app, "main.js")], {
    cwd,
    env: releaseEnv(db, { HOST: "127.0.0.1", PORT: String(port) }),
    stdio: ["ignore", "pipe", "pipe"],
  });
  const service = await serviceListening(child, port);
  let exitCode: number | null;
  try {
    const api = client(service.url, apiKey);
    const posted = await api.post("/vehicles", { plate: "RL-1", cartyp: "Vapid" });
    expect(posted.status).toBe(201);
    const listed = await api.get("/vehicles");
    expect(listed.status).toBe(200);
    expect(listed.body.data).toEqual([posted.body.data]);

    // The pages and their assets: each read from the folder (dashboard/, swagger-ui-dist,
    // GraphiQL's renderer), not from the repository.
    const page = async (pathname: string, accept = "*/*") => {
      const response = await fetch(service.url + pathname, { headers: { Accept: accept } });
      return { status: response.status, type: response.headers.get("content-type"), body: await response.text() };
    };
    const dashboardScript = await page("/dashboard/assets/dashboard.js");
    expect(dashboardScript).toMatchObject({ status: 200, type: "text/javascript; charset=utf-8" });
    expect(dashboardScript.body).toBe(fs.readFileSync(path.join(app, "dashboard", "dashboard.js"), "utf8"));
    expect(await page("/dashboard")).toMatchObject({ status: 200, type: "text/html; charset=utf-8", body: expect.stringContaining("/dashboard/assets/dashboard.js") });
    expect(await page("/docs")).toMatchObject({ status: 200, type: "text/html; charset=utf-8" });
    expect(await page("/docs/assets/swagger-ui-bundle.js")).toMatchObject({ status: 200, body: expect.stringContaining("SwaggerUIBundle") });
    const openapi = await page("/openapi.json");
    expect(openapi.status).toBe(200);
    expect(JSON.parse(openapi.body)).toMatchObject({ openapi: expect.any(String), paths: expect.objectContaining({ "/vehicles": expect.any(Object) }) });
    expect(await page("/graphql", "text/html")).toMatchObject({ status: 200, type: "text/html; charset=utf-8", body: expect.stringContaining("GraphiQL") });
  } finally {
    exitCode = await service.stop("SIGTERM");
  }
  expect(exitCode).toBe(0);
});
