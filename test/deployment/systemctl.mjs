#!/usr/bin/env node
// A stand-in for systemctl on a machine without systemd (a CI container), for the deployment test
// (test/deployment/machine.ts makes it the `systemctl` of the shell that runs the document):
// the commands of docs/deployment.md run as written, and this runs the unit as systemd would
// start it. It honours what decides whether the service starts and stops right: User, Group,
// EnvironmentFile, Environment, WorkingDirectory, StateDirectory(Mode), ExecStart (with %i),
// KillSignal and TimeoutStopSec, and systemd's clean environment. The sandboxing options are not
// applied here: `systemd-analyze verify` and `security` check them (test/deployUnit.test.ts).
// `nginx` is started, reloaded or stopped with nginx's own signals.
//
//   systemctl daemon-reload | enable --now UNIT... | start|stop|restart UNIT... | reload nginx | is-active UNIT
// UNIT may be a pattern ('vehicle-records@*') for stop and restart: the running instances.
// Stop fails when the process needed SIGKILL: the unit's stop must be graceful within its timeout.
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const unitDir = "/etc/systemd/system";
const stateDir = process.env.SYSTEMCTL_STATE_DIR;
if (!stateDir) fail("SYSTEMCTL_STATE_DIR is not set");
fs.mkdirSync(stateDir, { recursive: true });

function fail(message) {
  process.stderr.write(`systemctl (deployment test): ${message}\n`);
  process.exit(1);
}

/** The [Service] settings of a unit instance, each a list (a key may repeat), specifiers applied. */
function serviceSettings(unit) {
  const match = /^([^@]+)@([^.]+)\.service$/.exec(unit.endsWith(".service") ? unit : `${unit}.service`);
  const file = match ? path.join(unitDir, `${match[1]}@.service`) : path.join(unitDir, unit.endsWith(".service") ? unit : `${unit}.service`);
  if (!fs.existsSync(file)) fail(`Unit ${unit} not found (${file}).`);
  const instance = match ? match[2] : "";
  const settings = new Map();
  let section = "";
  for (const raw of fs.readFileSync(file, "utf8").split("\n")) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#") || line.startsWith(";")) continue;
    if (line.startsWith("[")) {
      section = line;
      continue;
    }
    if (section !== "[Service]") continue;
    const equals = line.indexOf("=");
    const key = line.slice(0, equals);
    const value = line.slice(equals + 1).replaceAll("%i", instance).replaceAll("%%", "%");
    settings.set(key, [...(settings.get(key) ?? []), value]);
  }
  return settings;
}

const one = (settings, key) => settings.get(key)?.at(-1);

/** KEY=VALUE lines as systemd reads them: comments and blank lines skipped, one pair of quotes removed. */
function environmentOf(text) {
  const env = {};
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#") || line.startsWith(";")) continue;
    const equals = line.indexOf("=");
    if (equals <= 0) continue;
    env[line.slice(0, equals).trim()] = line.slice(equals + 1).trim().replace(/^"(.*)"$|^'(.*)'$/, "$1$2");
  }
  return env;
}

const pidFile = (unit) => path.join(stateDir, `${unit}.pid`);
const logFile = (unit) => path.join(stateDir, `${unit}.log`);

