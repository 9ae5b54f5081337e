// Starts the service: settings, logger, migrations, database, HTTP (and the metrics listener when
// METRICS_PORT is set), webhook delivery; SIGTERM and SIGINT stop it cleanly.
import { readSettings } from "./config/env";
import { openDatabase } from "./db/client";
import { connectionPoolOf } from "./db/postgres/connect";
import { migrate } from "./db/migrate";
import { logInternalErrorsWith } from "./publicError";
import { createApp } from "./server/app";
import { listen } from "./server/httpServer";
import { createLogger } from "./server/observability/requestLog";
import { serviceMetrics } from "./server/observability/metrics";
import { listenForMetrics } from "./server/observability/metricsServer";
import { keepEventRetention } from "./events/retention";
import { startWebhookDelivery } from "./webhooks/delivery";
import { attemptObserver } from "./server/observability/webhookAttemptLog";
import { webhookMetrics } from "./server/observability/webhookMetrics";

async function main() {
  const settings = readSettings();
  const log = createLogger(settings.log);
  // The start and stop lines are written at any level but silent: tools wait for "listening on".
  const lifecycle = settings.log.level === "silent" ? log : log.child({}, { level: "info" });
  // Unexpected errors of every layer, with their stack, go to the same log as the requests.
  logInternalErrorsWith((error) => log.error({ err: error }, "internal error"));
  const applied = await migrate(settings.databaseUrl);
  if (applied.length > 0) lifecycle.info(`applied migrations: ${applied.join(", ")}`);
  const db = await openDatabase(settings.databaseUrl, settings.pool, settings.listener);
  // Without a metrics listener nothing is counted: requests pay for metrics only when they are read.
  const metrics = settings.metrics.port === null ? undefined : serviceMetrics({ pool: connectionPoolOf(db.prisma) });
  const webhooks = { settings: settings.webhooks, observer: attemptObserver(log, metrics && webhookMetrics(metrics.registry, () => db.webhooks.backlog())) };
  const app = createApp({ db, rateLimit: { perMinute: settings.rateLimitPerMinute }, limits: settings.limits, log, metrics, webhooks, trustedProxies: settings.trustedProxies });
  const server = await listen(app, settings.port, settings.host, settings.limits, settings.trustedProxies);
  const stopRetention = keepEventRetention(db, () => new Date(), (error) => log.error({ err: error }, "event retention"));
  const delivery = startWebhookDelivery(db, webhooks.settings, webhooks.observer);
  const metricsServer = metrics && (await listenForMetrics(metrics.registry, settings.metrics.port!, settings.metrics.host));
  if (metricsServer) lifecycle.info(`metrics on ${metricsServer.url}`);
  lifecycle.info(`Vehicle Records and Duty Time Service listening on ${server.url} (GraphQL: ${server.url}/graphql)`);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    lifecycle.info(`${signal}: finishing requests in flight`);
    stopRetention();
    await server.close();
    lifecycle.info("requests finished; webhook attempts in flight finishing");
    // The attempts in flight end (each within WEBHOOK_TIMEOUT_MS) and write their outcome.
    await delivery.stop();
    await metricsServer?.close();
    lifecycle.info("closing the database");
    await db.close();
    // pino's destination writes what it still holds when the process exits.
    process.exit(0);
  };
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
