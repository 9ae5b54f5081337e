// What the service tells of each webhook attempt besides the delivery log: one log line (at info,
// a failure at warn) and, with metrics on, its count and lag (./webhookMetrics.ts).
import type { Logger } from "./requestLog";
import type { AttemptObserver } from "../../webhooks/attempts";

export function attemptObserver(log: Logger, metrics: AttemptObserver | undefined): AttemptObserver {
  return {
    attempted(entry) {
      const line = {
        webhook: entry.webhookId,
        network: entry.networkId,
        eventId: entry.eventId,
        kind: entry.kind,
        attempt: entry.attempt,
        status: entry.status,
        durationMs: entry.durationMs,
        outcome: entry.outcome,
        error: entry.error,
      };
      if (entry.outcome === "delivered") log.info(line, "webhook attempt");
      else log.warn(line, "webhook attempt");
      metrics?.attempted(entry);
    },
    delivered: (lagMs) => metrics?.delivered(lagMs),
  };
}
