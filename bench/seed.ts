// Fills a FRESH database with a realistic data set for the benchmarks, fast:
//   tsx bench/seed.ts --database-url URL [--networks 1000] [--vehicles 2000000] [--largest 200000]
//     [--reference-size 2000] [--officers 20] [--max-officers 200] [--shifts-per-week 3]
//     [--dutytime-days 400] [--on-duty-share 0.1] [--removed-share 0.03] [--records 200]
//     [--unknown-share 0.1] [--seed 1] [--keys-out FILE]
//   (sizes and what they mean: bench/seed/options.ts)
//   tsx bench/seed.ts --small [--database-url URL]   (smoke size, seconds; a temporary SQLite file by default)
// It migrates with the service's own runner, streams generated rows in big batches (progress on
// stderr), rebuilds indexes, analyzes, and prints a JSON summary on stdout.
import { providerOf } from "../src/config/database";
import { migrate } from "../src/db/migrate";
import { runMain } from "./lib/args";
import { planNetworks, type PlannedNetwork } from "./seed/networkPlan";
import { writeKeysFile } from "./seed/keysFile";
import { readSeedOptions, type SeedOptions } from "./seed/options";
import { progress, type TableLoad } from "./seed/progress";
import { Random } from "./seed/random";
import * as rows from "./seed/rows";
import { openSink, secondsSince, type Sink } from "./seed/sink";
import * as tables from "./seed/tables";
import type { Row, TableSpec } from "./seed/tables";

/** Streams rows into a table chunk by chunk; the next chunk is generated while the database writes. */
async function load(sink: Sink, table: TableSpec, source: Iterable<Row>, total: number): Promise<TableLoad> {
  const shown = progress(table.name, total);
  let chunk: Row[] = [];
  let pending: Promise<void> = Promise.resolve();
  for (const row of source) {
    chunk.push(row);
    if (chunk.length === sink.chunkRows) {
      await pending;
      pending = sink.insert(table, chunk);
      shown.add(chunk.length);
      chunk = [];
    }
  }
  await pending;
  if (chunk.length > 0) {
    await sink.insert(table, chunk);
    shown.add(chunk.length);
  }
  return shown.done();
}

/** Records of one kind per network, proportional to its vehicles (busier communities write more). */
function recordCounts(plan: PlannedNetwork[], options: SeedOptions) {
  const total = options.records * options.networks;
  return plan.map((network) => ({ id: network.id, rows: Math.round((total * network.vehicles) / options.vehicles) }));
}

