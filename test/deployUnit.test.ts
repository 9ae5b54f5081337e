// The files of deploy/ checked by the tools that run them, and against the facts they repeat from
// the service: the unit by systemd-analyze (syntax, and its sandbox rated "OK"), the nginx site by
// `nginx -t`, the Caddyfile by `caddy validate`; Node's flags as `npm start` passes them, the body
// limit's answers in the service's words (nginx's), timeouts longer than the heartbeat, the settings of the
// environment file. Each tool is needed when CI=true; without it (a developer's machine) its check
// is skipped with a warning. docs/deployment.md is followed by test/deployment/.
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { bodyTooLargeMessage } from "../src/rest/requestBody";
import { limitSpecs } from "../src/config/limits";
import { readSettings } from "../src/config/env";
import { temporaryDir } from "./support/database";

const root = path.resolve(__dirname, "..");
const deploy = (file: string) => fs.readFileSync(path.join(root, "deploy", file), "utf8");
const unitFile = "vehicle-records@.service";
const unit = deploy(unitFile);
const site = deploy("nginx/vehicle-records.conf");
const caddyfile = deploy("Caddyfile");
const inCi = process.env.CI === "true";

function withTool(tool: string): typeof test {
  const found = spawnSync("sh", ["-c", `command -v ${tool}`]).status === 0;
  if (!found && !inCi) console.warn(`\n*** test/deployUnit.test.ts: checks with ${tool} SKIPPED: not installed. With CI=true they fail. ***\n`);
  return found || inCi ? test : test.skip;
}

const setting = (key: string) => [...unit.matchAll(new RegExp(`^${key}=(.*)$`, "gm"))].map((match) => match[1]);

describe("the systemd unit", () => {
  /** The unit as an instance in a folder of its own, its Node.js being this test's (systemd checks the program exists). */
  function instance(): string {
    const dir = temporaryDir("vrd-unit-");
    fs.writeFileSync(path.join(dir, unitFile), unit.replace(/^ExecStart=\/usr\/local\/bin\/node /m, `ExecStart=${process.execPath} `));
    fs.symlinkSync(unitFile, path.join(dir, "vehicle-records@4000.service"));
    return path.join(dir, "vehicle-records@4000.service");
  }

  withTool("systemd-analyze")("systemd-analyze verify finds nothing to say", () => {
    const result = spawnSync("systemd-analyze", ["verify", instance()], { encoding: "utf8" });
    expect(`${result.stdout}${result.stderr}`).toBe("");
    expect(result.status).toBe(0);
  });

  withTool("systemd-analyze")("its sandbox is rated OK (exposure at most 2.0 of 10) by systemd-analyze security", () => {
    const result = spawnSync("systemd-analyze", ["security", "--offline=yes", "--threshold=20", instance()], { encoding: "utf8" });
    expect(result.stdout).toMatch(/Overall exposure level for vehicle-records@4000\.service: [0-2]\.\d OK/);
    expect(result.status).toBe(0);
  });

  test("it runs the release's main.js as a user of its own, restarts on failure, stops with SIGTERM within a timeout", () => {
    expect(setting("ExecStart")[0]).toMatch(/^\/usr\/local\/bin\/node .* \/opt\/vehicle-records\/main\.js$/);
    expect(setting("User")).toEqual(["vehicle-records"]);
    expect(setting("Restart")).toEqual(["on-failure"]);
    expect(setting("KillSignal")).toEqual(["SIGTERM"]);
    // Longer than an attempt of webhook delivery, which the stop waits for.
    expect(Number.parseInt(setting("TimeoutStopSec")[0], 10) * 1000).toBeGreaterThan(readSettings({}).webhooks.timeoutMs);
    expect(setting("EnvironmentFile")).toEqual(["/etc/vehicle-records/env"]);
    expect(setting("Environment")).toContain("PORT=%i");
  });

  test("it runs Node.js with the flags and malloc setting of `npm start`", () => {
    const start = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")).scripts.start as string;
    const flags = (command: string) => command.match(/ --[a-z-]+(=\S+)?/g)!.map((flag) => flag.trim());
    expect(flags(setting("ExecStart")[0])).toEqual(flags(" " + /exec node (.*) dist\/main\.js/.exec(start)![1]));
    // Every variable the script sets for Node (`NAME=${NAME:-default}`), with its default.
    const variables = [...start.matchAll(/\b([A-Z_]+)=\$\{\1:-([^}]*)\}/g)].map(([, name, value]) => `${name}=${value}`);
    expect(variables).toContain("MALLOC_ARENA_MAX=2");
    for (const variable of variables) expect(setting("Environment")).toContain(variable);
  });
});

