// Attack 5's query: the largest number of aliases of `vehicles(perPage:100){data{...all fields}}`
// the server accepts (200 and no errors; a refusal is a 400). Found by doubling from 1 until a
// refusal, then bisecting between the last accepted and the first refused count. The server as
// it is today accepts any count until it runs out of memory: a probe that kills it counts as
// refused, and the next probe gets a fresh server.
import { graphqlBody, vehiclePageAliases } from "./documents";
import { describeAnswer } from "./hammer";
import type { ServiceProcess } from "./service";
import { errorName } from "./tally";

export interface LargestAccepted {
  /** 0 when even one alias is refused. */
  aliases: number;
  /** Each probe: "4: 400 BAD_USER_INPUT (limit cost)". */
  probes: string[];
}

export async function largestAcceptedAliases(
  start: () => Promise<ServiceProcess>,
  apiKey: string,
  maxAliases: number,
  probeTimeoutMs = 60_000,
): Promise<LargestAccepted> {
  const probes: string[] = [];
  let service = await start();
  const accepted = async (n: number): Promise<boolean> => {
    if (!service.alive()) service = await start();
    try {
      const response = await fetch(`${service.url}/graphql`, {
        method: "POST",
        headers: { "x-api-key": apiKey, "content-type": "application/json", accept: "application/json" },
        body: graphqlBody(vehiclePageAliases(n)),
        signal: AbortSignal.timeout(probeTimeoutMs),
      });
      const text = await response.text();
      const ok = response.status === 200 && !("errors" in (JSON.parse(text) as object));
      probes.push(`${n}: ${ok ? "200" : describeAnswer({ status: response.status, head: text.slice(0, 2048) })}`);
      return ok;
    } catch (error) {
      // Give a dying server a moment to be seen dead, so the note says so.
      await new Promise((resolve) => setTimeout(resolve, 500));
      probes.push(`${n}: ${service.alive() ? errorName(error) : "server died"}`);
      if (service.alive()) await service.stop();
      return false;
    }
  };
  try {
    if (!(await accepted(1))) return { aliases: 0, probes };
    let low = 1;
    let high = maxAliases + 1;
    while (low * 2 <= maxAliases) {
      if (!(await accepted(low * 2))) {
        high = low * 2;
        break;
      }
      low *= 2;
    }
    while (high - low > 1) {
      const middle = Math.floor((low + high) / 2);
      if (await accepted(middle)) low = middle;
      else high = middle;
    }
    return { aliases: low, probes };
  } finally {
    await service.stop();
  }
}
