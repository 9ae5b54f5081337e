// The machine the deployment test installs on: running docs/deployment.md's blocks as root the way
// an operator's shell would (one shell's variables and functions carried from block to block),
// the two steps it cannot take as written, and putting the machine back as it was.
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { DeploymentBlock } from "./document";

export const domain = "records.example.org";
const nodeLink = "/usr/local/bin/node";
const savedNode = `${nodeLink}.before-deployment-test`;
/** Says that the Node.js at nodeLink is the test's, to be removed again. */
const installedNode = `${nodeLink}.installed-by-deployment-test`;

export interface Machine {
  /** The root's working folder on the server: the release's tarball is copied here. */
  home: string;
  /** The stand-in's pid and log files: `<unit>.log` is the service's journal. */
  stateDir: string;
  /** The CA file a client needs for the certificate (self-signed). */
  certificate: string;
  /** The build machine's checkout. */
  buildDir: string;
  /** Runs a block; resolves with its output, fails with it. */
  run(block: DeploymentBlock): string;
  /** Runs a script in the same shell state as the blocks (their variables and functions). */
  shell(script: string, env?: Record<string, string>): string;
  journal(unit: string): string;
}

const sh = (command: string, args: string[]) => spawnSync(command, args, { encoding: "utf8" });

/** Undoes what the document did, so that a second run starts from a fresh server. */
export function resetMachine(stateDir?: string): void {
  sh("pkill", ["-TERM", "-f", "/opt/vehicle-records/main.js"]);
  if (fs.existsSync("/run/nginx.pid")) sh("nginx", ["-s", "stop"]);
  for (const file of [
    "/opt/vehicle-records",
    "/etc/vehicle-records",
    "/var/lib/vehicle-records",
    "/etc/systemd/system/vehicle-records@.service",
    "/etc/nginx/sites-available/vehicle-records",
    "/etc/nginx/sites-enabled/vehicle-records",
    `/etc/letsencrypt/live/${domain}`,
  ]) {
    fs.rmSync(file, { recursive: true, force: true });
  }
  if (fs.existsSync("/etc/nginx/sites-available/default") && !fs.existsSync("/etc/nginx/sites-enabled/default")) {
    fs.symlinkSync("/etc/nginx/sites-available/default", "/etc/nginx/sites-enabled/default");
  }
  if (sh("getent", ["passwd", "postgres"]).status === 0 && sh("runuser", ["-u", "postgres", "--", "psql", "-Atc", "select 1"]).status === 0) {
    sh("runuser", ["-u", "postgres", "--", "dropdb", "--if-exists", "--force", "vehicle_records"]);
    sh("runuser", ["-u", "postgres", "--", "dropuser", "--if-exists", "vehicle-records"]);
  }
  sh("userdel", ["vehicle-records"]);
  if (fs.existsSync(savedNode)) fs.renameSync(savedNode, nodeLink);
  else if (fs.existsSync(installedNode)) fs.rmSync(nodeLink, { force: true });
  fs.rmSync(installedNode, { force: true });
  if (stateDir) fs.rmSync(stateDir, { recursive: true, force: true });
}

/**
 * The Node.js this test runs on, where the document installs Node.js: a copy, as the document's
 * is (the test's own may be in a folder the service's user cannot enter).
 */
function installNode(): void {
  if (fs.existsSync(nodeLink) && !fs.existsSync(savedNode) && !fs.existsSync(installedNode)) fs.renameSync(nodeLink, savedNode);
  fs.rmSync(nodeLink, { force: true });
  fs.writeFileSync(installedNode, "");
  fs.copyFileSync(process.execPath, nodeLink);
  fs.chmodSync(nodeLink, 0o755);
}

/** A self-signed certificate where certbot puts Let's Encrypt's (the live/<domain>/ files nginx reads). */
function selfSignedCertificate(): string {
  const dir = `/etc/letsencrypt/live/${domain}`;
  fs.mkdirSync(dir, { recursive: true });
  execFileSync("openssl", [
    "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", `/CN=${domain}`,
    "-addext", `subjectAltName=DNS:${domain}`, "-keyout", path.join(dir, "privkey.pem"), "-out", path.join(dir, "fullchain.pem"),
  ], { stdio: "ignore" });
  return path.join(dir, "fullchain.pem");
}

