// Loaded with `--import` into the service process of the layer bench (./measure.ts), which runs
// the service as `npm start` does otherwise. On the bench's message over the IPC channel it opens
// a window: the process's CPU time (process.cpuUsage) and, when asked, V8's sampling profiler
// (node:inspector, public); closing it answers with the CPU time and the profile's file.
import fs from "node:fs";
import { Session } from "node:inspector/promises";

const session = new Session();
session.connect();
let window = null;

/**
 * The main thread's CPU time in µs (Linux: its task's utime and stime, in clock ticks of 10 ms),
 * or null. The profile's samples tell how that time divides; their own intervals count time the
 * thread was waiting for a core too.
 */
function mainThreadCpuUs() {
  try {
    const fields = fs.readFileSync(`/proc/self/task/${process.pid}/stat`, "utf8").split(") ")[1].split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10_000;
  } catch {
    return null;
  }
}

process.on("message", async (message) => {
  if (message?.type === "open") {
    if (message.profileIntervalUs) {
      await session.post("Profiler.enable");
      await session.post("Profiler.setSamplingInterval", { interval: message.profileIntervalUs });
      await session.post("Profiler.start");
    }
    window = { cpu: process.cpuUsage(), mainThread: mainThreadCpuUs(), profileFile: message.profileFile ?? null };
    process.send({ type: "opened" });
  } else if (message?.type === "close" && window) {
    const cpu = process.cpuUsage(window.cpu);
    const mainThread = mainThreadCpuUs();
    if (window.profileFile) {
      const { profile } = await session.post("Profiler.stop");
      await session.post("Profiler.disable");
      fs.writeFileSync(window.profileFile, JSON.stringify(profile));
    }
    const mainThreadUs = mainThread === null || window.mainThread === null ? null : mainThread - window.mainThread;
    process.send({ type: "closed", cpuUs: cpu.user + cpu.system, mainThreadUs, profileFile: window.profileFile });
    window = null;
  }
});
// The channel must not keep the service alive once it stops (SIGTERM ends it with process.exit anyway).
process.channel?.unref();
