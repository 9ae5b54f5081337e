// The keys file the seed writes for load drivers: the API key and some officer identifiers of
// the largest network, the reference network and a small one (keys are not recoverable later,
// only their hashes are stored).
import fs from "node:fs";
import path from "node:path";
import type { PlannedNetwork } from "./networkPlan";
import { officerIdentifier } from "./rows";

export interface BenchNetworkKey {
  networkId: number;
  vehicles: number;
  apiKey: string;
  /** Officer identifiers of the network (up to 50), for dutytime scenarios. */
  officers: string[];
}

export interface BenchKeys {
  largest: BenchNetworkKey;
  reference: BenchNetworkKey;
  small: BenchNetworkKey;
}

export function writeKeysFile(
  file: string,
  networks: Record<keyof BenchKeys, PlannedNetwork>,
  plan: PlannedNetwork[],
  keys: Map<number, string>,
  officersPerNetwork: number,
): void {
  const entry = (network: PlannedNetwork): BenchNetworkKey => {
    // Officer ids are dense, network after network in plan order (rows.officerRows).
    const first = plan.findIndex((n) => n.id === network.id) * officersPerNetwork + 1;
    const officers = Array.from({ length: Math.min(officersPerNetwork, 50) }, (_, k) => officerIdentifier(first + k));
    return { networkId: network.id, vehicles: network.vehicles, apiKey: keys.get(network.id)!, officers };
  };
  const content: BenchKeys = { largest: entry(networks.largest), reference: entry(networks.reference), small: entry(networks.small) };
  fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(content, null, 2) + "\n", { mode: 0o600 });
}
