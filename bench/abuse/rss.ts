// The server's resident memory while it is attacked: VmRSS from /proc/<pid>/status every 50 ms,
// and VmHWM (the kernel's own peak, which catches spikes between two samples) at the end. A
// process that died has no /proc entry left, so its peak is the highest sample seen.
import fs from "node:fs";

export interface RssReading {
  /** The highest of the samples and of VmHWM, in MB. */
  peakMb: number;
  /** VmHWM at the end, in MB; null when the process was gone by then. */
  hwmMb: number | null;
  samples: number;
  /** Ms after the sampling began at which /proc/<pid> disappeared; null while it lived. */
  goneAfterMs: number | null;
}

function statusKb(pid: number, field: "VmRSS" | "VmHWM"): number | null {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
    const match = new RegExp(`${field}:\\s+(\\d+)`).exec(status);
    // A zombie (exited, not yet reaped) has no Vm lines: it holds no memory any more.
    return match ? Number(match[1]) : null;
  } catch {
    return null;
  }
}

const mb = (kb: number) => Math.round(kb / 1024);

export function sampleRss(pid: number, everyMs = 50): { stop(): RssReading } {
  const startedAt = performance.now();
  let peakKb = 0;
  let samples = 0;
  let goneAfterMs: number | null = null;
  const take = () => {
    if (goneAfterMs !== null) return;
    const kb = statusKb(pid, "VmRSS");
    if (kb === null) {
      goneAfterMs = Math.round(performance.now() - startedAt);
      return;
    }
    samples++;
    peakKb = Math.max(peakKb, kb);
  };
  take();
  const timer = setInterval(take, everyMs);
  return {
    stop() {
      clearInterval(timer);
      take();
      const hwm = goneAfterMs === null ? statusKb(pid, "VmHWM") : null;
      return { peakMb: mb(Math.max(peakKb, hwm ?? 0)), hwmMb: hwm === null ? null : mb(hwm), samples, goneAfterMs };
    },
  };
}
