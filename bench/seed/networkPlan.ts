// How many vehicles each network gets: one largest network, one reference network of an exact
// size, the history10x network (as many as the reference: it is there for its long dutytime
// history, rows.ts), and the rest sharing the remainder with a skewed (Zipf-like) distribution,
// as real communities range from a handful of cars to tens of thousands. No other network
// reaches the largest one, and every network has at least one vehicle.
import { UsageError } from "../lib/args";
import type { Random } from "./random";

export type NetworkRole = "largest" | "reference" | "history10x" | "other";

export interface PlannedNetwork {
  id: number;
  role: NetworkRole;
  vehicles: number;
}

/** Weight of the i-th other network (0 = biggest): 1/(i + 10) keeps the head below the largest. */
const weight = (i: number) => 1 / (i + 10);

export function planNetworks(
  { networks, vehicles, largest, referenceSize }: { networks: number; vehicles: number; largest: number; referenceSize: number },
  random: Random,
): PlannedNetwork[] {
  const others = networks - 3;
  const remainder = vehicles - largest - 2 * referenceSize;
  const sizes = otherSizes(others, remainder, Math.max(1, largest - 1));
  const roles: NetworkRole[] = ["largest", "reference", "history10x", ...sizes.map(() => "other" as const)];
  const counts = [largest, referenceSize, referenceSize, ...sizes];
  // Ids are shuffled so the largest network is not simply network 1.
  const ids = random.shuffle(Array.from({ length: networks }, (_, i) => i + 1));
  return roles.map((role, i) => ({ id: ids[i], role, vehicles: counts[i] })).sort((a, b) => a.id - b.id);
}

/** Splits `total` over `count` networks by weight, each in [1, cap] (water-filling, then rounding). */
function otherSizes(count: number, total: number, cap: number): number[] {
  if (count === 0) {
    if (total !== 0) throw new UsageError("--vehicles must equal --largest + 2 * --reference-size when --networks is 3");
    return [];
  }
  if (total < count) throw new UsageError(`the ${count} other networks need at least one vehicle each; raise --vehicles`);
  if (total > count * cap) throw new UsageError(`the other networks cannot hold ${total} vehicles below the largest; raise --largest or --networks`);

  const exact = new Array<number>(count).fill(0);
  const open = new Set(exact.map((_, i) => i));
  let left = total;
  // Give each open network its weighted share; networks over the cap are fixed at the cap.
  for (;;) {
    const sum = [...open].reduce((s, i) => s + weight(i), 0);
    const over = [...open].filter((i) => Math.max(1, (left * weight(i)) / sum) > cap);
    if (over.length === 0) {
      for (const i of open) exact[i] = Math.max(1, (left * weight(i)) / sum);
      break;
    }
    for (const i of over) {
      exact[i] = cap;
      open.delete(i);
      left -= cap;
    }
  }
  const sizes = exact.map((value) => Math.min(cap, Math.max(1, Math.floor(value))));
  // Rounding: hand out the difference one vehicle at a time, biggest fractions first.
  let diff = total - sizes.reduce((s, n) => s + n, 0);
  const byFraction = exact.map((value, i) => ({ i, fraction: value - Math.floor(value) })).sort((a, b) => b.fraction - a.fraction);
  for (let k = 0; diff !== 0; k = (k + 1) % count) {
    const i = byFraction[k].i;
    if (diff > 0 && sizes[i] < cap) {
      sizes[i]++;
      diff--;
    } else if (diff < 0 && sizes[i] > 1) {
      sizes[i]--;
      diff++;
    }
  }
  return sizes;
}
