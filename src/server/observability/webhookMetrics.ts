// The metrics of webhook delivery (src/webhooks/delivery.ts), on the service's registry: attempts
// by kind and outcome, the lag from an event's commit to its delivery, and the queue's length (the
// events the enabled webhooks have not handled), read from the database when Prometheus scrapes.
// Labels take their values from the fixed lists of src/webhooks/attempts.ts.
import { Counter, Gauge, Histogram, type Registry } from "prom-client";
import type { AttemptObserver } from "../../webhooks/attempts";

/** Seconds: a delivery on time takes milliseconds; a retried one minutes to hours. */
const lagBuckets = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 1800, 7200, 36000];

export function webhookMetrics(registry: Registry, backlog: () => Promise<number>): AttemptObserver {
  const registers = [registry];
  const attempts = new Counter({
    name: "vrd_webhook_attempts_total",
    help: "Webhook attempts, by kind (delivery, redelivery, test) and outcome (delivered, retrying, gave-up, disabled, failed).",
    labelNames: ["kind", "outcome"] as const,
    registers,
  });
  const lag = new Histogram({
    name: "vrd_webhook_delivery_lag_seconds",
    help: "Time from an event's commit to its delivery by a webhook.",
    buckets: lagBuckets,
    registers,
  });
  new Gauge({
    name: "vrd_webhook_queue_events",
    help: "Events the enabled webhooks have yet to handle, all together.",
    registers,
    async collect() {
      this.set(await backlog());
    },
  });
  return {
    attempted: (entry) => attempts.inc({ kind: entry.kind, outcome: entry.outcome }),
    delivered: (lagMs) => lag.observe(lagMs / 1000),
  };
}
