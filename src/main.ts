// Starts the service: settings, migrations, database, HTTP; SIGTERM and SIGINT stop it cleanly.
import { readSettings } from "./config/env";
import { openDatabase } from "./db/client";
import { migrate } from "./db/migrate";
import { createApp } from "./server/app";
import { listen } from "./server/httpServer";

async function main() {
  const settings = readSettings();
  const applied = await migrate(settings.databaseUrl);
  if (applied.length > 0) console.log(`applied migrations: ${applied.join(", ")}`);
  const db = await openDatabase(settings.databaseUrl, settings.pool);
  const app = createApp({ db, rateLimit: { perMinute: settings.rateLimitPerMinute }, limits: settings.limits });
  const server = await listen(app, settings.port, settings.host, settings.limits);
  console.log(`Vehicle Records and Duty Time Service listening on ${server.url} (GraphQL: ${server.url}/graphql)`);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: finishing requests in flight`);
    await server.close();
    await db.close();
    process.exit(0);
  };
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
