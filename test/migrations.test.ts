// Migrations: the schemas match their migration histories (the Prisma CLI finds no drift), the two
// providers' models stay identical, and our start-up migration runner (src/db/migrate.ts) applies
// the shipped migrations once, safely under concurrency, in a way `prisma migrate status` accepts.
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { migrate, shippedMigrations } from "../src/db/migrate";
import { freshDatabase, temporaryDir, testProvider, queryRows, type FreshDatabase } from "./support/database";

const root = path.resolve(__dirname, "..");
const cliTimeoutMs = 120_000;

// Each check runs once: the provider-independent ones in the SQLite project, PostgreSQL's in its own.
const sqliteIt = testProvider === "sqlite" ? it : it.skip;
const pgIt = testProvider === "postgresql" ? it : it.skip;

interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the real Prisma CLI from the repository root; DATABASE_URL picks provider and adapter. */
function prisma(args: string[], databaseUrl: string): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(
      "npx",
      ["prisma", ...args],
      { cwd: root, env: { ...process.env, DATABASE_URL: databaseUrl }, timeout: cliTimeoutMs },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : -1) : 0;
        resolve({ code, stdout: String(stdout), stderr: String(stderr) });
      },
    );
  });
}

/**
 * Hand-written tables Prisma's schema cannot describe: SQLite's FTS5 search indexes and the
 * shadow tables FTS5 keeps for them. The diff lists them as "to drop"; nothing else may differ.
 */
const undescribedTables = /"(vehicles_search|vehicle_search_keys)(_config|_data|_docsize|_idx)?"/;

/**
 * `migrate diff --script`, reduced to the statements that matter: an empty result (code 0) when
 * the migrations produce exactly the schema, else code 2 with the differing statements.
 */
async function driftCheck(provider: "sqlite" | "postgresql", databaseUrl: string): Promise<CliResult> {
  const result = await prisma(
    [
      "migrate", "diff",
      "--from-migrations", path.join("prisma", provider, "migrations"),
      "--to-schema-datamodel", path.join("prisma", provider, "schema.prisma"),
      "--script",
    ],
    databaseUrl,
  );
  if (result.code !== 0) return result;
  const differences = result.stdout
    .split(";")
    .map((statement) => statement.replace(/--[^\n]*/g, "").trim())
    .filter((statement) => statement !== "" && !/^PRAGMA /i.test(statement) && !undescribedTables.test(statement));
  return { ...result, code: differences.length === 0 ? 0 : 2, stdout: differences.join(";\n") };
}

