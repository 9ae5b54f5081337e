// A service process killed (SIGKILL, no shutdown) during a stream of writes leaves committed
// changes and their events one to one: each change commits in one transaction with its event
// (src/events/record.ts), so the kill can cut off a whole change, never half of one.
import { spawn } from "node:child_process";
import path from "node:path";
import { freePort, unsupportedNodeAllowance } from "./support/process";
import { freshDatabase, type FreshDatabase } from "./support/database";
import { migrate } from "../src/db/migrate";
import { openDatabase } from "../src/db/client";
import { createNetwork } from "../src/admin/networks";
import { Prisma } from "../src/generated/prisma/client";

jest.setTimeout(120_000);
const repoRoot = path.resolve(__dirname, "..");
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let database: FreshDatabase;
beforeAll(async () => {
  database = await freshDatabase();
  await migrate(database.url);
});
afterAll(() => database.drop());

test("kill -9 during concurrent creates, toggles and reports: every committed change has its one event, sequences 1..N", async () => {
  const setup = await openDatabase(database.url);
  const { network, apiKey } = await createNetwork(setup, { name: "Crash", identifierType: "steam", graceSeconds: 0 }, new Date());
  await setup.close();

  const host = "127.0.0.1";
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env, ...unsupportedNodeAllowance(), PORT: String(port), HOST: host, DATABASE_URL: database.url, LOG_LEVEL: "silent" };
  delete env.DATA_DIR;
  const child = spawn(path.join(repoRoot, "node_modules", ".bin", "tsx"), ["src/main.ts"], { cwd: repoRoot, env, detached: true, stdio: "ignore" });
  const base = `http://${host}:${port}`;
  for (let i = 0; i < 1200; i++) {
    try {
      if ((await fetch(`${base}/healthz`)).status === 200) break;
    } catch {
      // not listening yet
    }
    await sleep(50);
  }
  const headers = { "X-API-Key": apiKey, "Content-Type": "application/json", Accept: "application/json" };
  const post = (pathName: string, body: unknown = {}) => fetch(`${base}${pathName}`, { method: "POST", headers, body: JSON.stringify(body) }).catch(() => null);
  const graphql = (query: string) => fetch(`${base}/graphql`, { method: "POST", headers, body: JSON.stringify({ query }) }).catch(() => null);
  for (const id of [1, 2, 3, 4]) expect((await graphql(`mutation { createOfficer(input: {identifier: "steam:${id}", name: "Officer ${id}"}) { identifier } }`))?.status).toBe(200);

  // Eight writers until the kill: vehicles, toggles of four officers, mission reports.
  let writing = true;
  let answered = 0;
  const writers = Array.from({ length: 8 }, (_, writer) =>
    (async () => {
      for (let i = 0; writing; i++) {
        const kind = (writer + i) % 3;
        const answer = await (kind === 0
          ? post("/vehicles", { plate: `CR-${writer}-${i}` })
          : kind === 1
            ? post(`/dutytime/steam:${(writer % 4) + 1}/toggle`)
            : graphql("mutation { createMissionReport(input: {}) { id } }"));
        if (answer?.ok) answered++;
      }
    })(),
  );
  await sleep(1500);
  process.kill(-child.pid!, "SIGKILL");
  writing = false;
  await Promise.all(writers);
  expect(answered).toBeGreaterThan(20);

  const db = await openDatabase(database.url);
  try {
    const count = async (sql: Prisma.Sql) => Number((await db.read.first<{ n: number | string }>(sql))?.n ?? -1);
    const id = network.id;
    const events = (type: string) => count(Prisma.sql`SELECT COUNT(*) AS n FROM events WHERE network_id = ${id} AND type = ${type}`);
    const pairs = {
      vehicles: [await count(Prisma.sql`SELECT COUNT(*) AS n FROM vehicles WHERE network_id = ${id}`), await events("vehicle.created")],
      entries: [await count(Prisma.sql`SELECT COUNT(*) AS n FROM dutytime_entries WHERE network_id = ${id}`), await events("dutytime.started")],
      ended: [await count(Prisma.sql`SELECT COUNT(*) AS n FROM dutytime_entries WHERE network_id = ${id} AND ended_at IS NOT NULL`), await events("dutytime.stopped")],
      reports: [await count(Prisma.sql`SELECT COUNT(*) AS n FROM mission_reports WHERE network_id = ${id}`), await events("missionReport.created")],
    };
    for (const [what, [rows, recorded]] of Object.entries(pairs)) expect({ what, rows }).toEqual({ what, rows: recorded });
    const sequences = await db.read<{ sequence: number | string }>(Prisma.sql`SELECT sequence FROM events WHERE network_id = ${id} ORDER BY sequence`);
    const last = await count(Prisma.sql`SELECT event_sequence AS n FROM networks WHERE id = ${id}`);
    expect(sequences.map((row) => Number(row.sequence))).toEqual(Array.from({ length: last }, (_, i) => i + 1));
    expect(pairs.vehicles[0]).toBeGreaterThan(0);
  } finally {
    await db.close();
  }
});
