// Smoke run of the observability bench on a small data set, so it cannot rot: both services
// measured in every scenario, the criterion checked for each, and the observed service's metrics
// shown to be on. It asserts nothing about speed.
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { temporaryDir, testProvider } from "./support/database";
import { repoRoot } from "./support/process";

const sqliteOnly = testProvider === "sqlite" ? test : test.skip;

sqliteOnly(
  "npm run bench:observability on a small data set measures the service observed and unobserved side by side",
  async () => {
    const out = path.join(temporaryDir(), "observability.md");
    await promisify(execFile)(
      "npm",
      ["run", "--silent", "bench:observability", "--", "--size", "small", "--duration", "1", "--connections", "2", "--rounds", "2", "--warmup", "0", "--out", out],
      { cwd: repoRoot, maxBuffer: 20 * 1024 * 1024 },
    );
    const report = fs.readFileSync(out, "utf8");
    for (const scenario of ["get by id (largest)", "list page (largest)", "get by id (2k)", "list page (2k)"]) {
      const cells = report
        .split("\n")
        .find((line) => line.startsWith(`| ${scenario} |`))
        ?.split("|")
        .map((cell) => cell.trim());
      // observed, unobserved and twin req/s: numbers, with no failed requests; then the ratios to unobserved.
      expect(cells?.[2]).toMatch(/^\d+$/);
      expect(cells?.[5]).toMatch(/^\d+$/);
      expect(cells?.[8]).toMatch(/^\d+$/);
      expect(cells?.[11]).toMatch(/^\d+\.\d\dx$/);
      expect(cells?.[12]).toMatch(/^\d+\.\d\dx$/);
      const criterion = `: ${scenario}: logs at info and metrics on cost at most 5% of req/s (observed >= 0.95x unobserved: `;
      expect(report).toMatch(new RegExp(`^- (met|NOT met)${criterion.replace(/[()>.%]/g, "\\$&")}\\d+\\.\\d\\dx; the bench's noise, twin\\/unobserved: \\d+\\.\\d\\dx\\)$`, "m"));
    }
    expect(report).toMatch(/^- met: the observed service's metrics were on: its \/metrics counted [1-9]\d* requests/m);
    expect(report).toContain("- **observed**: the service as `npm start` runs it with LOG_LEVEL=info, LOG_FORMAT=json, METRICS_PORT=0:");
    expect(report).toContain("- **unobserved**: the service as `npm start` runs it with LOG_LEVEL=warn, METRICS_PORT unset:");
    expect(report).toContain("each scenario measures them in slices of 0.5 s, 2 per server");
    expect(report).toContain("- **twin**: the service as `npm start` runs it with LOG_LEVEL=warn, METRICS_PORT unset:");
    expect(report).toMatch(/\| peak RSS \(MB\) \| \d+ \| \| {2}\| \d+ \| \| {2}\| \d+ /);
  },
  // Not a speed check: room for a busy 2-core CI machine running other test files beside it.
  300_000,
);
