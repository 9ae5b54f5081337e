// The in-process part of `npm run bench`: what each layer of the service costs per request. The
// service runs as `npm start` runs it (its bundle, its flags), with its metrics listener on so
// that metrics are counted, and with ./profiler.mjs loaded beside it. For each scenario, after a
// warm-up, one load run measures the process's CPU per request unprofiled, and a second one the
// same with V8's sampling profiler on, whose samples ./attribute.ts splits by layer.
// KEEP_PROFILES=DIR keeps each scenario's profile there (open it in a profiler's viewer).
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { removeCreatedVehicles, restoreToggledDutytime } from "../lib/databases";
import { repoRoot } from "../lib/processes";
import { measure } from "../load/measure";
import { watchServers } from "../load/quiet";
import { warmUp, warmupText } from "../load/slices";
import { drainOutput, listeningUrl, npmStartNode } from "../load/targets";
import { benchOwner, requestOf, type Scenario } from "../load/scenarios";
import { networkKey, type BenchKeys } from "../seed/keysFile";
import { layerTimes } from "./attribute";
import { layerNames, type LayerName } from "./layers";

/** The scenarios of the cost table (the 2k network's), by name, in the bench's order. */
export const layerScenarioNames = ["list page (2k)", "get by id (2k)", "create (2k)", "patch (2k)", "dutytime toggle (2k)", "GraphQL list page (2k)"];

export interface LayerCosts {
  scenario: string;
  /** The process's CPU (all threads) per request, unprofiled, in µs. */
  cpuUs: number;
  /** The same while profiled: the base of the rows below. */
  profiledCpuUs: number;
  /** Main-thread time per request in each layer, in µs (profiled). */
  byLayer: Map<LayerName, number>;
  /** Profiled CPU per request not on the main thread (GC helpers, compiler, the driver's threads), in µs. */
  offMainThreadUs: number;
  requests: number;
}

export interface LayerSettings {
  durationSeconds: number;
  connections: number;
  warmupSeconds: number;
  warmupRequests: number;
  /** The sampling profiler's interval. */
  intervalUs: number;
}

/** The service process's CPU over a window, in µs: all threads, and its main thread (null: not on Linux). */
interface WindowCpu {
  cpuUs: number;
  mainThreadUs: number | null;
}

interface ProfiledService {
  url: string;
  pid: number;
  window<T>(profileFile: string | null, intervalUs: number, during: () => Promise<T>): Promise<{ result: T } & WindowCpu>;
  stop(): Promise<void>;
}

