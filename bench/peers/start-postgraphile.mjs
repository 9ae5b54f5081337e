#!/usr/bin/env node
// Starts PostGraphile 5 (the second generic peer, issue 38 item 4) on the SAME PostgreSQL database
// the service uses, with the schema its plain `amber` preset generates for the `public` schema.
//
//   node bench/peers/start-postgraphile.mjs --database-url URL --port P [--host H]
//
// URL is the service's DATABASE_URL, `postgresql://...` or `postgres://...`: PostGraphile is
// PostgreSQL only, so a SQLite URL (`file:`, `sqlite:`) is refused. Prints exactly one line on
// stdout, "listening on http://H:P", once a GraphQL query for one vehicle answers 200 with data;
// errors go to stderr and the exit code is 1. SIGTERM/SIGINT close the server and release the pool.
//
// The preset: `PostGraphileAmberPreset` and nothing else (no plugins, no smart tags, no
// simplify-inflection), the `pg` adaptor with a pool of 10 (like the service's), schema `public`
// as the service's migrations create it (every table is exposed, `_prisma_migrations` and
// `record_hour_counts` too: they break nothing and no request of the bench reads them), no
// GraphiQL, no watch, no explain, no JWT or pgSettings. GRAPHILE_ENV defaults to "production"
// (Grafast's mode when unset, without its warning); the pool has pg's defaults otherwise (the
// service sets random_page_cost=1.1 and no idle timeout on its connections; Platformatic and this
// peer do not).
//
// What 5.1.5's amber generates for `vehicles` (checked with printSchema): `allVehicles(first,
// last, offset, before, after, condition: VehicleCondition, orderBy: [VehicleOrderBy!] =
// [PRIMARY_KEY_ASC]): VehicleConnection` with `nodes`, `edges`, `pageInfo` and `totalCount`;
// `vehicleByRowId(rowId: Int!)`; the Relay `vehicle(id: ID!)`. The type `Vehicle` names the
// columns camelCased (car_type -> carType) except the primary key: `id` is the global Node ID
// and the column `id` is `rowId`; the foreign key is both `networkId` and `networkByNetworkId`.
// VehicleCondition has equality on the indexed columns only (rowId, networkId, plate, car, owner,
// generalInspection, wanted, searchText).
//
// The equivalents of our scenarios (N = network id, V = vehicle id; fields: bench/lib/vehicleSelection.ts):
// - GraphQL list, ours `{ vehicles(page: 1, perPage: 15) { data {...} meta { total ... } } }`
//   (15 a page, ORDER BY id, the network's total):
//     query ($n: Int!) {
//       allVehicles(condition: {networkId: $n}, orderBy: [PRIMARY_KEY_ASC], first: 15, offset: 0) {
//         totalCount
//         nodes { rowId plate carType car owner generalInspection comment color wanted wantedReason synced syncId createdAt updatedAt } } }
//     variables {"n": N}
//   totalCount is a COUNT(*) over the condition, run with the page in one request (Platformatic's
//   countVehicles is a second root field; the service keeps its totals).
// - Get by id, ours REST `GET /vehicles/V` (WHERE id = V AND network_id = N). PostGraphile has no
//   REST; the scoped GraphQL fetch (the one the bench sends, bench/peers/README.md says why):
//     query ($v: Int!, $n: Int!) {
//       allVehicles(condition: {rowId: $v, networkId: $n}, first: 1) { nodes { rowId plate ... updatedAt } } }
//     variables {"v": V, "n": N}
//   The unscoped fetch by primary key: `query ($v: Int!) { vehicleByRowId(rowId: $v) { rowId plate ... updatedAt } }`.
// The other scenarios have no entry for this peer (it is measured on these two only).
//
// Auth: none. PostGraphile runs open (no JWT, no pgSettings), so the bench passes the network id
// as a condition argument; the service looks up and checks an API key on every request. That
// favours the peer.
import { createServer } from "node:http";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { parseArgs } from "node:util";