/** Runs migrate() in a separate Node process at `startAt` (ms since epoch); the names it applied. */
function migrateInChild(url: string, startAt: number): Promise<string[]> {
  const code = `
    const { migrate } = require(${JSON.stringify(path.join(root, "src", "db", "migrate"))});
    setTimeout(() => migrate(${JSON.stringify(url)}).then(
      (names) => process.stdout.write(JSON.stringify(names)),
      (error) => { console.error(error); process.exit(1); },
    ), ${startAt} - Date.now());`;
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ["--require", "tsx/cjs", "-e", code], { cwd: root, timeout: cliTimeoutMs }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${error.message}\n${stderr}`));
      else resolve(JSON.parse(String(stdout)) as string[]);
    });
  });
}

/** The models of a schema file: no datasource/generator blocks, comments or alignment. */
function normalisedModels(file: string): string[] {
  return fs
    .readFileSync(path.join(root, file), "utf8")
    .split("\n")
    .map((line) => line.replace(/\/\/.*$/, "").trim().replace(/\s+/g, " "))
    .filter((line) => line !== "")
    .join("\n")
    .replace(/^(datasource|generator) \w+ \{[^}]*\}$/gm, "")
    .split("\n")
    .filter((line) => line !== "");
}

describe("migrations", () => {
  const migrations = shippedMigrations(testProvider);
  const names = migrations.map((migration) => migration.name);
  let db: FreshDatabase;

  beforeEach(async () => {
    db = await freshDatabase();
  });
  afterEach(async () => {
    await db.drop();
  });

  sqliteIt(
    "SQLite: the schema matches the migration history (no drift)",
    async () => {
      const dir = temporaryDir("vrd-cli-");
      try {
        const result = await driftCheck("sqlite", `file:${path.join(dir, "cli.db")}`);
        expect({ code: result.code, differences: result.stdout }).toEqual({ code: 0, differences: "" });
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
    cliTimeoutMs,
  );

  pgIt(
    "PostgreSQL: the schema matches the migration history (no drift)",
    async () => {
      // The server's database is not changed: the CLI adapter replays into a throwaway shadow database.
      const result = await driftCheck("postgresql", process.env.TEST_DATABASE_URL!);
      expect({ code: result.code, differences: result.stdout }).toEqual({ code: 0, differences: "" });
    },
    cliTimeoutMs,
  );

  sqliteIt("the SQLite and PostgreSQL schemas define identical models", () => {
    const pgOnly = /^@@index\(.*type: Gin.*\)$/;
    // SQLite's index of the network's vehicle ids holds their search text too (its migration says why).
    const sqliteIndex = "@@index([networkId, id, searchText])";
    const postgres = normalisedModels("prisma/postgresql/schema.prisma");
    const sqlite = normalisedModels("prisma/sqlite/schema.prisma");
    expect(postgres.filter((line) => pgOnly.test(line))).toHaveLength(1);
    expect(sqlite.filter((line) => line === sqliteIndex)).toHaveLength(1);
    expect(postgres.filter((line) => !pgOnly.test(line))).toEqual(
      sqlite.map((line) => (line === sqliteIndex ? "@@index([networkId, id])" : line)),
    );
  });

  it("applies every shipped migration to a fresh database, and none on a second run", async () => {
    expect(names.length).toBeGreaterThan(0);
    expect(await migrate(db.url)).toEqual(names);
    expect(await migrate(db.url)).toEqual([]);
  });

  /** Each shipped migration has exactly one bookkeeping row. */
  async function expectEachAppliedOnce(): Promise<void> {
    const rows = await queryRows(db, `SELECT migration_name, COUNT(*) AS n FROM "_prisma_migrations" GROUP BY migration_name`);
    expect(rows.map((row) => [String(row.migration_name), Number(row.n)]).sort()).toEqual(names.map((name) => [name, 1]));
  }

  it(
    "applies each migration once when two processes migrate one fresh database at once",
    async () => {
      // Both children call migrate() at the same wall-clock moment, after their slow start-up.
      const startAt = Date.now() + 4000;
      const [first, second] = await Promise.all([migrateInChild(db.url, startAt), migrateInChild(db.url, startAt)]);
      expect([...first, ...second].sort()).toEqual(names);
      await expectEachAppliedOnce();
    },
    cliTimeoutMs,
  );

  // On SQLite the synchronous driver would block the event loop while waiting for the lock the
  // first call holds: the runner queues calls of one process (src/db/sqlite/migrations.ts).
  it(
    "applies each migration once when two migrate() calls in one process run at once",
    async () => {
      const [first, second] = await Promise.all([migrate(db.url), migrate(db.url)]);
      expect([...first, ...second].sort()).toEqual(names);
      await expectEachAppliedOnce();
    },
    cliTimeoutMs,
  );

  it("refuses a database whose applied migration was changed afterwards", async () => {
    await migrate(db.url);
    await queryRows(db, `UPDATE "_prisma_migrations" SET checksum = 'tampered' WHERE migration_name = '${names[0]}'`);
    await expect(migrate(db.url)).rejects.toThrow(/changed after it was applied/);
  });

  it("creates the hand-written partial unique index (one open dutytime entry per officer)", async () => {
    await migrate(db.url);
    const definition =
      db.provider === "sqlite"
        ? (await queryRows(db, `SELECT sql AS def FROM sqlite_master WHERE type = 'index' AND name = 'dutytime_entries_one_open_per_officer'`))
        : (await queryRows(db, `SELECT indexdef AS def FROM pg_indexes WHERE indexname = 'dutytime_entries_one_open_per_officer'`));
    expect(definition).toHaveLength(1);
    const sql = String(definition[0].def).replace(/["()]/g, "");
    expect(sql).toMatch(/^CREATE UNIQUE INDEX/);
    expect(sql).toMatch(/WHERE ended_at IS NULL$/);
  });

  it(
    "leaves a database that `prisma migrate status` reports as up to date",
    async () => {
      await migrate(db.url);
      const result = await prisma(["migrate", "status"], db.url);
      expect(result.stdout).toContain("Database schema is up to date!");
      expect(result.code).toBe(0);
    },
    cliTimeoutMs,
  );
});
