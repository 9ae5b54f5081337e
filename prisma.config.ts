// Prisma CLI configuration. The CLI runs on the Wasm engines through a driver adapter, because
// native engines cannot be downloaded on our machines (see README, "Database").
import path from "node:path";
import { defineConfig } from "prisma/config";
import { PrismaLibSQL } from "@prisma/adapter-libsql";
import { databaseUrl } from "./src/config/database";

// The schema's datasource url must resolve, or the CLI falls back to downloading an engine.
process.env.DATABASE_URL = databaseUrl(process.env);

export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: path.join("prisma", "sqlite", "schema.prisma"),
  migrations: { path: path.join("prisma", "sqlite", "migrations") },
  async adapter() {
    return new PrismaLibSQL({ url: process.env.DATABASE_URL! });
  },
});
