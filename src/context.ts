import type { Database } from "./db/client";

/** The network an API key belongs to: every read and write of a request is confined to it. */
export interface NetworkScope {
  id: number;
  name: string;
  identifierType: string;
  /** IANA zone of its reports when a request names none. */
  timeZone: string;
  /** Open dutytime entries older than this many hours end at start + these hours; null: never. */
  autoStopAfterHours: number | null;
}

/** What every resolver receives. The network is set before any resolver runs. */
export interface Context {
  db: Database;
  network: NetworkScope;
  now: () => Date;
}
