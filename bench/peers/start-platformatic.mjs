#!/usr/bin/env node
// Starts Platformatic DB 2.x (the generic peer of issue 4, item 3b) on the SAME database the
// service uses, with Platformatic's default generated REST and GraphQL for every table.
//
//   node bench/peers/start-platformatic.mjs --database-url URL --port P [--host H] [--log-level L]
//
// URL is the service's DATABASE_URL: `file:/abs/db.sqlite`, `file:relative.db` (resolved against
// the working directory, as the service does), `file:///abs` or `sqlite:///abs` for SQLite, or
// `postgresql://...` / `postgres://...`. Prints exactly one line on stdout,
// "listening on http://H:P", once GET /vehicles?limit=1 answers 200; errors go to stderr and the
// exit code is 1. SIGTERM/SIGINT close the server and remove the temporary config directory.
//
// The config is written to a temp dir as platformatic.db.json:
// - no `migrations` block: the schema already exists (created by the service's own migrations),
//   so Platformatic neither applies (autoApply off) nor tracks migrations (no `versions` table);
// - `_prisma_migrations` (the service's migration bookkeeping) and SQLite's internal
//   `sqlite_sequence` are ignored, and so are the service's FTS5 search indexes on SQLite
//   (`vehicles_search`, `vehicle_search_keys`, their shadow tables and the keys' view, which
//   have no primary key Platformatic could map), and the service's hour counts of records
//   (`record_hour_counts`, whose primary key holds a text column, which Platformatic refuses on
//   SQLite); every other table is exposed as Platformatic generates it;
//   no plugins, no authorization, no schema lock, no watch;
// - `--log-level` defaults to Platformatic's own default, "info" (a line as each request comes in
//   and one as it is answered): the service logs a line per request by default too. Pass
//   `--log-level warn` to measure both without request lines (the service's LOG_LEVEL=warn).
// Everything else is Platformatic's default: list limit 10 unless given (max 100), autoTimestamp on
// created_at/updated_at, sql-events on, a PostgreSQL pool of 10 (like the service's), and on
// SQLite one synchronous better-sqlite3 connection.
//
// How its generated API maps to ours (N = network id, V = vehicle id, S = search term, lower-cased
// s). These are the fair equivalents: the same rows, filters and order, and a total where ours has one.
//
// - List page, ours `GET /vehicles` (page 1, 15 a page, ORDER BY id, total in meta):
//     GET /vehicles?limit=15&offset=0&where.networkId.eq=N&orderby.id=asc&totalCount=true
//   Page p is offset=(p-1)*15. The total comes as the X-Total-Count header, and Platformatic only
//   runs its COUNT when the page is full. Without orderby there is no ORDER BY at all.
// - Search, ours `GET /vehicles?search=S` (LIKE '%s%' on search_text, which the service stores
//   lower-cased over plate, car, car type, owner, color and wanted reason):
//     GET /vehicles?limit=15&offset=0&where.networkId.eq=N&where.searchText.like=%25s%25&orderby.id=asc&totalCount=true
//   Platformatic only has exact (eq/in) and LIKE/ILIKE filters per column, joined by AND, or by
//   OR through where.or; this is the same SQL on the same column. Matching plate or owner directly:
//     GET /vehicles?limit=15&where.networkId.eq=N&where.or=(plate.ilike=%25S%25|owner.ilike=%25S%25)&orderby.id=asc
//   (ILIKE on PostgreSQL; on SQLite it falls back to LIKE, case-insensitive for ASCII only).
// - Sort by owner, ours `GET /vehicles?sort_field=owner&sort_order=asc` (nulls last, ties by id):
//     GET /vehicles?limit=15&offset=0&where.networkId.eq=N&orderby.owner=asc&orderby.id=asc&totalCount=true
//   No NULLS LAST: nulls sort first on SQLite, last on PostgreSQL.
// - Get by id, ours `GET /vehicles/V` (WHERE id = V AND network_id = N):
//     GET /vehicles/V                                   (WHERE id = V only, no network scope)
//     GET /vehicles?where.id.eq=V&where.networkId.eq=N  (scoped, but answers an array)
// - Create, ours `POST /vehicles {"plate":...}`:
//     POST /vehicles {"networkId":N,"plate":...,"owner":...,"searchText":"<as the service builds it>","wanted":0,"synced":0}
//   createdAt/updatedAt come from autoTimestamp. networkId, plate, searchText, wanted and synced are
//   required (their SQL defaults are not used by the generated schema). Send wanted/synced as 0/1:
//   on SQLite the BOOLEAN columns are typed as strings, so true/false would be stored as the text
//   'true'/'false'; 0/1 is stored as an integer there and coerced to a boolean on PostgreSQL.
// - Patch, ours `PATCH /vehicles/V {"owner":...}` (only the fields sent): there is no PATCH route.
//   PUT /vehicles/V requires the same fields as create (a full replacement of those), is not scoped
//   to a network, and inserts the row if V does not exist:
//     PUT /vehicles/V {"networkId":N,"plate":...,"owner":...,"searchText":...,"wanted":0,"synced":0}
//   The partial update exists only in GraphQL:
//     mutation { saveVehicle(input: {id: V, owner: "...", searchText: "..."}) { id owner updatedAt } }
// - GraphQL list, ours `{ vehicles(page: 1, perPage: 15) { data {...} meta { total ... } } }`:
//     query ($n: ID, $limit: LimitInt, $offset: Int) {
//       vehicles(where: {networkId: {eq: $n}}, orderBy: [{field: id, direction: ASC}], limit: $limit, offset: $offset) {
//         id plate carType car owner generalInspection comment color wanted wantedReason synced syncId createdAt updatedAt }
//       countVehicles(where: {networkId: {eq: $n}}) { total } }
//     variables {"n": N, "limit": 15, "offset": 0}
//   (networkId is not a field of its Vehicle type: the foreign key becomes `network { ... }`.)
// On SQLite, Platformatic types the service's BOOLEAN and DATETIME columns as strings: wanted and
// synced come back as "0"/"1", dates as the stored text. On PostgreSQL they are booleans and ISO dates.
//
// Auth: none. Platformatic has no API-key auth by default, so it runs open and the bench passes the
// network id as a filter; the service checks an API key on every request. That favours the peer.
import { buildServer } from "@platformatic/db";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

