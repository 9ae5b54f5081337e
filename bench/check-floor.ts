// Checks that the floor answers like the service: seeds a small database, gives each server its
// own identical copy, sends both the same requests in the same order, and compares status and
// JSON body text (links' host:port and the instants of just-written rows normalised).
//   tsx bench/check-floor.ts [--postgres-url postgresql://user@host:port/postgres] [--verbose]
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseFlags, runMain } from "./lib/args";
import { createDatabase, type BenchDatabase } from "./lib/databases";
import { runScript, startServer, type RunningChild } from "./lib/processes";
import { networkKey, type BenchKeys } from "./seed/keysFile";

interface Probe {
  label: string;
  method: string;
  path: string | ((ids: Ids) => string);
  key?: "largest" | "reference" | "history10x" | "none";
  body?: unknown;
}

/** Ids learned from earlier answers (the service's), used by later probes. */
interface Ids {
  firstVehicle?: number;
  referenceVehicle?: number;
  created?: number;
}

const probes = (keys: BenchKeys): Probe[] => [
  { label: "list, default page", method: "GET", path: "/vehicles" },
  { label: "list, page 3 of 20", method: "GET", path: "/vehicles?page=3&per_page=20" },
  { label: "search with umlaut", method: "GET", path: "/vehicles?search=M%C3%9CLLER" },
  { label: "search, sort owner desc", method: "GET", path: "/vehicles?search=ls-&sort_field=owner&sort_order=desc&per_page=7&page=2" },
  { label: "sort tuv (nulls last)", method: "GET", path: "/vehicles?sort_field=tuv&per_page=5" },
  { label: "sort car desc, alias", method: "GET", path: "/vehicles?sortField=car&sortOrder=desc&perPage=4" },
  { label: "sort wanted desc", method: "GET", path: "/vehicles?sort_field=wanted&sort_order=desc&per_page=3" },
  { label: "beyond the last page", method: "GET", path: "/vehicles?sort_field=plate&page=9999" },
  { label: "literal % search", method: "GET", path: "/vehicles?search=%25" },
  { label: "per_page out of range", method: "GET", path: "/vehicles?per_page=500" },
  { label: "bad sort field and page", method: "GET", path: "/vehicles?sort_field=colour&page=x" },
  { label: "reference network list", method: "GET", path: "/vehicles?per_page=2", key: "reference" },
  { label: "get by id", method: "GET", path: (ids) => `/vehicles/${ids.firstVehicle}` },
  { label: "get another network's vehicle", method: "GET", path: (ids) => `/vehicles/${ids.referenceVehicle}` },
  { label: "get missing vehicle", method: "GET", path: "/vehicles/999999999" },
  { label: "get non-numeric id", method: "GET", path: "/vehicles/abc" },
  {
    label: "create",
    method: "POST",
    path: "/vehicles",
    body: { plate: " LS-ÄÖ 4711 ", cartyp: "Übermacht", car: "Sentinel", owner: "Jürgen Weiß", tuv: "2027-03-01", wanted: 1, wanted_reason: "Fahrerflucht 100%", sync_id: "x_1" },
  },
  { label: "create without plate", method: "POST", path: "/vehicles", body: { owner: 5, wanted: "yes", network_id: 3 } },
  { label: "create with bad values", method: "POST", path: "/vehicles", body: { plate: "  ", tuv: "2026-02-30", color: "x".repeat(256) } },
  { label: "patch", method: "PATCH", path: (ids) => `/vehicles/${ids.created}`, body: { color: "Türkis", owner: null, synced: true } },
  { label: "search the patched vehicle", method: "GET", path: "/vehicles?search=T%C3%9CRKIS&per_page=3" },
  { label: "search literal %", method: "GET", path: "/vehicles?search=100%25" },
  { label: "patch missing vehicle", method: "PATCH", path: "/vehicles/999999999", body: { color: "Rot" } },
  { label: "toggle", method: "POST", path: `/dutytime/${encodeURIComponent(keys.largest.officers[0])}/toggle` },
  { label: "toggle again", method: "POST", path: `/dutytime/${encodeURIComponent(keys.largest.officers[0])}/toggle` },
  { label: "toggle wrong identifier type", method: "POST", path: "/dutytime/discord:1/toggle" },
  { label: "toggle unknown officer", method: "POST", path: "/dutytime/steam:nobody/toggle" },
  { label: "active users", method: "GET", path: "/statistics/active-users" },
  { label: "missions last 7 days", method: "GET", path: "/statistics/missions/last-7-days" },
  { label: "missions total", method: "GET", path: "/statistics/missions/total" },
  { label: "files last 7 days", method: "GET", path: "/statistics/files/last-7-days" },
  { label: "files total", method: "GET", path: "/statistics/files/total" },
  { label: "officers page of 100", method: "GET", path: "/officers?per_page=100" },
  { label: "officers page 2 of 3", method: "GET", path: "/officers?perPage=3&page=2" },
  { label: "duty hours, month by day", method: "GET", path: dutyHours(keys, 30, "DAY") },
  { label: "duty hours, year by month", method: "GET", path: dutyHours(keys, 365, "MONTH") },
  { label: "duty hours, 10 weeks by week", method: "GET", path: dutyHours(keys, 70, "WEEK") },
  { label: "duty hours, history10x month by day", method: "GET", path: dutyHours(keys, 30, "DAY"), key: "history10x" },
  { label: "no key", method: "GET", path: "/vehicles", key: "none" },
  { label: "unknown path", method: "GET", path: "/nothing" },
];