/** Debian's package starts the cluster it creates; without systemd, this does. */
function startPostgresCluster(): void {
  const clusters = execFileSync("pg_lsclusters", ["--no-header"], { encoding: "utf8" }).trim().split("\n");
  const main = clusters.map((line) => line.split(/\s+/)).find((fields) => fields[1] === "main");
  if (!main) {
    // The package makes it when it is first installed; a machine that had the package without it gets it now.
    const version = fs.readdirSync("/usr/lib/postgresql").sort((a, b) => Number(a) - Number(b)).at(-1)!;
    execFileSync("pg_createcluster", [version, "main", "--start"], { stdio: "inherit" });
  } else if (main[3] !== "online") execFileSync("pg_ctlcluster", [main[0], "main", "start"], { stdio: "inherit" });
}

/** A fresh checkout of the working tree (what git tracks or would), as on a build machine. */
function checkout(repoRoot: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "vrd-build-"));
  const files = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: repoRoot, encoding: "utf8" }).split("\0").filter(Boolean);
  for (const file of files) {
    if (!fs.existsSync(path.join(repoRoot, file))) continue;
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.copyFileSync(path.join(repoRoot, file), path.join(dir, file));
  }
  return dir;
}

export function prepareMachine(repoRoot: string): Machine {
  const buildDir = checkout(repoRoot);
  const home = fs.mkdtempSync(path.join(os.tmpdir(), "vrd-server-"));
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), "vrd-systemd-"));
  resetMachine();
  const shellState = path.join(stateDir, "shell-state.sh");
  // The document's `systemctl` is the stand-in: a function of the shell, which the programs it
  // starts do not inherit (apt's package scripts go on seeing a machine without systemd).
  const systemctl = path.join(__dirname, "systemctl.mjs");
  fs.writeFileSync(shellState, `systemctl() { "${process.execPath}" "${systemctl}" "$@"; }\n`);
  // curl (its .curlrc here, written with the certificate) trusts the certificate and finds the
  // domain on this machine, as the server's own name would be found in DNS.
  const baseEnv = { ...process.env, PATH: `/usr/local/bin:${process.env.PATH}`, SYSTEMCTL_STATE_DIR: stateDir, HOME: home, CURL_HOME: stateDir, DEBIAN_FRONTEND: "noninteractive" };
  let certificate = "";
  const variableNames = new Set<string>();

  const bash = (script: string, cwd: string, env: Record<string, string> = {}): string => {
    for (const match of script.matchAll(/^([A-Za-z_][A-Za-z0-9_]*)=/gm)) variableNames.add(match[1]);
    const save = [...variableNames].map((name) => `[ -n "\${${name}+set}" ] && declare -p ${name}`).join("; ");
    const wrapped = `source ${shellState}\nset -euo pipefail\n${script}\n{ declare -f; ${save || "true"}; } > ${shellState}.next || true\n`;
    const result = spawnSync("bash", ["-c", wrapped], { cwd, env: { ...baseEnv, ...env }, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
    const output = `${result.stdout}${result.stderr}`;
    if (result.status !== 0) throw new Error(`exit ${result.status} of:\n${script}\n--- output ---\n${output.slice(-8000)}`);
    if (fs.existsSync(`${shellState}.next`)) fs.renameSync(`${shellState}.next`, shellState);
    return result.stdout;
  };

  return {
    home,
    stateDir,
    buildDir,
    get certificate() {
      return certificate;
    },
    run(block) {
      if (block.kind === "node") {
        installNode();
        return "";
      }
      if (block.kind === "certificate") {
        certificate = selfSignedCertificate();
        fs.writeFileSync(path.join(stateDir, ".curlrc"), `cacert = "${certificate}"\nresolve = "${domain}:443:127.0.0.1"\n`);
        return "";
      }
      // The build machine is the developer's: its HOME, and so npm's cache, are the test's own.
      const output = block.kind === "build" ? bash(block.script, buildDir, { HOME: os.homedir() }) : bash(block.script, home);
      // "Copy vehicle-records.tar.gz to the server."
      if (block.kind === "build") fs.renameSync(path.join(buildDir, "vehicle-records.tar.gz"), path.join(home, "vehicle-records.tar.gz"));
      // Debian's packages start what they install; without systemd, the test does.
      if (/apt-get install -y .*\bnginx\b/.test(block.script)) execFileSync(process.execPath, [systemctl, "start", "nginx"], { env: baseEnv, stdio: "inherit" });
      if (/apt-get install -y postgresql\b/.test(block.script)) startPostgresCluster();
      return output;
    },
    shell: (script, env) => bash(script, home, env),
    journal: (unit) => fs.readFileSync(path.join(stateDir, `${unit}.log`), "utf8"),
  };
}
