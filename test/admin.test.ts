// The admin command (CONTRACT: Administration) run for real, as a subprocess through npm, on a
// database file that a real HTTP server serves at the same time.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { temporaryDir } from "./support/service";
import { finished, unsupportedNodeAllowance } from "./support/process";
import { client } from "./support/http";
import { openDatabase, type Database } from "../src/db/client";
import { createApp } from "../src/server/app";
import { listen, type RunningServer } from "../src/server/httpServer";

const repoRoot = path.resolve(__dirname, "..");
// Each run of the command costs about two seconds (npm, tsx, migration check).
jest.setTimeout(120_000);
// The command refuses a Node outside package.json's engines (test/checkNode.test.ts): allowed here.
const nodeAllowance = unsupportedNodeAllowance();

interface AdminRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `npm run --silent admin -- ...args` in the repository, with the given database settings. */
function admin(args: string[], env: { DATA_DIR?: string; DATABASE_URL?: string }): Promise<AdminRun> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env };
  delete childEnv.DATABASE_URL;
  delete childEnv.DATA_DIR;
  Object.assign(childEnv, nodeAllowance, env);
  return finished(spawn("npm", ["run", "--silent", "admin", "--", ...args], { cwd: repoRoot, env: childEnv }));
}

function parsed(run: AdminRun): any {
  // stderr is shown only when the run failed, so a failure explains itself.
  expect({ code: run.code, stderr: run.code === 0 ? "" : run.stderr }).toEqual({ code: 0, stderr: "" });
  return JSON.parse(run.stdout);
}

/** A failed run: non-zero exit, nothing on stdout, a message on stderr matching `message`. */
function expectFailure(run: AdminRun, message: RegExp) {
  expect(run.code).not.toBe(0);
  expect(run.code).not.toBeNull();
  expect(run.stdout).toBe("");
  expect(run.stderr).toMatch(message);
  // A clear message, not a stack trace.
  expect(run.stderr).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
}

let dataDir: string;
let db: Database;
let server: RunningServer;
let networkId: number;
let currentKey: string;

beforeAll(async () => {
  dataDir = path.join(temporaryDir("vrd-admin-"), "data");
});

afterAll(async () => {
  await server?.close();
  await db?.close();
  fs.rmSync(path.dirname(dataDir), { recursive: true, force: true });
});

const status = async (key: string) => (await client(server.url, key).get("/vehicles")).status;

test("network create prints {network: {id, name, identifierType}, key, apiKey}; the key works on a server on the same database", async () => {
  const run = await admin(["network", "create", "--name", "Los Santos PD", "--identifier-type", "steam"], { DATA_DIR: dataDir });
  const out = parsed(run);
  expect(out).toEqual({
    network: { id: expect.any(Number), name: "Los Santos PD", identifierType: "steam", timeZone: "UTC", autoStopAfterHours: null },
    key: expect.objectContaining({ name: "first key", scopes: ["read", "write", "admin"] }),
    apiKey: expect.any(String),
  });
  expect(Object.keys(out)).toEqual(["network", "key", "apiKey"]);
  expect(Object.keys(out.network)).toEqual(["id", "name", "identifierType", "timeZone", "autoStopAfterHours"]);
  expect(out.apiKey.length).toBeGreaterThanOrEqual(32);
  networkId = out.network.id;
  currentKey = out.apiKey;

  // DATA_DIR was created with the embedded database in it.
  const file = path.join(dataDir, "service.db");
  expect(fs.existsSync(file)).toBe(true);

  db = await openDatabase(`file:${file}`);
  server = await listen(createApp({ db }), 0, "127.0.0.1");
  const api = client(server.url, currentKey);
  const list = await api.get("/vehicles");
  expect(list.status).toBe(200);
  expect(list.body.meta.total).toBe(0);
  const gql = await api.graphql("{ network { id name identifierType timeZone autoStopAfterHours } }");
  expect(gql.body).toEqual({ data: { network: out.network } });
  const created = await api.post("/vehicles", { plate: "ADM-1" });
  expect(created.status).toBe(201);
});

test("network list prints the networks as JSON, without any key", async () => {
  const run = await admin(["network", "list"], { DATA_DIR: dataDir });
  const out = parsed(run);
  expect(out).toEqual({ networks: [expect.objectContaining({ id: networkId, name: "Los Santos PD", identifierType: "steam" })] });
  expect(run.stdout).not.toContain(currentKey);
  expect(run.stdout).not.toContain(currentKey.slice(10));
});