async function main() {
  const options = readSeedOptions(process.argv.slice(2));
  const random = new Random(options.seed);
  // Planned before touching the database, so impossible sizes fail at once.
  const plan = planNetworks(options, random);
  const started = performance.now();
  const applied = await migrate(options.databaseUrl);
  const migrateSeconds = secondsSince(started);
  process.stderr.write(`migrated (${applied.length} migration(s) applied) in ${migrateSeconds.toFixed(1)} s\n`);

  const sink = await openSink(options.databaseUrl);
  try {
    await sink.checkFresh();
    const now = Date.now();
    const loadStart = performance.now();
    await sink.beginLoad(tables.bulkTables);

    const loads: TableLoad[] = [];
    loads.push(await load(sink, tables.networksTable, rows.networkRows(plan, options.dutytimeDays, random, now), plan.length));
    const issued = rows.apiKeyRows(plan, now);
    loads.push(await load(sink, tables.apiKeysTable, issued.rows, issued.rows.length));
    const officers = rows.planOfficers(plan, options, random, now);
    loads.push(await load(sink, tables.officersTable, rows.officerRows(officers), officers.length));

    let openEntries = 0;
    const dutytime = rows.dutytimeRows(officers, options, random, now);
    const counted = (function* () {
      for (const row of dutytime.rows) {
        if (row[4] === null) openEntries++;
        yield row;
      }
    })();
    loads.push(await load(sink, tables.dutytimeTable, counted, dutytime.count));

    const vehicleNetworks = rows.rowNetworks(plan.map((n) => ({ id: n.id, rows: n.vehicles })), random);
    loads.push(await load(sink, tables.vehiclesTable, rows.vehicleRows(vehicleNetworks, random, now), options.vehicles));

    const recordsPerNetwork = recordCounts(plan, options);
    const recordKinds = [
      [tables.missionReportsTable, rows.missionTitle],
      [tables.patientFilesTable, rows.recordPerson],
      [tables.offenderFilesTable, rows.recordPerson],
    ] as const;
    for (const [table, text] of recordKinds) {
      const order = rows.rowNetworks(recordsPerNetwork, random);
      loads.push(await load(sink, table, rows.recordRows(order, text, options.unknownShare, random, now), order.length));
    }
    const loadSeconds = secondsSince(loadStart);

    process.stderr.write("rebuilding indexes and analyzing ...\n");
    const finish = await sink.finishLoad(tables.allTables);
    process.stderr.write(`indexes in ${finish.indexSeconds.toFixed(1)} s, analyze in ${finish.analyzeSeconds.toFixed(1)} s\n`);

    const largest = plan.find((n) => n.role === "largest")!;
    const reference = plan.find((n) => n.role === "reference")!;
    const history10x = plan.find((n) => n.role === "history10x")!;
    const others = plan.filter((n) => n.role === "other");
    const small = others.length > 0 ? others.reduce((a, b) => (b.vehicles < a.vehicles ? b : a)) : reference;
    if (options.keysOut) writeKeysFile(options.keysOut, { largest, reference, small, history10x }, issued.keys, officers, now);
    const officersIn = (network: PlannedNetwork) => officers.filter((officer) => officer.networkId === network.id).length;

    const rowsLoaded = loads.reduce((sum, l) => sum + l.rows, 0);
    const rowsOf = (table: TableSpec) => loads.find((l) => l.table === table.name)?.rows ?? 0;
    const totalSeconds = secondsSince(started);
    const summary = {
      provider: providerOf(options.databaseUrl),
      databaseUrl: withoutPassword(options.databaseUrl),
      networks: {
        largest: { id: largest.id, vehicles: largest.vehicles, officers: officersIn(largest) },
        reference: { id: reference.id, vehicles: reference.vehicles, officers: officersIn(reference) },
        small: { id: small.id, vehicles: small.vehicles, officers: officersIn(small) },
        history10x: { id: history10x.id, vehicles: history10x.vehicles, officers: officersIn(history10x) },
        otherVehiclesMax: others.reduce((m, n) => Math.max(m, n.vehicles), 0),
      },
      counts: {
        networks: plan.length,
        apiKeys: issued.rows.length,
        officers: officers.length,
        dutytimeEntries: dutytime.count,
        openDutytimeEntries: openEntries,
        vehicles: options.vehicles,
        missionReports: rowsOf(tables.missionReportsTable),
        patientFiles: rowsOf(tables.patientFilesTable),
        offenderFiles: rowsOf(tables.offenderFilesTable),
      },
      tables: loads,
      seconds: {
        migrate: round(migrateSeconds),
        load: round(loadSeconds),
        indexes: round(finish.indexSeconds),
        analyze: round(finish.analyzeSeconds),
        total: round(totalSeconds),
      },
      rowsPerSecond: { load: Math.round(rowsLoaded / loadSeconds), overall: Math.round(rowsLoaded / totalSeconds) },
      keysFile: options.keysOut,
      options: { ...options, databaseUrl: undefined },
    };
    process.stdout.write(JSON.stringify(summary, null, 2) + "\n");
    process.stderr.write(
      `largest network: ${largest.id} (${largest.vehicles} vehicles); reference network: ${reference.id} (${reference.vehicles} vehicles); seeded in ${totalSeconds.toFixed(1)} s\n`,
    );
  } finally {
    await sink.close();
  }
}

const round = (seconds: number) => Number(seconds.toFixed(2));

function withoutPassword(url: string): string {
  if (!/^postgres/.test(url)) return url;
  const parsed = new URL(url);
  if (parsed.password) parsed.password = "***";
  return parsed.toString();
}

runMain(main);
