// Attack 7: 5 MiB POST /vehicles with a valid key, over `connections` loops, with Node's own
// fetch: the symptom is what fetch sees when the server answers 413 and closes while the
// upload is still going (EPIPE in about 1 of 5 tries), so the client here is fetch, not node:http.
import { errorName, Tally } from "./tally";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `{"plate":"OVERSIZE","comment":"xxx..."}` of exactly 5 MiB, made once and sent every time. */
const body = (() => {
  const head = '{"plate":"OVERSIZE","comment":"';
  const tail = '"}';
  return Buffer.from(head + "x".repeat(5 * 1024 * 1024 - head.length - tail.length) + tail);
})();

export async function oversizeBodies(url: string, apiKey: string, options: { connections: number; signal: AbortSignal }): Promise<Tally> {
  const outcomes = new Tally();
  const loop = async () => {
    while (!options.signal.aborted) {
      try {
        const response = await fetch(`${url}/vehicles`, {
          method: "POST",
          headers: { "x-api-key": apiKey, "content-type": "application/json" },
          body,
          signal: options.signal,
        });
        await response.arrayBuffer();
        outcomes.add(response.status);
      } catch (error) {
        if (options.signal.aborted) break;
        outcomes.add(errorName(error));
        await sleep(50);
      }
    }
  };
  await Promise.all(Array.from({ length: options.connections }, loop));
  return outcomes;
}
