// Starts the victim client (bench/abuse/victimProcess.ts) in its own process and collects what
// it measured: each 200's latency, and every other outcome by name.
import { fork } from "node:child_process";
import path from "node:path";
import { percentile } from "../load/measure";
import { Tally, type TallyRecord } from "./tally";

export interface VictimResult {
  /** Requests answered 200. */
  requests: number;
  /** Of the 200 answers, in ms to the hundredth; null without any. */
  p50Ms: number | null;
  p99Ms: number | null;
  /** The longest wait of any request, answered or not (one unanswered at the end: its wait so far). */
  longestWaitMs: number;
  /** Every outcome but 200 (statuses, connection errors, "unanswered at end"). */
  others: Tally;
}

export interface RunningVictim {
  /** Resolves when the warm-up is over and the measured time begins. */
  measuring: Promise<void>;
  result: Promise<VictimResult>;
}

export function startVictim(options: { url: string; apiKey: string; ids: number[]; warmupMs: number; seconds: number }): RunningVictim {
  const child = fork(path.join(__dirname, "victimProcess.ts"), [JSON.stringify(options)], {
    execArgv: ["--import", "tsx"],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  let onMeasuring: () => void = () => {};
  const measuring = new Promise<void>((resolve) => (onMeasuring = resolve));
  const result = new Promise<VictimResult>((resolve, reject) => {
    child.on("message", (message: { type: string; latencies?: number[]; longestMs?: number; outcomes?: TallyRecord }) => {
      if (message.type === "measuring") onMeasuring();
      if (message.type !== "result") return;
      const latencies = message.latencies!;
      const outcomes = Tally.from(message.outcomes!);
      const answered = outcomes.get(200);
      outcomes.counts.delete("200");
      resolve({
        requests: answered,
        p50Ms: latencies.length ? percentile(latencies, 50) : null,
        p99Ms: latencies.length ? percentile(latencies, 99) : null,
        longestWaitMs: Math.round(message.longestMs! * 100) / 100,
        others: outcomes,
      });
    });
    child.once("exit", (code) => {
      onMeasuring();
      reject(new Error(`the victim client exited (${code}) without a result`));
    });
  });
  // Settled by the caller; avoid an unhandled rejection if the caller never gets there.
  result.catch(() => {});
  return { measuring, result };
}
