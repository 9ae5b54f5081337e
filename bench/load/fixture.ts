// What the scenarios address in the seeded data (./scenarios.ts, Fixture), read from a running
// service: vehicle ids of the two measured networks, a search term, the reports' end.
import type { BenchKeys } from "../seed/keysFile";
import type { Fixture } from "./scenarios";

const hourMs = 3_600_000;

export async function fixtureOf(serviceUrl: string, keys: BenchKeys): Promise<Fixture> {
  const page = async (role: "largest" | "reference") => {
    const response = await fetch(`${serviceUrl}/vehicles?per_page=100`, { headers: { "x-api-key": keys[role].apiKey } });
    if (!response.ok) throw new Error(`fixture: GET /vehicles answered ${response.status}`);
    return ((await response.json()) as { data: { id: number; owner: string | null }[] }).data;
  };
  const largest = await page("largest");
  const owner = largest.find((vehicle) => vehicle.owner)?.owner ?? "a";
  return {
    keys,
    vehicleIds: { largest: largest.map((v) => v.id), reference: (await page("reference")).map((v) => v.id), small: [] },
    // A surname: common enough to fill a page, rare enough to be a real search.
    searchTerm: owner.split(" ").pop()!.toLowerCase(),
    reportsUntil: new Date(Math.floor((keys.seededAt ? Date.parse(keys.seededAt) : Date.now()) / hourMs) * hourMs),
  };
}
