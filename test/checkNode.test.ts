// The Node.js version check of `npm start` and `npm run admin` (scripts/check-node.mjs): the
// supported lines are package.json's "engines", and any other version is refused with one line.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { repoRoot } from "./support/process";
import { testProvider } from "./support/database";
import { npmStartNode } from "../bench/load/targets";

const sqliteOnly = testProvider === "sqlite" ? describe : describe.skip;
const packageJson = JSON.parse(fs.readFileSync(path.join(repoRoot, "package.json"), "utf8"));

/** The check for `version` (this Node's when omitted), as the npm scripts run it. */
function check(version?: string, env: Record<string, string> = {}) {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
  if (!("ALLOW_UNSUPPORTED_NODE" in env)) delete childEnv.ALLOW_UNSUPPORTED_NODE;
  const result = spawnSync(process.execPath, ["scripts/check-node.mjs", ...(version === undefined ? [] : [version])], {
    cwd: repoRoot,
    env: childEnv,
    encoding: "utf8",
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

sqliteOnly("Node.js version check", () => {
  test.each(["22.15.0", "22.23.3", "24.0.0", "24.21.0", "26.1.0"])("%s (the LTS lines 22 and 24, and newer) runs, silently", (version) => {
    expect(check(version)).toEqual({ status: 0, stdout: "", stderr: "" });
  });

  test.each(["20.20.2", "18.20.8", "22.14.0", "23.11.0"])("%s is refused with one line naming the supported versions", (version) => {
    const run = check(version);
    expect(run.status).toBe(1);
    expect(run.stdout).toBe("");
    const lines = run.stderr.trimEnd().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toBe(
      `Node.js ${version} is not supported: use a version of package.json's "engines", ${packageJson.engines.node}; ` +
        "ALLOW_UNSUPPORTED_NODE=1 starts it anyway, untested.",
    );
  });

  test("ALLOW_UNSUPPORTED_NODE=1 lets an unsupported version run, silently", () => {
    expect(check("20.20.2", { ALLOW_UNSUPPORTED_NODE: "1" })).toEqual({ status: 0, stdout: "", stderr: "" });
  });

  test("a version it cannot read is refused as such (exit 2)", () => {
    expect(check("not-a-version")).toEqual({ status: 2, stdout: "", stderr: 'check-node: cannot read the version "not-a-version"\n' });
  });

  test("without an argument it checks the Node that runs it", () => {
    expect(check()).toEqual(check(process.versions.node));
  });

  test("this Node accepts every flag `npm start` runs the service with (V8's among them)", () => {
    const { flags } = npmStartNode();
    expect(flags).toContain("--no-allocation-site-pretenuring");
    // node refuses an unknown option ("bad option") before running anything.
    const run = spawnSync(process.execPath, [...flags, "-e", "process.stdout.write('ran')"], { encoding: "utf8" });
    expect({ status: run.status, stdout: run.stdout, stderr: run.stderr }).toEqual({ status: 0, stdout: "ran", stderr: "" });
  });

  test("`npm start` and `npm run admin` run the check before building or starting anything", () => {
    expect(packageJson.scripts.start).toMatch(/^node scripts\/check-node\.mjs && /);
    expect(packageJson.scripts.admin).toMatch(/^node scripts\/check-node\.mjs && /);
  });
});