describe("the nginx site and the Caddyfile", () => {
  const restTooLarge = { message: bodyTooLargeMessage };
  const graphqlTooLarge = { errors: [{ message: bodyTooLargeMessage, extensions: { code: "BAD_USER_INPUT" } }] };

  test("nginx answers a body over 1 MiB as the service does, for REST and GraphQL", () => {
    expect(site).toMatch(/client_max_body_size 1m;/);
    const answers = [...site.matchAll(/return 413 '([^']*)';/g)].map((match) => JSON.parse(match[1]));
    expect(answers).toEqual([restTooLarge, graphqlTooLarge]);
  });

  test("Caddy leaves the body limit to the service, whose answers it relays (its own limit answers 502)", () => {
    expect(caddyfile).not.toMatch(/^\s*request_body\b/m);
  });

  test("nginx waits longer for a quiet subscription than the heartbeat's interval", () => {
    const heartbeatMs = limitSpecs.subscriptionHeartbeatMs.default;
    for (const name of ["proxy_read_timeout", "proxy_send_timeout"]) {
      const seconds = Number(new RegExp(`${name} (\\d+)s;`).exec(site)?.[1]);
      expect(seconds * 1000).toBeGreaterThanOrEqual(2 * heartbeatMs);
    }
  });

  withTool("nginx")("nginx -t accepts the site", () => {
    const dir = temporaryDir("vrd-nginx-");
    execFileSync("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=test", "-keyout", path.join(dir, "key.pem"), "-out", path.join(dir, "cert.pem")], { stdio: "ignore" });
    const siteHere = site
      .replace(/\/etc\/letsencrypt\/live\/records\.example\.org\/fullchain\.pem/, path.join(dir, "cert.pem"))
      .replace(/\/etc\/letsencrypt\/live\/records\.example\.org\/privkey\.pem/, path.join(dir, "key.pem"));
    fs.writeFileSync(path.join(dir, "site.conf"), siteHere);
    // Debian's nginx.conf in short: the http block that includes the sites.
    fs.writeFileSync(path.join(dir, "nginx.conf"), `pid ${dir}/nginx.pid;\nerror_log stderr;\nevents {}\nhttp {\n  access_log off;\n  include ${dir}/site.conf;\n}\n`);
    const result = spawnSync("nginx", ["-t", "-p", dir, "-c", path.join(dir, "nginx.conf")], { encoding: "utf8" });
    expect(result.stderr).toContain("test is successful");
    expect(result.status).toBe(0);
  });

  withTool("caddy")("caddy validate accepts the Caddyfile", () => {
    const result = spawnSync("caddy", ["validate", "--adapter", "caddyfile", "--config", path.join(root, "deploy", "Caddyfile")], { encoding: "utf8" });
    expect(`${result.stdout}${result.stderr}`).toContain("Valid configuration");
    expect(result.status).toBe(0);
  });
});

test("the environment file sets only settings the service reads, and the proxy on this host is trusted", () => {
  const env = Object.fromEntries(
    deploy("vehicle-records.env")
      .split("\n")
      .filter((line) => line.trim() !== "" && !line.startsWith("#"))
      .map((line) => line.split("=", 2) as [string, string]),
  );
  const readme = fs.readFileSync(path.join(root, "README.md"), "utf8");
  for (const name of Object.keys(env)) expect(readme).toContain(`| \`${name}\` |`);
  expect(env).toMatchObject({ HOST: "127.0.0.1", TRUSTED_PROXIES: "127.0.0.1" });
  // The settings are valid: the service would start with them.
  expect(() => readSettings(env)).not.toThrow();
});
