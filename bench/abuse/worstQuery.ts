// Attack 5's state: the bisection runs once, before the measured run (bench/abuse/bisect.ts), and
// the run sends the largest accepted query it found.
import { largestAcceptedAliases } from "./bisect";
import type { Fixture } from "./fixture";
import type { ServiceProcess } from "./service";

export function bisectedQuery(maxAliases: number) {
  let found = 0;
  return {
    aliases: () => found,
    async prepare(start: () => Promise<ServiceProcess>, fixture: Fixture): Promise<string[]> {
      const result = await largestAcceptedAliases(start, fixture.attacker.apiKey, maxAliases);
      found = result.aliases;
      return [`bisection (searched 1..${maxAliases}): ${result.probes.join(", ")}`];
    },
  };
}