function fail(message) {
  process.stderr.write(`start-postgraphile: ${message}\n`);
  process.exit(1);
}

const { values } = parseArgs({
  options: {
    "database-url": { type: "string", default: process.env.DATABASE_URL },
    port: { type: "string", default: process.env.PORT },
    host: { type: "string", default: "127.0.0.1" },
  },
  strict: true,
});

const url = values["database-url"];
const port = Number(values.port);
if (!url) fail("--database-url is required");
if (/^(file|sqlite):/.test(url)) fail(`PostGraphile is PostgreSQL only: ${url.split(":")[0]}: URLs (SQLite) are not supported`);
if (!/^postgres(ql)?:\/\//.test(url)) fail("--database-url must start with postgresql:// or postgres://");
if (!Number.isInteger(port) || port < 1 || port > 65535) fail("--port must be a port number");

// Grafast reads it as it loads: set before the imports below.
process.env.GRAPHILE_ENV ??= "production";
const { postgraphile } = await import("postgraphile");
const { PostGraphileAmberPreset } = await import("postgraphile/presets/amber");
const { makePgService } = await import("postgraphile/adaptors/pg");
const { grafserv } = await import("postgraphile/grafserv/node");

const preset = {
  extends: [PostGraphileAmberPreset],
  pgServices: [makePgService({ connectionString: url, schemas: ["public"], poolConfig: { max: 10 } })],
  grafserv: { graphiql: false, watch: false, websockets: false },
  grafast: { explain: false },
};

const pgl = postgraphile(preset);
const server = createServer();

let closing = false;
async function close() {
  await new Promise((resolve) => server.close(() => resolve()));
  await pgl.release();
}
for (const signal of ["SIGTERM", "SIGINT"]) {
  process.on(signal, async () => {
    if (closing) return;
    closing = true;
    try {
      await close();
    } catch (error) {
      process.stderr.write(`start-postgraphile: closing: ${error?.stack ?? error}\n`);
    } finally {
      process.exit(0);
    }
  });
}

try {
  // Introspection happens here: a wrong database fails now, with PostgreSQL's message.
  await pgl.getSchema();
  const serv = pgl.createServ(grafserv);
  await serv.addTo(server);
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, values.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
} catch (error) {
  fail(error?.stack ?? String(error));
}
server.on("error", (error) => process.stderr.write(`start-postgraphile: ${error?.stack ?? error}\n`));

/** Its package.json is not among its exports: read next to its main file (dist/index.js). */
function postgraphileVersion() {
  const main = createRequire(import.meta.url).resolve("postgraphile");
  return JSON.parse(fs.readFileSync(path.join(path.dirname(main), "..", "package.json"), "utf8")).version;
}

const base = `http://${values.host.includes(":") ? `[${values.host}]` : values.host}:${port}`;

// "Once it answers": a real query for one vehicle must come back 200 with data, or this is the
// wrong database (no `vehicles` table: no allVehicles field).
const probe = await fetch(`${base}/graphql`, {
  method: "POST",
  headers: { "content-type": "application/json", accept: "application/json" },
  body: JSON.stringify({ query: "{ allVehicles(first: 1) { totalCount nodes { rowId } } }" }),
}).catch((error) => error);
const answer = probe instanceof Response ? await probe.text() : String(probe);
let data;
try {
  data = probe instanceof Response && probe.status === 200 ? JSON.parse(answer) : null;
} catch {
  data = null;
}
if (!data?.data?.allVehicles || data.errors) {
  await close().catch(() => {});
  fail(
    `POST /graphql { allVehicles } did not answer 200 with data (${probe instanceof Response ? `HTTP ${probe.status} ` : ""}${answer}); is the service's schema in this database?`,
  );
}

process.stderr.write(
  `start-postgraphile: postgraphile ${postgraphileVersion()}` +
    ` on ${url.replace(/\/\/[^@/]*@/, "//***@")}, ready ${Math.round(performance.now())} ms after the process started\n`,
);
process.stdout.write(`listening on ${base}\n`);
