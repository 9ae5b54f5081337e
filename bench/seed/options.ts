// Seed sizes from the command line; `--small` is the CI smoke preset (seconds on SQLite), and
// any flag given explicitly overrides a preset value.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseFlags, UsageError, type FlagSpec } from "../lib/args";

export interface SeedOptions {
  databaseUrl: string;
  /** Networks in all, the largest and the reference network included. */
  networks: number;
  /** Vehicles in all networks together. */
  vehicles: number;
  /** Vehicles of the largest network. */
  largest: number;
  /** Vehicles of the reference network (the small side of the "2k vs 200k" comparison). */
  referenceSize: number;
  /** Officers per network. */
  officers: number;
  /** Closed dutytime entries per officer. */
  dutytime: number;
  /** Share of officers on duty now (one open entry each). */
  onDutyShare: number;
  /** Mission reports, patient files and offender files: average per network of each kind. */
  records: number;
  /** Share of records whose creation time is unknown (NULL created_at). */
  unknownShare: number;
  /** Where to write the API keys of the largest, the reference and a small network. */
  keysOut: string | null;
  /** PRNG seed: the same seed gives the same data. */
  seed: number;
}

const spec: FlagSpec = {
  "database-url": "string",
  small: "boolean",
  networks: "integer",
  vehicles: "integer",
  largest: "integer",
  "reference-size": "integer",
  officers: "integer",
  dutytime: "integer",
  "on-duty-share": "number",
  records: "integer",
  "unknown-share": "number",
  "keys-out": "string",
  seed: "integer",
};

const fullSize = {
  networks: 1000,
  vehicles: 2_000_000,
  largest: 200_000,
  "reference-size": 2000,
  officers: 20,
  dutytime: 50,
  "on-duty-share": 0.1,
  records: 200,
  "unknown-share": 0.1,
  seed: 1,
};

/** Small but with the same shape: a largest network, a reference network and three others. */
const smallSize: Partial<typeof fullSize> = {
  networks: 5,
  vehicles: 3000,
  largest: 1000,
  "reference-size": 200,
  officers: 5,
  dutytime: 10,
  records: 20,
};

/** `--small` alone seeds a new SQLite file in a temporary folder (its URL is in the summary). */
function smokeDatabaseUrl(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "vrd-bench-small-"));
  return `file:${path.join(dir, "bench.db")}`;
}

export function readSeedOptions(argv: string[]): SeedOptions {
  const flags = parseFlags(argv, spec);
  const databaseUrl = typeof flags["database-url"] === "string" ? flags["database-url"] : flags.small ? smokeDatabaseUrl() : null;
  if (databaseUrl === null) throw new UsageError("--database-url is required (file:/path.db or postgresql://...)");
  const size = { ...fullSize, ...(flags.small ? smallSize : {}), ...flags } as typeof fullSize & Record<string, unknown>;
  const options: SeedOptions = {
    databaseUrl,
    networks: size.networks,
    vehicles: size.vehicles,
    largest: size.largest,
    referenceSize: size["reference-size"],
    officers: size.officers,
    dutytime: size.dutytime,
    onDutyShare: size["on-duty-share"],
    records: size.records,
    unknownShare: size["unknown-share"],
    keysOut: typeof flags["keys-out"] === "string" ? flags["keys-out"] : null,
    seed: size.seed,
  };
  checkOptions(options);
  return options;
}

function checkOptions(o: SeedOptions): void {
  const fail = (message: string) => {
    throw new UsageError(message);
  };
  if (o.networks < 2) fail("--networks must be at least 2 (the largest and the reference network)");
  if (o.referenceSize < 1 || o.largest < 1) fail("--largest and --reference-size must be at least 1");
  if (o.referenceSize > o.largest) fail("--reference-size must not exceed --largest");
  if (o.largest + o.referenceSize > o.vehicles) fail("--vehicles must be at least --largest + --reference-size");
  for (const [name, value] of [["officers", o.officers], ["dutytime", o.dutytime], ["records", o.records]] as const) {
    if (value < 0) fail(`--${name} must not be negative`);
  }
  for (const [name, value] of [["on-duty-share", o.onDutyShare], ["unknown-share", o.unknownShare]] as const) {
    if (value < 0 || value > 1) fail(`--${name} must be between 0 and 1`);
  }
}
