// The layers of the bench's cost table (bench/layers/layers.ts) and how a CPU profile is split
// among them (bench/layers/attribute.ts). Generated from the source tree: a file added under src/
// without a layer, or a layer naming a file that is gone, fails here. No database: the SQLite
// project runs it once. (The bench's smoke test, test/bench.test.ts, runs the whole part.)
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { layerFiles, layerFunctions, layerNames, layerOfFile, layerOfPackage, notInTheService } from "../bench/layers/layers";
import { layerTimes, type CpuProfile } from "../bench/layers/attribute";
import { temporaryDir, testProvider } from "./support/database";
import { repoRoot } from "./support/process";

const sqliteOnly = testProvider === "sqlite" ? describe : describe.skip;

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(path.join(repoRoot, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = `${dir}/${entry.name}`;
    return entry.isDirectory() ? sourceFiles(relative) : /\.(ts|mjs|js)$/.test(entry.name) ? [relative] : [];
  });
}

/** A profile of one stack per sample: each stack is its frames from the root down, each sample lasting `us`. */
function profileOf(stacks: { frames: { functionName: string; url: string }[]; us: number }[]): CpuProfile {
  const nodes: CpuProfile["nodes"] = [{ id: 1, callFrame: { functionName: "(root)", url: "", lineNumber: -1, columnNumber: -1 }, children: [] }];
  const samples: number[] = [];
  const timeDeltas: number[] = [0];
  for (const { frames, us } of stacks) {
    let parent = nodes[0];
    for (const frame of frames) {
      const node = { id: nodes.length + 1, callFrame: { ...frame, lineNumber: 0, columnNumber: 0 }, children: [] as number[] };
      nodes.push(node);
      parent.children!.push(node.id);
      parent = node;
    }
    samples.push(parent.id);
    timeDeltas.push(us);
  }
  // The last sample's time is the delta after it: one more, idle.
  samples.push(1);
  return { nodes, samples, timeDeltas, startTime: 0, endTime: 0 };
}

const src = (file: string, functionName = "f") => ({ functionName, url: pathToFileURL(path.join(repoRoot, file)).href });
const pkg = (name: string, functionName = "g") => ({ functionName, url: pathToFileURL(path.join(repoRoot, "node_modules", name, "index.js")).href });
const node = (module: string, functionName = "h") => ({ functionName, url: `node:${module}` });
const v8 = (functionName: string) => ({ functionName, url: "" });

sqliteOnly("the layers of the cost table", () => {
  test("every file under src/ belongs to a layer", () => {
    const files = sourceFiles("src");
    expect(files.length).toBeGreaterThan(100);
    expect(files.filter((file) => layerOfFile(file) === null && !notInTheService.some((folder) => file.startsWith(folder)))).toEqual([]);
  });

  test("every file, folder and package a layer names exists", () => {
    const named = [...layerFiles.flatMap((entry) => entry.files), ...layerFunctions.map((entry) => entry.file), ...notInTheService];
    expect(named.filter((file) => !fs.existsSync(path.join(repoRoot, file)))).toEqual([]);
    const packages = layerFiles.flatMap((entry) => entry.packages ?? []);
    // Installed (the service's own, or pulled in by one): a renamed or dropped package is noticed.
    const lock = JSON.parse(fs.readFileSync(path.join(repoRoot, "package-lock.json"), "utf8")) as { packages: Record<string, unknown> };
    expect(packages.filter((name) => !Object.keys(lock.packages).some((key) => key === `node_modules/${name}` || key.startsWith(`node_modules/${name}/`)))).toEqual([]);
    for (const entry of [...layerFiles, ...layerFunctions]) expect(layerNames).toContain(entry.layer);
  });

  test("an exact file wins over its folder, a function over its file", () => {
    expect(layerOfFile("src/db/vehicles/reads.ts")).toBe("database (stores, SQL, driver)");
    expect(layerOfFile("src/db/events.ts")).toBe("event write");
    expect(layerOfFile("src/rest/router.ts")).toBe("routing (app, REST routes, variables)");
    expect(layerOfFile("src/rest/responses.ts")).toBe("serialization (JSON of the answer)");
    expect(layerOfFile("src/server/app.ts", "route")).toBe("routing (app, REST routes, variables)");
    expect(layerOfFile("src/server/app.ts", "admit")).toBe("admission (API key, rate limit, CORS)");
    expect(layerOfPackage("pg")).toBe("database (stores, SQL, driver)");
    expect(layerOfPackage("left-pad")).toBeNull();
  });

  test("a sample is charged to its innermost project frame, else package, else node's or V8's own", () => {
    const http = [node("_http_server", "parserOnIncoming")];
    const admitting = [...http, src("src/server/app.ts", "handle"), src("src/server/app.ts", "admit")];
    const profile = profileOf([
      // A page's read, called by its resolver: the database's work.
      { frames: [...http, src("src/resolvers/vehicles.ts"), src("src/db/vehicles/reads.ts"), pkg("libsql")], us: 100 },
      // Admission's own code (a crypto hash it calls from node).
      { frames: [...admitting, node("crypto", "createHash")], us: 20 },
      // A page's JSON text, written by SOFA's runner.
      { frames: [...http, src("src/rest/sofa.ts", "run")], us: 30 },
      // The request log's line, pino below it.
      { frames: [...http, src("src/server/observability/requestLog.ts"), pkg("pino")], us: 7 },
      // A driver callback from the event loop, no project frame above.
      { frames: [node("net", "onStreamRead"), pkg("pg-protocol")], us: 11 },
      // node's HTTP parser alone.
      { frames: [...http, node("_http_incoming", "_addHeaderLine")], us: 13 },
      { frames: [v8("(garbage collector)")], us: 5 },
      { frames: [v8("(program)")], us: 3 },
      { frames: [v8("(idle)")], us: 1000 },
    ]);
    const { byLayer, busyUs, unassigned } = layerTimes(profile, repoRoot);
    expect(Object.fromEntries(byLayer)).toEqual({
      "database (stores, SQL, driver)": 111,
      "admission (API key, rate limit, CORS)": 20,
      "serialization (JSON of the answer)": 30,
      "request log": 7,
      "HTTP (node's server: parse, write)": 13,
      "garbage collection (main thread)": 5,
      "other (V8, native, unattributed)": 3,
    });
    expect(busyUs).toBe(189);
    expect([...unassigned]).toEqual([]);
  });

  test("a frame of the bundle is placed by its source map", () => {
    // A bundle of two functions from two files, with the map esbuild would write beside it.
    const root = temporaryDir("vrd-layers-");
    const bundle = path.join(root, "dist", "main.js");
    fs.mkdirSync(path.dirname(bundle));
    fs.writeFileSync(bundle, "function a(){}\nfunction b(){}\n");
    // Line 0 comes from src/server/keyFairness.ts, line 1 from src/db/client.ts ("AAAA": all 0; "ACAA": the next source).
    const map = { version: 3, sources: ["../src/server/keyFairness.ts", "../src/db/client.ts"], names: [], mappings: "AAAA;ACAA" };
    fs.writeFileSync(`${bundle}.map`, JSON.stringify(map));
    const url = pathToFileURL(bundle).href;
    const profile = profileOf([
      { frames: [{ functionName: "a", url }], us: 4 },
      { frames: [{ functionName: "b", url }], us: 6 },
    ]);
    profile.nodes[2].callFrame.lineNumber = 1;
    const { byLayer } = layerTimes(profile, root);
    expect(Object.fromEntries(byLayer)).toEqual({ "fairness (per-key queue)": 4, "database (stores, SQL, driver)": 6 });
  });
});