test("network regenerate-key prints {key, apiKey}: the old key is refused at once, the new one accepted", async () => {
  const old = currentKey;
  expect(await status(old)).toBe(200);
  const out = parsed(await admin(["network", "regenerate-key", "--network", String(networkId)], { DATA_DIR: dataDir }));
  expect(out).toEqual({ key: expect.objectContaining({ name: "first key" }), apiKey: expect.any(String) });
  expect(out.apiKey).not.toBe(old);
  expect(await status(old)).toBe(401);
  expect(await status(out.apiKey)).toBe(200);
  // Same network, same data.
  const list = await client(server.url, out.apiKey).get("/vehicles");
  expect(list.body.data.map((v: { plate: string }) => v.plate)).toEqual(["ADM-1"]);
  currentKey = out.apiKey;
});

test("network regenerate-key --grace keeps the old key valid for the grace period", async () => {
  const old = currentKey;
  const out = parsed(await admin(["network", "regenerate-key", "--network", String(networkId), "--grace", "3600"], { DATA_DIR: dataDir }));
  expect(out).toEqual({ key: expect.objectContaining({ name: "first key" }), apiKey: expect.any(String) });
  expect(await status(old)).toBe(200);
  expect(await status(out.apiKey)).toBe(200);
  currentKey = out.apiKey;
});

test("officer add prints {officer: {...}}; the officer's dutytime then toggles over REST", async () => {
  const run = await admin(
    ["officer", "add", "--network", String(networkId), "--identifier", "steam:76561198000000001", "--name", "Jane Doe"],
    { DATA_DIR: dataDir },
  );
  const out = parsed(run);
  expect(Object.keys(out)).toEqual(["officer"]);
  expect(out.officer).toEqual(
    expect.objectContaining({ id: expect.any(Number), identifier: "steam:76561198000000001", name: "Jane Doe" }),
  );

  const api = client(server.url, currentKey);
  const toggled = await api.post(`/dutytime/${encodeURIComponent("steam:76561198000000001")}/toggle`);
  expect(toggled.status).toBe(200);
  expect(toggled.body).toEqual({
    data: { identifier: "steam:76561198000000001", onDuty: true, startedAt: expect.any(String), stoppedEntries: 0 },
  });
  const active = await api.get("/statistics/active-users");
  expect(active.body).toEqual({
    data: [{ identifier: "steam:76561198000000001", name: "Jane Doe", startedAt: toggled.body.data.startedAt }],
    count: 1,
  });
});

test("officer rename and officer remove: the officer's new name, then off duty and out of the lists, its history kept", async () => {
  const identifier = "steam:76561198000000002";
  parsed(await admin(["officer", "add", "--network", String(networkId), "--identifier", identifier, "--name", "John Roe"], { DATA_DIR: dataDir }));
  const api = client(server.url, currentKey);
  expect((await api.post(`/dutytime/${encodeURIComponent(identifier)}/toggle`)).status).toBe(200);
  const renamed = parsed(await admin(["officer", "rename", "--network", String(networkId), "--identifier", identifier, "--name", "John Roe Jr."], { DATA_DIR: dataDir }));
  expect(renamed.officer).toEqual(expect.objectContaining({ identifier, name: "John Roe Jr.", removedAt: null }));
  const removed = parsed(await admin(["officer", "remove", "--network", String(networkId), "--identifier", identifier], { DATA_DIR: dataDir }));
  expect(removed.officer).toEqual(expect.objectContaining({ identifier, removedAt: expect.any(String) }));
  expect((await api.get("/statistics/active-users")).body.data.map((officer: { identifier: string }) => officer.identifier)).not.toContain(identifier);
  expect((await api.get(`/officers/${encodeURIComponent(identifier)}/dutytime`)).body.data).toEqual([
    expect.objectContaining({ endedAt: removed.officer.removedAt, open: false }),
  ]);
  expectFailure(await admin(["officer", "remove", "--network", String(networkId), "--identifier", identifier], { DATA_DIR: dataDir }), /not found/i);
});

