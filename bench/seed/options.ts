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
  /**
   * Officers of the reference network. Officers grow with the square root of a network's
   * vehicles: a network of v vehicles has round(officers * sqrt(v / referenceSize)), at least 1
   * and at most maxOfficers. With the full sizes: the largest network (200,000 vehicles) 200, the
   * reference network (2,000) 20, the biggest other (~38,000) 87, the smallest (~380) 9; ~16,000
   * in all. The history10x network has as many as the largest.
   */
  officers: number;
  /** Most officers of one network. */
  maxOfficers: number;
  /**
   * Closed shifts per officer and week, on average: each officer's own rate is 0.25x to 1.75x
   * of it (uniform), each shift 1 to 10 hours (4 on average, at any time of day, so some cross
   * midnight), the gaps between them random.
   */
  shiftsPerWeek: number;
  /**
   * Days of dutytime history before the seed's "now" (at least a year, so a report of the last
   * 365 days by month has data in every month). The history10x network's reaches 10x as far
   * back, with the largest network's officers and shift rates: 10x its entries.
   */
  dutytimeDays: number;
  /** Share of officers on duty now (one open entry each, started up to 8 hours ago). */
  onDutyShare: number;
  /** Share of officers removed (their history ends at the removal, at a random time within it). */
  removedShare: number;
  /** Mission reports, patient files and offender files: average per network of each kind. */
  records: number;
  /** Share of records whose creation time is unknown (NULL created_at). */
  unknownShare: number;
  /** Where to write the API keys of the largest, the reference, a small and the history10x network. */
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
  "max-officers": "integer",
  "shifts-per-week": "number",
  "dutytime-days": "integer",
  "on-duty-share": "number",
  "removed-share": "number",
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
  "max-officers": 200,
  "shifts-per-week": 3,
  "dutytime-days": 400,
  "on-duty-share": 0.1,
  "removed-share": 0.03,
  records: 200,
  "unknown-share": 0.1,
  seed: 1,
};

/**
 * Small but with the same shape: a largest network, a reference network, the history10x network
 * and two others; the full dutytime history (~25,000 entries, most of them history10x's).
 */
const smallSize: Partial<typeof fullSize> = {
  networks: 5,
  vehicles: 3000,
  largest: 1000,
  "reference-size": 200,
  officers: 5,
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
    maxOfficers: size["max-officers"],
    shiftsPerWeek: size["shifts-per-week"],
    dutytimeDays: size["dutytime-days"],
    onDutyShare: size["on-duty-share"],
    removedShare: size["removed-share"],
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
  if (o.networks < 3) fail("--networks must be at least 3 (the largest, the reference and the history10x network)");
  if (o.referenceSize < 1 || o.largest < 1) fail("--largest and --reference-size must be at least 1");
  if (o.referenceSize > o.largest) fail("--reference-size must not exceed --largest");
  if (o.largest + 2 * o.referenceSize > o.vehicles) fail("--vehicles must be at least --largest + 2 * --reference-size (history10x has as many as the reference)");
  for (const [name, value] of [["officers", o.officers], ["records", o.records], ["shifts-per-week", o.shiftsPerWeek]] as const) {
    if (value < 0) fail(`--${name} must not be negative`);
  }
  if (o.maxOfficers < 1) fail("--max-officers must be at least 1");
  if (o.dutytimeDays < 1) fail("--dutytime-days must be at least 1");
  for (const [name, value] of [["on-duty-share", o.onDutyShare], ["unknown-share", o.unknownShare], ["removed-share", o.removedShare]] as const) {
    if (value < 0 || value > 1) fail(`--${name} must be between 0 and 1`);
  }
}
