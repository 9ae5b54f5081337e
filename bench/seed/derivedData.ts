// Triggers that keep derived data (counts) in step with the bulk tables row by row. During a bulk
// load the seed switches off the ones it knows and rebuilds their data in one statement after
// the load (as the migration that added them does). Triggers not listed here stay active: the
// data stays right, the load is only slower, and the seed says so on stderr.

export interface DerivedData {
  table: string;
  /** Trigger names per provider, as the migrations create them. */
  triggers: { sqlite: string[]; postgresql: string[] };
  /** Recomputes the derived data from the loaded rows (SQL, or SQL per provider; SQLite's may hold several statements). */
  rebuild: string | Record<"sqlite" | "postgresql", string>;
}

export const rebuildSql = (derived: DerivedData, provider: "sqlite" | "postgresql") =>
  typeof derived.rebuild === "string" ? derived.rebuild : derived.rebuild[provider];

/** The start of a record's hour, as each provider's migration writes it (*_record_hour_counts). */
const hourOf = { sqlite: `strftime('%Y-%m-%dT%H:00:00.000+00:00', "created_at")`, postgresql: `date_trunc('hour', "created_at")` };

/**
 * SQLite: a column's instant in the app's text, as the migration *_direct_sql_derived_data
 * rewrites it (text that starts with a date and SQLite reads; anything else as it is).
 */
const appInstant = (column: string) =>
  `CASE WHEN "${column}" GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]*' ` +
  `THEN coalesce(strftime('%Y-%m-%dT%H:%M:%f+00:00', "${column}"), "${column}") ELSE "${column}" END`;

export const derivedData: DerivedData[] = [
  {
    // prisma/*/migrations/20261122005050_network_vehicle_count, 20261122024538_network_vehicle_version
    // and *_direct_sql_derived_data (vehicle_version needs no rebuild: any value is right as long
    // as writes raise it).
    table: "vehicles",
    triggers: {
      sqlite: ["vehicles_count_insert", "vehicles_count_delete", "vehicles_count_update", "vehicles_version_update"],
      postgresql: ["vehicles_count", "vehicles_version"],
    },
    rebuild: `UPDATE "networks" SET "vehicle_count" = (SELECT COUNT(*) FROM "vehicles" WHERE "vehicles"."network_id" = "networks"."id")`,
  },
  ...(
    [
      ["mission_reports", "mission_report_count"],
      ["patient_files", "patient_file_count"],
      ["offender_files", "offender_file_count"],
    ] as const
  ).map(([table, column]) => ({
    // prisma/*/migrations/20261123060000_network_record_counts and *_direct_sql_derived_data
    table,
    triggers: { sqlite: [`${table}_count_insert`, `${table}_count_delete`, `${table}_count_update`], postgresql: [`${table}_count`] },
    rebuild: `UPDATE "networks" SET "${column}" = (SELECT COUNT(*) FROM "${table}" WHERE "${table}"."network_id" = "networks"."id")`,
  })),
  ...(["mission_reports", "patient_files", "offender_files"] as const).map((table) => ({
    // prisma/*/migrations/*_record_hour_counts
    table,
    triggers: { sqlite: ["insert", "delete", "update"].map((op) => `${table}_hour_${op}`), postgresql: [`${table}_hour_count`] },
    rebuild: Object.fromEntries(
      (["sqlite", "postgresql"] as const).map((provider) => [
        provider,
        `INSERT INTO "record_hour_counts" ("network_id", "table_name", "hour", "count") ` +
          `SELECT "network_id", '${table}', ${hourOf[provider]}, COUNT(*) FROM "${table}" WHERE ${hourOf[provider]} IS NOT NULL GROUP BY 1, 3`,
      ]),
    ) as Record<"sqlite" | "postgresql", string>,
  })),
  ...(
    [
      ["dutytime_entries", ["insert", "update", "delete"].map((op) => `dutytime_entries_version_${op}`), "dutytime_entries_version"],
      ["officers", ["officers_version_update", "officers_version_delete"], "officers_version"],
    ] as const
  ).map(([table, sqlite, postgresql]) => ({
    // prisma/*/migrations/20261127033000_network_dutytime_version (and *_direct_sql_derived_data):
    // any value is right as long as writes raise it; raised once after a load, so no report
    // kept before it matches.
    table,
    triggers: { sqlite: [...sqlite], postgresql: [postgresql] },
    rebuild: `UPDATE "networks" SET "dutytime_version" = "dutytime_version" + 1`,
  })),
  ...(
    [
      ["dutytime_entries", ["started_at", "ended_at"]],
      ["officers", ["created_at", "removed_at"]],
      ["mission_reports", ["created_at"]],
      ["patient_files", ["created_at"]],
      ["offender_files", ["created_at"]],
    ] as const
  ).map(([table, columns]) => ({
    // prisma/sqlite/migrations/*_direct_sql_derived_data (SQLite only): instants in the app's
    // text. The seed writes them so (sqliteInstant, ./sqliteSink.ts): the rebuild, one pass over
    // the table, finds nothing to rewrite unless that changes.
    table,
    triggers: { sqlite: [`${table}_instants_insert`, `${table}_instants_update`], postgresql: [] },
    rebuild:
      `UPDATE "${table}" SET ${columns.map((column) => `"${column}" = ${appInstant(column)}`).join(", ")} ` +
      `WHERE ${columns.map((column) => `"${column}" IS NOT ${appInstant(column)}`).join(" OR ")}`,
  })),
  {
    // prisma/sqlite/migrations/20261122190000_vehicle_search_trigram (SQLite only)
    table: "vehicles",
    triggers: { sqlite: ["vehicles_search_insert", "vehicles_search_delete", "vehicles_search_update"], postgresql: [] },
    rebuild: `INSERT INTO "vehicles_search"("vehicles_search") VALUES ('rebuild')`,
  },
  {
    // prisma/sqlite/migrations/20261123200000_vehicle_search_keys (SQLite only), built as there
    table: "vehicles",
    triggers: {
      sqlite: ["insert", "delete", "update_old", "update_new"].map((op) => `vehicle_search_keys_${op}`),
      postgresql: [],
    },
    rebuild:
      `INSERT INTO "vehicle_search_keys"(rowid, "keys") SELECT "id", "keys" FROM "vehicle_search_key_lists"; ` +
      `INSERT INTO "vehicle_search_keys"("vehicle_search_keys") VALUES ('optimize')`,
  },
];

export function warnActiveTriggers(active: Array<{ table: string; name: string }>): void {
  for (const trigger of active) {
    process.stderr.write(`note: trigger ${trigger.name} on ${trigger.table} stays active during the load (unknown to bench/seed/derivedData.ts)\n`);
  }
}
