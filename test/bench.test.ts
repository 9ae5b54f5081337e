// Smoke run of the benchmark on a small data set, so the bench cannot rot. It checks that the
// bench works and reports every scenario; it asserts nothing about speed.
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { temporaryDir, testProvider } from "./support/database";
import { repoRoot } from "./support/process";

const sqliteOnly = testProvider === "sqlite" ? test : test.skip;

sqliteOnly(
  "npm run bench on a small data set measures every scenario of the service and the floor",
  async () => {
    const out = path.join(temporaryDir(), "bench.md");
    await promisify(execFile)(
      "npm",
      ["run", "--silent", "bench", "--", "--size", "small", "--duration", "1", "--connections", "2", "--targets", "service,floor", "--out", out],
      { cwd: repoRoot, maxBuffer: 20 * 1024 * 1024 },
    );
    const report = fs.readFileSync(out, "utf8");
    const rows = report.split("\n").filter((line) => /^\| (list|search|sort|get|create|patch|dutytime|statistics|GraphQL)/.test(line));
    expect(rows).toHaveLength(19);
    for (const row of rows) {
      const cells = row.split("|").map((cell) => cell.trim());
      // service req/s and floor req/s: numbers, with no failed requests.
      expect(cells[2]).toMatch(/^\d+$/);
      expect(cells[5]).toMatch(/^\d+$/);
    }
    expect(report).toMatch(/\| peak RSS \(MB\) \| \d+ /);
    expect(report).toContain("## Targets (issue 4)");
  },
  240_000,
);