function fail(message) {
  process.stderr.write(`start-platformatic: ${message}\n`);
  process.exit(1);
}

/** SQLite's FTS5 search index (prisma/sqlite/migrations/*_vehicle_search_trigram) and its shadow tables. */
const sqliteSearchIndexTables = Object.fromEntries([
  ...["vehicles_search", "vehicle_search_keys"].flatMap((index) =>
    ["", "_data", "_idx", "_docsize", "_config"].map((suffix) => [`${index}${suffix}`, true]),
  ),
  // The view the keys' triggers read (no primary key either).
  ["vehicle_search_key_lists", true],
]);

const { values } = parseArgs({
  options: {
    "database-url": { type: "string", default: process.env.DATABASE_URL },
    port: { type: "string", default: process.env.PORT },
    host: { type: "string", default: "127.0.0.1" },
    "log-level": { type: "string", default: "info" },
  },
  strict: true,
});

const port = Number(values.port);
if (!values["database-url"]) fail("--database-url is required");
if (!Number.isInteger(port) || port < 1 || port > 65535) fail("--port must be a port number");

/** The service's DATABASE_URL as a Platformatic connection string. */
function connectionString(url) {
  if (/^postgres(ql)?:\/\//.test(url)) return url;
  if (url.startsWith("sqlite://")) return `sqlite://${path.resolve(url.slice("sqlite://".length))}`;
  if (url.startsWith("file:")) {
    // Same reading as the service's sqliteFilePath(): file:// URLs, else the rest as a path.
    const file = url.startsWith("file://") ? fileURLToPath(url) : url.slice("file:".length);
    return `sqlite://${path.resolve(file.split("?")[0])}`;
  }
  fail("--database-url must start with file:, sqlite:// or postgresql://");
}

const dbUrl = connectionString(values["database-url"]);
if (dbUrl.startsWith("sqlite://") && !fs.existsSync(dbUrl.slice("sqlite://".length))) {
  fail(`no SQLite database at ${dbUrl.slice("sqlite://".length)}: run the service's migrations first`);
}

const configDir = fs.mkdtempSync(path.join(os.tmpdir(), "platformatic-peer-"));
const configPath = path.join(configDir, "platformatic.db.json");
const config = {
  server: {
    hostname: values.host,
    port,
    logger: { level: values["log-level"] },
  },
  db: {
    connectionString: dbUrl,
    graphql: true,
    openapi: true,
    schemalock: false,
    ignore: dbUrl.startsWith("sqlite://")
      ? { _prisma_migrations: true, sqlite_sequence: true, record_hour_counts: true, ...sqliteSearchIndexTables }
      : { _prisma_migrations: true, record_hour_counts: true },
  },
  watch: false,
};
fs.writeFileSync(configPath, JSON.stringify(config, null, 2) + "\n");

const removeConfig = () => fs.rmSync(configDir, { recursive: true, force: true });
// However the process ends (short of SIGKILL), the temp dir goes with it.
process.on("exit", removeConfig);

let app;
let closing = false;
for (const signal of ["SIGTERM", "SIGINT"]) {
  process.on(signal, async () => {
    if (closing) return;
    closing = true;
    try {
      await app?.close();
    } finally {
      process.exit(0);
    }
  });
}

try {
  app = await buildServer(configPath);
  await app.start();
} catch (error) {
  fail(error?.stack ?? String(error));
}

const base = `http://${values.host.includes(":") ? `[${values.host}]` : values.host}:${port}`;

// "Once it answers": the generated vehicles route must respond, or this is the wrong database.
const probe = await fetch(`${base}/vehicles?limit=1`).catch((error) => error);
if (!(probe instanceof Response) || probe.status !== 200) {
  await app.close().catch(() => {});
  const why = probe instanceof Response ? `HTTP ${probe.status} ${await probe.text()}` : String(probe);
  fail(`GET /vehicles did not answer 200 (${why}); is the service's schema in this database?`);
}
await probe.arrayBuffer();

process.stderr.write(
  `start-platformatic: @platformatic/db ${createRequire(import.meta.url)("@platformatic/db/package.json").version}` +
    ` on ${dbUrl.replace(/\/\/[^@/]*@/, "//***@")}, ready ${Math.round(performance.now())} ms after the process started (config ${configPath})\n`,
);
process.stdout.write(`listening on ${base}\n`);

