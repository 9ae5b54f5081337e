// The admin command's key commands (CONTRACT: Keys, scopes and origins), run for
// real as a child process on a database of this project's provider: `network create` with its
// first key, `key create|list|revoke`, `network regenerate-key` with and without --key, their
// --help, and refusals (non-zero exit, a message on stderr, nothing on stdout, nothing changed).
import { migrate } from "../src/db/migrate";
import { openDatabase, type Database } from "../src/db/client";
import { hashApiKey } from "../src/resolvers/apiKeys";
import { freshDatabase, type FreshDatabase } from "./support/database";
import { runAdminAsync } from "./support/process";

// Each run of the command costs a second or two (tsx, migration check): independent runs go together.
jest.setTimeout(120_000);

let database: FreshDatabase;
let db: Database;

beforeAll(async () => {
  database = await freshDatabase();
  await migrate(database.url);
  db = await openDatabase(database.url);
});

afterAll(async () => {
  await db?.close();
  await database?.drop();
});

type Run = { code: number | null; stdout: string; stderr: string };

const admin = (...args: string[]) => runAdminAsync(args, { DATABASE_URL: database.url });

function parsed(run: Run): any {
  // stderr is shown only when the run failed, so a failure explains itself.
  expect({ code: run.code, stderr: run.code === 0 ? "" : run.stderr }).toEqual({ code: 0, stderr: "" });
  return JSON.parse(run.stdout);
}

/** A refusal: non-zero exit, nothing on stdout, the message on stderr, no stack trace. */
function expectRefusal(run: Run, message: RegExp | string) {
  expect({ code: run.code === 0 ? 0 : "non-zero", stdout: run.stdout }).toEqual({ code: "non-zero", stdout: "" });
  expect(run.stderr).toMatch(message);
  expect(run.stderr).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
}

/** A key as the command prints it: these fields in this order, never a hash or secret. */
const keyFields = ["id", "name", "prefix", "scopes", "origins", "expiresAt", "createdAt", "lastUsedAt", "revokedAt"];

async function createdNetwork(...extra: string[]) {
  const out = parsed(await admin("network", "create", "--name", "Keys", "--identifier-type", "steam", ...extra));
  return out as { network: { id: number }; key: Record<string, unknown> & { id: number }; apiKey: string };
}

test("network create prints the network, its first key (read write admin, or --scopes) and the secret", async () => {
  const [plain, readOnly] = await Promise.all([createdNetwork(), createdNetwork("--scopes", "read, dutytime")]);
  expect(Object.keys(plain)).toEqual(["network", "key", "apiKey"]);
  expect(Object.keys(plain.key)).toEqual(keyFields);
  expect(plain.key).toEqual({
    id: expect.any(Number),
    name: "first key",
    prefix: plain.apiKey.slice(0, 12),
    scopes: ["read", "write", "admin"],
    origins: [],
    expiresAt: null,
    createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
    lastUsedAt: null,
    revokedAt: null,
  });
  expect(readOnly.key.scopes).toEqual(["read", "dutytime"]);
  expect(await db.apiKeys.byHash(hashApiKey(readOnly.apiKey))).toMatchObject({ id: readOnly.key.id, scopes: ["read", "dutytime"] });
});

test("key create, list and revoke; regenerate-key with --key, and without it while the network has one unrevoked key", async () => {
  const { network, key: first } = await createdNetwork();
  const id = String(network.id);

  const made = parsed(
    await admin("key", "create", "--network", id, "--name", "Dashboard", "--scopes", "read", "--origin", "https://Dash.Example.org/", "--origin", "http://localhost:8080", "--expires-at", "2099-06-01T12:00:00+02:00"),
  );
  expect(Object.keys(made)).toEqual(["key", "apiKey"]);
  expect(made.key).toEqual({
    id: expect.any(Number),
    name: "Dashboard",
    prefix: made.apiKey.slice(0, 12),
    scopes: ["read"],
    origins: ["https://dash.example.org", "http://localhost:8080"],
    expiresAt: "2099-06-01T10:00:00.000Z",
    createdAt: expect.any(String),
    lastUsedAt: null,
    revokedAt: null,
  });

  // Two unrevoked keys: regenerate-key must be told which.
  const [listed, ambiguous] = await Promise.all([admin("key", "list", "--network", id), admin("network", "regenerate-key", "--network", id)]);
  const list = parsed(listed);
  expect(list).toEqual({ keys: [made.key, first] });
  expect(listed.stdout).not.toContain(made.apiKey.slice(12));
  expect(listed.stdout).not.toContain(hashApiKey(made.apiKey));
  expectRefusal(ambiguous, "The network has 2 unrevoked keys: say which one to replace with --key KEY_ID (key list shows their ids).");

  // --key: the new key has the old one's name, scopes, origins and end; without --grace, the network's (0).
  const regenerated = parsed(await admin("network", "regenerate-key", "--network", id, "--key", String(made.key.id)));
  expect(Object.keys(regenerated)).toEqual(["key", "apiKey"]);
  expect(regenerated.key).toEqual({ ...made.key, id: expect.any(Number), prefix: regenerated.apiKey.slice(0, 12), createdAt: expect.any(String) });
  expect(regenerated.key.id).toBeGreaterThan(made.key.id);
  expect((await db.apiKeys.byHash(hashApiKey(made.apiKey)))!.revokedAt).not.toBeNull();

  // Revoked with a grace period: valid until then. Its name is free again at once.
  const before = Date.now();
  const revoked = parsed(await admin("key", "revoke", "--network", id, "--key", String(regenerated.key.id), "--grace", "3600"));
  expect(Object.keys(revoked)).toEqual(["key"]);
  expect(revoked.key).toEqual({ ...regenerated.key, revokedAt: expect.any(String) });
  const end = Date.parse(revoked.key.revokedAt);
  expect(end).toBeGreaterThanOrEqual(before + 3_600_000 - 1000);
  expect(end).toBeLessThanOrEqual(Date.now() + 3_600_000);
  const reused = parsed(await admin("key", "create", "--network", id, "--name", "Dashboard", "--scopes", "read"));
  expect(reused.key.name).toBe("Dashboard");

  // Revoked at once (the default): now one unrevoked key remains, so --key may be left out.
  parsed(await admin("key", "revoke", "--network", id, "--key", String(reused.key.id)));
  const withoutKey = parsed(await admin("network", "regenerate-key", "--network", id, "--grace", "60"));
  expect(withoutKey.key).toMatchObject({ name: "first key", scopes: ["read", "write", "admin"] });
  const old = (await db.apiKeys.byId(network.id, first.id))!;
  expect(old.revokedAt!.getTime() - Date.parse(withoutKey.key.createdAt)).toBe(60_000);
  expect(parsed(await admin("key", "list", "--network", id)).keys.map((key: { name: string; revokedAt: string | null }) => [key.name, key.revokedAt === null])).toEqual([
    ["first key", true],
    ["Dashboard", false],
    ["Dashboard", false],
    ["Dashboard", false],
    ["first key", false],
  ]);
});