async function startProfiledService(databaseUrl: string, port: number): Promise<ProfiledService> {
  const { env, flags } = npmStartNode();
  const child = spawn(process.execPath, [...flags, "--import", "./bench/layers/profiler.mjs", "dist/main.js"], {
    cwd: repoRoot,
    env: { ...process.env, ...env, DATABASE_URL: databaseUrl, PORT: String(port), METRICS_PORT: String(port + 1), RATE_LIMIT_PER_MINUTE: "0" },
    stdio: ["ignore", "pipe", "pipe", "ipc"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const { url } = await listeningUrl("the profiled service", child);
  drainOutput(child, null);
  const reply = (type: string) =>
    new Promise<WindowCpu>((resolve) => {
      const onMessage = (message: { type: string } & WindowCpu) => {
        if (message.type !== type) return;
        child.off("message", onMessage);
        resolve(message);
      };
      child.on("message", onMessage);
    });
  return {
    url,
    pid: child.pid!,
    async window(profileFile, intervalUs, during) {
      const opened = reply("opened");
      child.send({ type: "open", profileFile, profileIntervalUs: profileFile ? intervalUs : 0 });
      await opened;
      const result = await during();
      const closed = reply("closed");
      child.send({ type: "close" });
      return { result, ...(await closed) };
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
}

/** Each scenario's costs per layer, on the seeded database (the bench's servers stopped). */
export async function measureLayers(databaseUrl: string, keys: BenchKeys, scenarios: Scenario[], settings: LayerSettings, port: number): Promise<LayerCosts[]> {
  const service = await startProfiledService(databaseUrl, port);
  const quiet = await watchServers([service.pid], databaseUrl.startsWith("postgres") ? databaseUrl : null);
  const profiles = fs.mkdtempSync(path.join(os.tmpdir(), "vrd-bench-layers-"));
  const costs: LayerCosts[] = [];
  try {
    for (const scenario of scenarios) {
      const request = requestOf(scenario, "service");
      if (!request) continue;
      const { apiKey, networkId } = networkKey(keys, scenario.network);
      const started = new Date();
      const load = (durationSeconds: number) => measure(service.url, apiKey, request, { connections: settings.connections, durationSeconds });
      await warmUp(service.url, apiKey, request, settings);
      await quiet.wait();
      const plain = await service.window(null, 0, () => load(settings.durationSeconds));
      await quiet.wait();
      const profileFile = path.join(profiles, "profile.cpuprofile");
      const profiled = await service.window(profileFile, settings.intervalUs, () => load(settings.durationSeconds));
      const times = layerTimes(JSON.parse(fs.readFileSync(profileFile, "utf8")), repoRoot);
      if (process.env.KEEP_PROFILES) fs.copyFileSync(profileFile, path.join(process.env.KEEP_PROFILES, `${scenario.name.replace(/\W+/g, "_")}.cpuprofile`));
      const requests = profiled.result.requests;
      const perRequest = (us: number) => us / Math.max(1, requests);
      // The samples divide the main thread's CPU time; where it is unknown, their own time stands for it.
      const mainThreadUs = profiled.mainThreadUs ?? times.busyUs;
      const ofMainThread = (us: number) => perRequest((us / Math.max(1, times.busyUs)) * mainThreadUs);
      costs.push({
        scenario: scenario.name,
        cpuUs: plain.cpuUs / Math.max(1, plain.result.requests),
        profiledCpuUs: perRequest(profiled.cpuUs),
        byLayer: new Map([...times.byLayer].map(([layer, us]) => [layer, ofMainThread(us)])),
        offMainThreadUs: perRequest(profiled.cpuUs - mainThreadUs),
        requests,
      });
      if (times.unassigned.size > 0) console.error(`layers: files of no layer: ${[...times.unassigned].join(", ")}`);
      if (plain.result.failures + profiled.result.failures > 0) console.error(`layers: ${scenario.name}: ${plain.result.failures + profiled.result.failures} failed requests`);
      await quiet.wait();
      if (scenario.createsVehicles) await removeCreatedVehicles(databaseUrl, networkId, benchOwner);
      if (scenario.togglesDutytime) await restoreToggledDutytime(databaseUrl, networkId, started);
      console.error(`layers: ${scenario.name}: ${Math.round(costs.at(-1)!.cpuUs)} µs CPU a request`);
    }
  } finally {
    await quiet.close();
    await service.stop();
    fs.rmSync(profiles, { recursive: true, force: true });
  }
  return costs;
}

/** The cost table in markdown: a row per layer, a column per scenario, µs of CPU per request. */
export function layerTable(costs: LayerCosts[], settings: LayerSettings): string {
  const us = (value: number) => (value < 0.5 ? "0" : value.toFixed(0));
  const header = `| layer | ${costs.map((cost) => cost.scenario).join(" | ")} |`;
  const rule = `|---|${costs.map(() => "---:").join("|")}|`;
  const share = (cost: LayerCosts, value: number) => `${us(value)} (${((100 * value) / cost.profiledCpuUs).toFixed(0)}%)`;
  const rows = layerNames
    .filter((layer) => costs.some((cost) => (cost.byLayer.get(layer) ?? 0) >= 0.5))
    .map((layer) => `| ${layer} | ${costs.map((cost) => share(cost, cost.byLayer.get(layer) ?? 0)).join(" | ")} |`);
  return [
    "## CPU per request by layer (in-process part)",
    "",
    `The service as \`npm start\` runs it, with its metrics listener on, alone on the database; each scenario ` +
      `warmed up (${warmupText(settings)}), then ${settings.durationSeconds} s unprofiled and ${settings.durationSeconds} s with V8's ` +
      `sampling profiler (every ${settings.intervalUs} µs), ${settings.connections} connections. µs of CPU per request (share of the profiled total); ` +
      "each sample is charged to the innermost frame that names its layer (bench/layers/layers.ts).",
    "",
    header,
    rule,
    ...rows,
    `| off the main thread (GC helpers, compiler, driver threads) | ${costs.map((cost) => share(cost, cost.offMainThreadUs)).join(" | ")} |`,
    `| **total, profiled** | ${costs.map((cost) => `**${us(cost.profiledCpuUs)}**`).join(" | ")} |`,
    `| **total, unprofiled** | ${costs.map((cost) => `**${us(cost.cpuUs)}**`).join(" | ")} |`,
    `| requests profiled | ${costs.map((cost) => String(cost.requests)).join(" | ")} |`,
    "",
  ].join("\n");
}
