// Logged stacks name the sources: a bundle built as scripts/bundle.mjs builds it (esbuild, a
// source map beside it) throws in a process of its own, and its stack's bundle positions become
// the source's lines.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { buildSync } from "esbuild";
import { sourceStack } from "../src/server/observability/sourceStack";

const source = ["// first line", "export function inner(): never {", '  throw new Error("boom");', "}", "function outer() {", "  inner();", "}", "try {", "  outer();", "} catch (error) {", "  process.stdout.write((error as Error).stack!);", "}", ""].join("\n");

describe("sourceStack", () => {
  let dir: string;
  let bundle: string;
  let stack: string;

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "source-stack-"));
    fs.mkdirSync(path.join(dir, "src"));
    fs.writeFileSync(path.join(dir, "src", "thrower.ts"), source);
    // A few lines of other code before it, so bundle and source lines differ.
    fs.writeFileSync(path.join(dir, "src", "main.ts"), 'const padding = [1, 2, 3].map((n) => n * 2);\nif (padding.length > 5) console.log(padding);\nimport "./thrower";\n');
    bundle = path.join(dir, "dist", "main.js");
    buildSync({ absWorkingDir: dir, entryPoints: ["src/main.ts"], outfile: bundle, bundle: true, platform: "node", format: "cjs", sourcemap: true, logLevel: "silent" });
    // Node without --enable-source-maps: the stack names the bundle's lines.
    stack = execFileSync(process.execPath, [bundle], { encoding: "utf8", env: { ...process.env, NODE_OPTIONS: "" } });
  });

  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("names the source's lines and columns in place of the bundle's", () => {
    expect(stack).toContain(`${bundle}:`);
    const mapped = sourceStack(stack, bundle);
    const thrower = path.join(dir, "src", "thrower.ts");
    expect(mapped).toContain(`${thrower}:3:9`);
    expect(mapped).toContain(`${thrower}:6:3`);
    expect(mapped).toContain(`${thrower}:9:3`);
    expect(mapped).not.toContain(`${bundle}:`);
    // The message and the frames' names stay.
    expect(mapped.split("\n")[0]).toBe("Error: boom");
    expect(mapped).toMatch(/at inner \(/);
  });

  it("leaves a stack as it is when the bundle has no map beside it", () => {
    const unmapped = path.join(dir, "dist", "unmapped.js");
    const stackThere = stack.replaceAll(bundle, unmapped);
    expect(sourceStack(stackThere, unmapped)).toBe(stackThere);
  });

  it("leaves positions in other files as they are", () => {
    const other = "Error: x\n    at f (/somewhere/else.js:10:5)";
    expect(sourceStack(other, bundle)).toBe(other);
  });
});
