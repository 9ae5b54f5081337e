// Prisma CLI configuration. The CLI runs on the Wasm engines through a driver adapter, because
// native engines cannot be downloaded on our machines. DATABASE_URL picks the provider: its
// schema folder, its migration history and its adapter.
import path from "node:path";
import { defineConfig } from "prisma/config";
import { databaseUrl, providerOf } from "./src/config/database";
import { postgresCliAdapter } from "./src/db/postgresCliAdapter";
import { sqliteCliAdapter } from "./src/db/sqliteCliAdapter";

// The schema's datasource url must resolve, or the CLI falls back to downloading an engine.
process.env.DATABASE_URL = databaseUrl(process.env);
const url = process.env.DATABASE_URL;
const provider = providerOf(url);

export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: path.join("prisma", provider, "schema.prisma"),
  migrations: { path: path.join("prisma", provider, "migrations") },
  async adapter() {
    return provider === "sqlite" ? sqliteCliAdapter(url) : postgresCliAdapter(url);
  },
});
