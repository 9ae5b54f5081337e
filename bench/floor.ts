// The "floor": the fastest honest server for the benchmarked REST requests, to measure the
// service against. node:http, the service's drivers (@libsql/client, pg Pool), the service's
// SQL and JSON, no framework and no ORM. It expects a seeded (migrated) database.
//   tsx bench/floor.ts --database-url URL --port P [--host 127.0.0.1] [--pool-size 10]
import { parseFlags, runMain, UsageError } from "./lib/args";
import { openStore } from "./floor/store";
import { createFloorServer } from "./floor/server";

async function main() {
  const flags = parseFlags(process.argv.slice(2), { "database-url": "string", port: "integer", host: "string", "pool-size": "integer" });
  if (typeof flags["database-url"] !== "string") throw new UsageError("--database-url is required");
  const host = typeof flags.host === "string" ? flags.host : "127.0.0.1";
  const port = typeof flags.port === "number" ? flags.port : 4100;
  // The service's default DATABASE_POOL_SIZE.
  const store = await openStore(flags["database-url"], typeof flags["pool-size"] === "number" ? flags["pool-size"] : 10);
  const server = createFloorServer(store);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address();
  const boundPort = typeof address === "object" && address ? address.port : port;
  console.log(`listening on http://${host}:${boundPort}`);

  const stop = () => {
    server.close(() => void store.close().then(() => process.exit(0)));
    server.closeIdleConnections();
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}

runMain(main);
