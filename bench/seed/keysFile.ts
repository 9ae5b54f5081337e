// The keys file the seed writes for load drivers: the API key and some officer identifiers of
// the largest network, the reference network, a small one and the history10x network (keys are
// not recoverable later, only their hashes are stored), and when the data was seeded.
import fs from "node:fs";
import path from "node:path";
import type { PlannedNetwork } from "./networkPlan";
import { officerIdentifier, type PlannedOfficer } from "./rows";

export interface BenchNetworkKey {
  networkId: number;
  vehicles: number;
  apiKey: string;
  /** Identifiers of officers of the network (up to 50, none removed), for dutytime scenarios. */
  officers: string[];
}

/** The networks a keys file names. */
export type BenchNetworkRole = "largest" | "reference" | "small" | "history10x";

export interface BenchKeys {
  largest: BenchNetworkKey;
  reference: BenchNetworkKey;
  small: BenchNetworkKey;
  /**
   * The network whose dutytime history is 10x the largest's, with its officers and their rates
   * (bench/seed/rows.ts); missing in keys files of seeds before it.
   */
  history10x?: BenchNetworkKey;
  /** The seed's "now" (ISO); missing in keys files of seeds before it. */
  seededAt?: string;
}

/** A network of the keys file, or a message that names the seed to run again. */
export function networkKey(keys: BenchKeys, role: BenchNetworkRole): BenchNetworkKey {
  const key = keys[role];
  if (!key) throw new Error(`the keys file names no ${role} network: seed the database again (bench/seed.ts --keys-out)`);
  return key;
}

export function writeKeysFile(
  file: string,
  networks: Record<BenchNetworkRole, PlannedNetwork>,
  keys: Map<number, string>,
  officers: PlannedOfficer[],
  seededAt: number,
): void {
  const entry = (network: PlannedNetwork): BenchNetworkKey => {
    const theirs = officers.filter((officer) => officer.networkId === network.id && officer.removedAt === null).slice(0, 50);
    return { networkId: network.id, vehicles: network.vehicles, apiKey: keys.get(network.id)!, officers: theirs.map((officer) => officerIdentifier(officer.id)) };
  };
  const content: Required<BenchKeys> = {
    largest: entry(networks.largest),
    reference: entry(networks.reference),
    small: entry(networks.small),
    history10x: entry(networks.history10x),
    seededAt: new Date(seededAt).toISOString(),
  };
  fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(content, null, 2) + "\n", { mode: 0o600 });
}
