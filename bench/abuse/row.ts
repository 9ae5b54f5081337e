// One row of the results: a fresh server process (so each row's peak RSS is its own), the
// victim's warm-up, then the attack, the victim and the RSS sampler together for the measured
// time; then whether the server survived (process alive and /healthz answering), and its end.
import type { Attack, AttackContext } from "./attacks";
import type { Fixture } from "./fixture";
import { sampleRss, type RssReading } from "./rss";
import { describeExit, type ServiceProcess } from "./service";
import { Tally } from "./tally";
import { startVictim, type VictimResult } from "./victim";

export interface RowSettings {
  start: () => Promise<ServiceProcess>;
  fixture: Fixture;
  seconds: number;
  connections: number;
  sockets: number;
  socketWatchSeconds: number;
  warmupMs: number;
}

export interface RowResult {
  id: string;
  name: string;
  worstAllowed: boolean;
  /** "yes"; "died (SIGABRT: FATAL ERROR ...)"; "hung ..."; or "no answer for N s after the attack, then back". */
  survival: string;
  survived: boolean;
  rss: RssReading;
  victim: VictimResult;
  attacker: Tally;
  notes: string[];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Alive and answering /healthz within 5 s of the attack's end: "yes". Otherwise it is watched
 * 15 s more, to tell a server that died (its exit code or signal, and V8's last words) from one
 * that hangs (in a garbage collection that never ends, or a request that never yields) or comes
 * back late: none of these survived, for the clients of that moment.
 */
async function survivalOf(service: ServiceProcess): Promise<string> {
  const endedAt = performance.now();
  if (service.alive() && (await service.healthy(5_000))) return "yes";
  while (service.alive() && performance.now() - endedAt < 20_000) {
    if (await service.healthy(1_000)) return `no answer for ${((performance.now() - endedAt) / 1000).toFixed(0)} s after the attack, then back`;
    await sleep(250);
  }
  if (!service.alive()) return `died (${describeExit(service)})`;
  return "hung (alive, no /healthz answer 20 s after the attack)";
}

export async function runRow(attack: Attack | null, settings: RowSettings): Promise<RowResult> {
  const id = attack?.id ?? "0";
  const name = attack?.name ?? "baseline: no attack, the victim alone";
  console.error(`[${id}] ${name}`);
  const notes = attack?.prepare ? await attack.prepare(settings.start, settings.fixture) : [];

  const service = await settings.start();
  try {
    const victim = startVictim({
      url: service.url,
      apiKey: settings.fixture.victim.apiKey,
      ids: settings.fixture.victim.vehicleIds,
      warmupMs: settings.warmupMs,
      seconds: settings.seconds,
    });
    await victim.measuring;
    const rss = sampleRss(service.pid);
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), settings.seconds * 1000);
    const context: AttackContext = {
      url: service.url,
      fixture: settings.fixture,
      signal: controller.signal,
      connections: settings.connections,
      sockets: settings.sockets,
      socketWatchSeconds: settings.socketWatchSeconds,
    };
    const attacked = attack ? attack.run(context) : sleep(settings.seconds * 1000).then(() => ({ statuses: new Tally(), notes: [] }));
    // A victim client that failed (it should not) leaves its cells empty, not the whole run.
    const victimResult = victim.result.catch((error: Error): VictimResult => {
      console.error(`  victim client: ${error.message}`);
      const others = new Tally();
      others.add("victim client failed");
      return { requests: 0, p50Ms: null, p99Ms: null, longestWaitMs: 0, others };
    });
    const [outcome, victimMeasured] = await Promise.all([attacked, victimResult]);
    clearTimeout(timer);

    const survival = await survivalOf(service);
    const reading = rss.stop();
    if (reading.goneAfterMs !== null) notes.push(`the process was gone ${(reading.goneAfterMs / 1000).toFixed(1)} s after the attack began`);
    notes.push(...outcome.notes);

    if (attack?.after) {
      // Read from a live server: this one, or a new one on the same database if it died.
      const reader = service.alive() ? service : await settings.start();
      try {
        notes.push(...(await attack.after(reader.url, settings.fixture)));
      } finally {
        if (reader !== service) await reader.stop();
      }
    }
    const result: RowResult = {
      id,
      name,
      worstAllowed: attack?.worstAllowed ?? false,
      survival,
      survived: survival === "yes",
      rss: reading,
      victim: victimMeasured,
      attacker: outcome.statuses,
      notes,
    };
    const v = victimMeasured;
    console.error(
      `  survived: ${survival}; peak RSS ${reading.peakMb} MB; victim p50 ${v.p50Ms ?? "-"} / p99 ${v.p99Ms ?? "-"} / longest ${v.longestWaitMs} ms, ${v.requests} x 200, others: ${v.others}; attacker: ${outcome.statuses}`,
    );
    for (const note of notes) console.error(`  ${note}`);
    return result;
  } finally {
    await service.stop();
  }
}