test("names are unique among a network's unrevoked keys; another network's keys are not found; bad input is refused and changes nothing", async () => {
  const [mine, theirs] = await Promise.all([createdNetwork(), createdNetwork()]);
  const id = String(mine.network.id);
  const keysBefore = await db.prisma.apiKey.count();
  const runs = await Promise.all([
    admin("key", "create", "--network", id, "--name", "first key", "--scopes", "read"),
    admin("key", "revoke", "--network", id, "--key", String(theirs.key.id)),
    admin("network", "regenerate-key", "--network", id, "--key", String(theirs.key.id)),
    admin("key", "create", "--network", id, "--name", "bot", "--scopes", "read,reed"),
    admin("key", "create", "--network", id, "--name", "bot", "--scopes", "read", "--origin", "https://dash.example.org/app"),
    admin("key", "create", "--network", id, "--name", "bot", "--scopes", "read", "--expires-at", "2020-01-01T00:00:00Z"),
    admin("key", "create", "--network", id, "--name", "bot", "--scopes", "read", "--expires-at", "next week"),
    admin("key", "create", "--network", id, "--name", "x".repeat(101), "--scopes", "read"),
    admin("key", "create", "--network", id, "--name", "bot", "--scopes", ","),
    admin("key", "revoke", "--network", id, "--key", "abc"),
    admin("key", "revoke", "--network", id, "--key", String(mine.key.id), "--grace", "-5"),
    admin("key", "list", "--network", "999999"),
    admin("key", "create", "--network", id, "--name", "bot"),
    admin("network", "create", "--name", "Bad scopes", "--identifier-type", "steam", "--scopes", "root"),
  ]);
  const expected: Array<RegExp | string> = [
    'The network has an unrevoked key named "first key" already: choose another name, or revoke that key first.',
    "Key not found.",
    "Key not found.",
    'The selected scope "reed" is invalid. Allowed: read, dutytime, write, admin.',
    'The origin "https://dash.example.org/app" is not a browser origin',
    "The expires at field must be a date after now.",
    "--expires-at must be an ISO-8601 date and time with a time zone, e.g. 2027-01-01T00:00:00Z.",
    "The name field must not be greater than 100 characters.",
    "The scopes field is required.",
    "--key must be a whole number of at least 1.",
    /--grace/,
    "No network with id 999999.",
    "--scopes is required.",
    'The selected scope "root" is invalid.',
  ];
  runs.forEach((run, i) => expectRefusal(run, expected[i]));
  expect(await db.prisma.apiKey.count()).toBe(keysBefore);
  expect(await db.prisma.network.count({ where: { name: "Bad scopes" } })).toBe(0);
  expect((await db.apiKeys.byId(theirs.network.id, theirs.key.id))!.revokedAt).toBeNull();
  expect((await db.apiKeys.byId(mine.network.id, mine.key.id))!.revokedAt).toBeNull();
});

test("--help lists the key commands; each command's --help its options, --origin repeatable", async () => {
  const [help, create, list, revoke, regenerate] = await Promise.all([
    admin("--help"),
    admin("key", "create", "--help"),
    admin("key", "list", "--help"),
    admin("key", "revoke", "--help"),
    admin("network", "regenerate-key", "--help"),
  ]);
  for (const command of ["key create", "key list", "key revoke", "network regenerate-key"]) expect(help.stdout).toMatch(new RegExp(`^  ${command} +\\S.*$`, "m"));
  expect(create.stdout).toMatch(/^Usage: admin key create --network ID --name NAME --scopes LIST \[--origin URL\]\.\.\. \[--expires-at ISO\]$/m);
  for (const option of ["--network ID", "--name NAME", "--scopes LIST", "--origin URL", "--expires-at ISO"]) expect(create.stdout).toMatch(new RegExp(`^  ${option} +\\S`, "m"));
  expect(list.stdout).toMatch(/^Usage: admin key list --network ID$/m);
  expect(revoke.stdout).toMatch(/^Usage: admin key revoke --network ID --key KEY_ID \[--grace SECONDS\]$/m);
  expect(revoke.stdout).toMatch(/^ {2}--grace SECONDS +how long the key stays valid \(default 0: revoked at once\)$/m);
  expect(regenerate.stdout).toMatch(/^Usage: admin network regenerate-key --network ID \[--key KEY_ID\] \[--grace SECONDS\]$/m);
  for (const run of [help, create, list, revoke, regenerate]) expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: "" });
});