function running(pid) {
  if (!(pid > 0)) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function pidOf(unit) {
  if (!fs.existsSync(pidFile(unit))) return null;
  const pid = Number(fs.readFileSync(pidFile(unit), "utf8"));
  return running(pid) ? pid : null;
}

async function start(unit) {
  if (pidOf(unit)) return;
  const settings = serviceSettings(unit);
  const user = one(settings, "User");
  const group = one(settings, "Group") ?? user;
  const uid = user ? Number(execFileSync("id", ["-u", user], { encoding: "utf8" })) : 0;
  const gid = group ? Number(execFileSync("getent", ["group", group], { encoding: "utf8" }).split(":")[2]) : 0;
  const home = user ? execFileSync("getent", ["passwd", user], { encoding: "utf8" }).split(":")[5] : "/root";
  // systemd's environment for a service: a fixed PATH, the user's names, nothing of the caller's.
  const env = { PATH: "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", LANG: "C.UTF-8", USER: user ?? "root", LOGNAME: user ?? "root", HOME: home, SHELL: "/usr/sbin/nologin" };
  for (const file of settings.get("EnvironmentFile") ?? []) {
    const optional = file.startsWith("-");
    const name = optional ? file.slice(1) : file;
    if (!fs.existsSync(name)) {
      if (optional) continue;
      fail(`${unit}: environment file ${name} not found`);
    }
    Object.assign(env, environmentOf(fs.readFileSync(name, "utf8")));
  }
  for (const assignment of settings.get("Environment") ?? []) Object.assign(env, environmentOf(assignment));
  for (const directory of settings.get("StateDirectory") ?? []) {
    const full = path.join("/var/lib", directory);
    fs.mkdirSync(full, { recursive: true });
    fs.chownSync(full, uid, gid);
    fs.chmodSync(full, parseInt(one(settings, "StateDirectoryMode") ?? "0755", 8));
    env.STATE_DIRECTORY = full;
  }
  const [command, ...args] = one(settings, "ExecStart").split(/\s+/);
  const log = fs.openSync(logFile(unit), "a");
  const child = spawn(command, args, { cwd: one(settings, "WorkingDirectory") ?? "/", env, uid, gid, detached: true, stdio: ["ignore", log, log] });
  // Type=exec: started once the program runs.
  await new Promise((resolve, reject) => {
    child.once("spawn", resolve);
    child.once("error", reject);
  }).catch((error) => fail(`${unit}: ${error.message}`));
  fs.writeFileSync(pidFile(unit), String(child.pid));
  child.unref();
}

async function stop(unit) {
  const pid = pidOf(unit);
  if (!pid) return;
  const settings = serviceSettings(unit);
  const timeoutMs = Number.parseFloat(one(settings, "TimeoutStopSec") ?? "90") * 1000;
  process.kill(pid, one(settings, "KillSignal") ?? "SIGTERM");
  const deadline = Date.now() + timeoutMs;
  while (running(pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  fs.rmSync(pidFile(unit));
  if (running(pid)) {
    process.kill(pid, "SIGKILL");
    const journal = fs.readFileSync(logFile(unit), "utf8").trimEnd().split("\n").slice(-15).join("\n");
    fail(`${unit} did not stop within TimeoutStopSec and was killed; its journal ends:\n${journal}`);
  }
}

/** The running instances a pattern names ('vehicle-records@*'), or the unit itself. */
function unitsOf(pattern) {
  if (!pattern.includes("*")) return [pattern.replace(/\.service$/, "")];
  const matcher = new RegExp(`^${pattern.replace(/\.service$/, "").replace(/[.+?^${}()|[\]\\]/g, "\\$&").replaceAll("*", ".*")}$`);
  return fs
    .readdirSync(stateDir)
    .filter((file) => file.endsWith(".pid"))
    .map((file) => file.slice(0, -4))
    .filter((unit) => matcher.test(unit) && pidOf(unit));
}

/** Whether nginx runs, by its pid file (left empty or stale when it stopped). */
function nginxRunning() {
  const pid = fs.existsSync("/run/nginx.pid") ? Number.parseInt(fs.readFileSync("/run/nginx.pid", "utf8"), 10) : NaN;
  return pid > 0 && running(pid);
}

function nginx(verb) {
  const up = nginxRunning();
  if (verb === "start" && up) return;
  if (verb === "stop") {
    if (up) execFileSync("nginx", ["-s", "quit"], { stdio: "inherit" });
    return;
  }
  if (up && verb !== "restart") execFileSync("nginx", ["-s", "reload"], { stdio: "inherit" });
  else {
    if (up) execFileSync("nginx", ["-s", "stop"], { stdio: "inherit" });
    execFileSync("nginx", [], { stdio: "inherit" });
  }
}

const [verb, ...rest] = process.argv.slice(2);
const units = rest.filter((arg) => !arg.startsWith("--"));
for (const unit of units.flatMap((name) => (verb === "start" || verb === "enable" ? [name.replace(/\.service$/, "")] : unitsOf(name)))) {
  if (unit === "nginx") {
    nginx(verb === "enable" ? "start" : verb);
    continue;
  }
  if (verb === "enable") {
    if (rest.includes("--now")) await start(unit);
  } else if (verb === "start") await start(unit);
  else if (verb === "stop") await stop(unit);
  else if (verb === "restart") {
    await stop(unit);
    await start(unit);
  } else if (verb === "is-active") process.exit(pidOf(unit) ? 0 : 3);
  else fail(`${verb} is not something this stand-in does`);
}
if (verb === "restart" && units.length > 0 && units.every((name) => name.includes("*")) && unitsOf(units[0]).length === 0) fail(`no running unit matches ${units.join(" ")}`);