/** A duty hours report of the `days` before the seed's hour (fixed: open entries count up to its end, not to now). */
function dutyHours(keys: BenchKeys, days: number, groupBy: string): string {
  const hour = 3_600_000;
  const until = Math.floor(Date.parse(keys.seededAt!) / hour) * hour;
  return `/statistics/duty-hours?from=${new Date(until - days * 86_400_000).toISOString()}&to=${new Date(until).toISOString()}&group_by=${groupBy}&time_zone=UTC`;
}

/** Instants written during this run differ between the two servers by design. */
function normalise(text: string, origin: string, since: number): string {
  return text
    // An open entry's duration counts up to the moment each server answered.
    .replace(/("open":true,"durationSeconds":)\d+/g, "$1<up to now>")
    .split(origin)
    .join("http://HOST")
    .replace(/"(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z)"/g, (whole, iso: string) =>
      Date.parse(iso) >= since - 1000 ? '"<written during the check>"' : whole,
    );
}

async function send(base: string, probe: Probe, target: string, keys: BenchKeys) {
  const headers: Record<string, string> = {};
  if (probe.key !== "none") headers["X-API-Key"] = networkKey(keys, probe.key ?? "largest").apiKey;
  if (probe.body !== undefined) headers["Content-Type"] = "application/json";
  const response = await fetch(base + target, { method: probe.method, headers, body: probe.body === undefined ? undefined : JSON.stringify(probe.body) });
  return { status: response.status, contentType: response.headers.get("content-type"), text: await response.text() };
}

async function main() {
  const flags = parseFlags(process.argv.slice(2), { "postgres-url": "string", verbose: "boolean" });
  const serverUrl = typeof flags["postgres-url"] === "string" ? flags["postgres-url"] : null;
  const databases: BenchDatabase[] = [];
  const servers: RunningChild[] = [];
  let differences = 0;
  try {
    const seeded = await createDatabase(serverUrl);
    databases.push(seeded);
    const keysFile = path.join(os.tmpdir(), `vrd-check-keys-${process.pid}.json`);
    await runScript(["bench/seed.ts", "--small", "--on-duty-share", "0.5", "--database-url", seeded.url, "--keys-out", keysFile], { verbose: Boolean(flags.verbose) });
    const keys = JSON.parse(fs.readFileSync(keysFile, "utf8")) as BenchKeys;
    fs.rmSync(keysFile);
    // One identical copy per server, so writes and ids line up.
    const serviceDb = await createDatabase(serverUrl, seeded.url);
    const floorDb = await createDatabase(serverUrl, seeded.url);
    databases.push(serviceDb, floorDb);

    const service = await startServer("service", ["src/main.ts"], { DATABASE_URL: serviceDb.url, PORT: "0", HOST: "127.0.0.1" });
    servers.push(service);
    const floor = await startServer("floor", ["bench/floor.ts", "--database-url", floorDb.url, "--port", "0"]);
    servers.push(floor);

    const ids: Ids = {};
    const since = Date.now();
    for (const probe of probes(keys)) {
      const target = typeof probe.path === "string" ? probe.path : probe.path(ids);
      const expected = await send(service.url, probe, target, keys);
      const actual = await send(floor.url, probe, target, keys);
      const want = normalise(expected.text, service.url, since);
      const got = normalise(actual.text, floor.url, since);
      const same = expected.status === actual.status && want === got && expected.contentType === actual.contentType;
      if (!same) differences++;
      console.log(`${same ? "same" : "DIFF"}  ${expected.status} ${probe.method} ${target}  (${probe.label})`);
      if (!same || flags.verbose) {
        console.log(`  service: ${expected.status} ${expected.contentType} ${want.slice(0, 600)}`);
        console.log(`  floor:   ${actual.status} ${actual.contentType} ${got.slice(0, 600)}`);
      }
      // Ids for later probes, from the service's answers.
      const body = expected.status < 300 && expected.text ? JSON.parse(expected.text) : null;
      if (probe.label === "list, default page") ids.firstVehicle = body.data[0].id;
      if (probe.label === "reference network list") ids.referenceVehicle = body.data[0].id;
      if (probe.label === "create") ids.created = body.data.id;
    }
    console.log(differences === 0 ? `all ${probes(keys).length} responses are the same` : `${differences} response(s) differ`);
  } finally {
    for (const server of servers) await server.stop();
    for (const database of databases) await database.drop();
  }
  if (differences > 0) process.exitCode = 1;
}

runMain(main);
