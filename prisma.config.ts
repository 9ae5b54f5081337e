// Prisma CLI configuration. The CLI runs on the Wasm engines through a driver adapter, because
// native engines cannot be downloaded on our machines. DATABASE_URL picks the provider: its
// schema folder, its migration history and its adapter.
import path from "node:path";
import { defineConfig } from "prisma/config";
import { databaseUrl, providerOf, type DatabaseProvider } from "./src/config/database";
import { postgresCliAdapter } from "./src/db/postgres/cliAdapter";
import { sqliteCliAdapter } from "./src/db/sqlite/cliAdapter";

/**
 * SQLite's FTS5 virtual tables, created by hand-written migrations (Prisma's schema cannot
 * describe them). Declared here once: scripts/new-migration.ts checks the list against the
 * migration history and refuses a generated migration that still names any of these tables.
 */
export const sqliteFts5Tables = ["vehicles_search", "vehicle_search_keys"];

/** The tables FTS5 creates for a virtual table and keeps to itself (some only with content). */
const fts5ShadowSuffixes = ["_config", "_content", "_data", "_docsize", "_idx"];

/**
 * Tables Prisma must neither create nor drop nor change ("externally managed tables"): without
 * them `prisma migrate diff` wants to drop the FTS5 tables and their shadow tables (and a
 * migration doing so fails to apply). Nothing on PostgreSQL: its hand-written objects (trigram
 * and partial indexes, trigger functions, extensions) are not tables and Prisma's diff leaves
 * them alone.
 */
export const externalTables: Record<DatabaseProvider, string[]> = {
  sqlite: sqliteFts5Tables.flatMap((table) => [table, ...fts5ShadowSuffixes.map((suffix) => table + suffix)]),
  postgresql: [],
};

// The schema's datasource url must resolve, or the CLI falls back to downloading an engine.
process.env.DATABASE_URL = databaseUrl(process.env);
const url = process.env.DATABASE_URL;
const provider = providerOf(url);

export default defineConfig({
  experimental: { adapter: true, externalTables: true },
  engine: "js",
  schema: path.join("prisma", provider, "schema.prisma"),
  migrations: { path: path.join("prisma", provider, "migrations") },
  tables: { external: externalTables[provider] },
  async adapter() {
    return provider === "sqlite" ? sqliteCliAdapter(url) : postgresCliAdapter(url);
  },
});
