// Writes schema.graphql, the committed public schema (a test fails when it is stale).
import fs from "node:fs";
import path from "node:path";
import { printSchema, lexicographicSortSchema } from "graphql";
import { schema } from "../src/schema";

export const printedSchema = () => printSchema(lexicographicSortSchema(schema)) + "\n";

if (require.main === module) {
  fs.writeFileSync(path.join(__dirname, "..", "schema.graphql"), printedSchema());
}
