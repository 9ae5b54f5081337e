// The two networks of every attack: the victim (network A) whose get by id is measured, and the
// attacker (network B) whose key the keyed attacks use. Made once on the fresh database with the
// admin command and REST, as an operator and a connector would.
import { admin, startService } from "./service";

export interface NetworkFixture {
  id: number;
  apiKey: string;
  /** An officer's identifier (for the dutytime attacks). */
  officer: string;
  vehicleIds: number[];
}

export interface Fixture {
  victim: NetworkFixture;
  attacker: NetworkFixture;
}

const colors = ["black", "white", "silver", "red", "blue"];
const makes = ["Vapid", "Bravado", "Declasse", "Albany", "Karin"];

/** A vehicle with most of its fields filled, so list queries return realistic rows. */
function vehicleBody(network: string, i: number) {
  return {
    plate: `${network}-${1000 + i}`,
    cartyp: makes[i % makes.length],
    car: `Model ${i % 7}`,
    owner: `Owner ${network} ${i}`,
    tuv: "2027-03-01",
    color: colors[i % colors.length],
    comment: `Vehicle ${i} of network ${network}, registered for the abuse bench.`,
    wanted: i % 10 === 0,
    ...(i % 10 === 0 ? { wanted_reason: "Seen leaving a robbery" } : {}),
    sync_id: `sync-${network}-${i}`,
  };
}

async function createNetwork(
  url: string,
  env: NodeJS.ProcessEnv,
  name: string,
  officer: string,
  vehicles: number,
): Promise<NetworkFixture> {
  const created = (await admin(["network", "create", "--name", name, "--identifier-type", "steam"], env)) as {
    network: { id: number };
    apiKey: string;
  };
  const id = created.network.id;
  await admin(["officer", "add", "--network", String(id), "--identifier", officer, "--name", `Officer ${name}`], env);
  const vehicleIds: number[] = [];
  for (let i = 0; i < vehicles; i++) {
    const response = await fetch(`${url}/vehicles`, {
      method: "POST",
      headers: { "x-api-key": created.apiKey, "content-type": "application/json" },
      body: JSON.stringify(vehicleBody(name.slice(-1), i)),
    });
    const text = await response.text();
    if (response.status !== 201) throw new Error(`fixture: POST /vehicles answered ${response.status}: ${text.slice(0, 200)}`);
    vehicleIds.push((JSON.parse(text) as { data: { id: number } }).data.id);
  }
  return { id, apiKey: created.apiKey, officer, vehicleIds };
}

/**
 * Network A (victim) and network B (attacker), 100 vehicles and one officer each. B has an
 * officer too: otherwise its 1,000 toggleDutytime calls would all fail at the lookup and not
 * write, which is not the attack of the issue.
 */
export async function createFixture(env: NodeJS.ProcessEnv, vehicles = 100): Promise<Fixture> {
  // The server applies the migrations on start; the admin command needs the tables.
  const service = await startService(env);
  try {
    return {
      victim: await createNetwork(service.url, env, "Abuse Victim A", "steam:1", vehicles),
      attacker: await createNetwork(service.url, env, "Abuse Attacker B", "steam:2", vehicles),
    };
  } finally {
    await service.stop();
  }
}

/** How many vehicles a network holds (REST list total). */
export async function vehicleCount(url: string, apiKey: string): Promise<number | null> {
  try {
    const response = await fetch(`${url}/vehicles?per_page=1`, { headers: { "x-api-key": apiKey }, signal: AbortSignal.timeout(30_000) });
    if (response.status !== 200) return null;
    return ((await response.json()) as { meta: { total: number } }).meta.total;
  } catch {
    return null;
  }
}
