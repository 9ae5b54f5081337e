// Starts the real service on a real, fresh database (a SQLite file, or a PostgreSQL database in
// the PostgreSQL test project), listening on a free port.
import fs from "node:fs";
import { openDatabase, type Database } from "../../src/db/client";
import { migrate } from "../../src/db/migrate";
import { createApp } from "../../src/server/app";
import { listen } from "../../src/server/httpServer";
import { createNetwork } from "../../src/admin/networks";
import { addOfficer } from "../../src/resolvers/officers";
import type { RateLimitOptions } from "../../src/server/rateLimit";
import { defaultLimits, type Limits } from "../../src/config/limits";
import type { Logger } from "../../src/server/observability/requestLog";
import type { ServiceMetrics } from "../../src/server/observability/metrics";
import { freshDatabase, temporaryDir, testProvider, type FreshDatabase } from "./database";
import { operatorKey } from "../../src/context";
import type { WebhookServices } from "../../src/resolvers/webhooks";
import type { TrustedProxies } from "../../src/config/proxies";

export { temporaryDir, testProvider };

/** A clock tests can stop and move; it runs in real time until set. */
export class TestClock {
  private fixed: Date | null = null;
  now = () => (this.fixed ? new Date(this.fixed) : new Date());
  set(instant: Date | string) {
    this.fixed = new Date(instant);
  }
  reset() {
    this.fixed = null;
  }
}

export interface TestService {
  url: string;
  db: Database;
  /** The database's URL (file: or postgresql://). */
  databaseUrl: string;
  clock: TestClock;
  /** Deprecated: a temporary folder for the test's own files. */
  dataDir: string;
  /** A new network with its API key. */
  network(options?: { name?: string; identifierType?: string }): Promise<TestNetwork>;
  close(): Promise<void>;
}

export interface TestNetwork {
  id: number;
  name: string;
  identifierType: string;
  timeZone: string;
  autoStopAfterHours: number | null;
  apiKey: string;
  /** Adds an officer directly (as the admin command does). */
  officer(value: string, name?: string): Promise<{ id: number; identifier: string; name: string }>;
}

export interface ServiceOptions {
  rateLimit?: RateLimitOptions;
  limits?: Partial<Limits>;
  /** Where request lines go (none: not logged; test/support/logCapture.ts keeps them). */
  log?: Logger;
  /** Metrics that count the requests (none: not counted). */
  metrics?: ServiceMetrics;
  /** Webhook settings (allowed hosts, stubbed resolvers, schedule) and the observer of attempts. */
  webhooks?: WebhookServices;
  /** TRUSTED_PROXIES (none: nobody's X-Forwarded-For or X-Forwarded-Proto is believed). */
  trustedProxies?: TrustedProxies;
}

export async function startService(options: ServiceOptions = {}): Promise<TestService> {
  const dataDir = temporaryDir();
  const database: FreshDatabase = await freshDatabase();
  const url = database.url;
  await migrate(url);
  const db = await openDatabase(url);
  const clock = new TestClock();
  const limits = { ...defaultLimits, ...options.limits };
  const server = await listen(createApp({ db, now: clock.now, rateLimit: options.rateLimit, limits, log: options.log, metrics: options.metrics, webhooks: options.webhooks, trustedProxies: options.trustedProxies }), 0, "127.0.0.1", limits, options.trustedProxies);
  let counter = 0;

  return {
    url: server.url,
    db,
    databaseUrl: url,
    clock,
    dataDir,
    async network({ name, identifierType = "steam" } = {}) {
      counter += 1;
      const created = await createNetwork(db,
        { name: name ?? `Network ${counter}`, identifierType, graceSeconds: 0 },
        new Date(),
      );
      const network = { ...created.network, apiKey: created.apiKey };
      return {
        ...network,
        officer: (value: string, officerName = `Officer ${value}`) =>
          addOfficer({ db, network, key: operatorKey, now: () => new Date() }, { identifier: `${identifierType}:${value}`, name: officerName }),
      };
    },
    async close() {
      await server.close();
      await db.close();
      await database.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