test("bad arguments exit non-zero with a message on stderr and nothing on stdout, changing nothing", async () => {
  const env = { DATA_DIR: dataDir };
  const networksBefore = await db.prisma.network.count();
  const officersBefore = await db.prisma.officer.count();
  const [missingName, unknownCommand, missingNetwork, wrongType, negativeGrace, negativeGraceJoined] = await Promise.all([
    admin(["network", "create", "--identifier-type", "steam"], env),
    admin(["network", "frobnicate"], env),
    admin(["officer", "add", "--network", "999999", "--identifier", "steam:1", "--name", "Nobody"], env),
    admin(["officer", "add", "--network", String(networkId), "--identifier", "license:1", "--name", "Wrong Type"], env),
    admin(["network", "regenerate-key", "--network", String(networkId), "--grace", "-1"], env),
    admin(["network", "regenerate-key", "--network", String(networkId), "--grace=-1"], env),
  ]);
  expectFailure(missingName, /--name/);
  expectFailure(unknownCommand, /frobnicate|unknown/i);
  expectFailure(missingNetwork, /999999|network/i);
  expectFailure(wrongType, /steam|identifier/i);
  expectFailure(negativeGrace, /--grace/);
  expectFailure(negativeGraceJoined, /--grace/);

  expect(await db.prisma.network.count()).toBe(networksBefore);
  expect(await db.prisma.officer.count()).toBe(officersBefore);
  // The key was not regenerated by the refused --grace -1.
  expect(await status(currentKey)).toBe(200);
});

test("DATABASE_URL names the database instead of DATA_DIR", async () => {
  const root = temporaryDir("vrd-admin-url-");
  try {
    const file = path.join(root, "elsewhere", "custom.db");
    const unusedDataDir = path.join(root, "unused-data");
    const run = await admin(["network", "create", "--name", "Paleto Bay", "--identifier-type", "license"], {
      DATA_DIR: unusedDataDir,
      DATABASE_URL: `file:${file}`,
    });
    const out = parsed(run);
    expect(out).toEqual({
      network: { id: expect.any(Number), name: "Paleto Bay", identifierType: "license", timeZone: "UTC", autoStopAfterHours: null },
      key: expect.objectContaining({ name: "first key" }),
      apiKey: expect.any(String),
    });
    expect(fs.existsSync(file)).toBe(true);
    expect(fs.existsSync(path.join(unusedDataDir, "service.db"))).toBe(false);

    const other = await openDatabase(`file:${file}`);
    const otherServer = await listen(createApp({ db: other }), 0, "127.0.0.1");
    try {
      const gql = await client(otherServer.url, out.apiKey).graphql("{ network { id name identifierType timeZone autoStopAfterHours } }");
      expect(gql.body).toEqual({ data: { network: out.network } });
      // The key of this database is unknown to the other one.
      expect(await status(out.apiKey)).toBe(401);
    } finally {
      await otherServer.close();
      await other.close();
    }
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test("--help lists every command, <command> --help its options, a line each; typos name the nearest command or option", async () => {
  const env = { DATA_DIR: dataDir };
  const [help, commandHelp, typoCommand, typoOption, misplaced, missing] = await Promise.all([
    admin(["--help"], env),
    admin(["network", "set", "--help"], env),
    admin(["network", "creat", "--name", "X", "--identifier-type", "steam"], env),
    admin(["network", "create", "--nmae", "X", "--identifier-type", "steam"], env),
    admin(["officer", "add", "--network", String(networkId), "--grace", "5", "--identifier", "steam:1", "--name", "X"], env),
    admin(["officer", "remove", "--network", String(networkId)], env),
  ]);
  expect({ code: help.code, stderr: help.stderr }).toEqual({ code: 0, stderr: "" });
  for (const command of ["network create", "network regenerate-key", "network list", "network set", "key create", "key list", "key revoke", "officer add", "officer rename", "officer remove", "backup"]) {
    expect(help.stdout).toMatch(new RegExp(`^  ${command} +\\S.*$`, "m"));
  }
  expect(commandHelp.code).toBe(0);
  expect(commandHelp.stdout).toMatch(/^Usage: admin network set --network ID \[--time-zone ZONE\] \[--auto-stop-after HOURS\|off\] \[--event-retention-days DAYS\]$/m);
  for (const option of ["--network ID", "--time-zone ZONE", "--auto-stop-after HOURS|off"]) expect(commandHelp.stdout).toMatch(new RegExp(`^  ${option.replace(/[|]/g, "\\|")} +\\S`, "m"));
  expectFailure(typoCommand, /Unknown command "network creat"\. Did you mean "network create"\?/);
  expectFailure(typoOption, /Unknown option --nmae\. Did you mean --name\?/);
  expectFailure(misplaced, /--grace is not an option of officer add\./);
  expectFailure(missing, /--identifier is required\./);
});
