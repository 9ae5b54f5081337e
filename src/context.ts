import type { Database } from "./db/client";
import { scopeNames, type Scope } from "./model/scopes";
import type { EventFeed } from "./events/feed";
import type { WebhookServices } from "./webhooks/attempts";

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

/** The API key a request was admitted with: what it may do, never its secret. */
export interface KeyScope {
  id: number;
  name: string;
  /** The secret's first characters, as lists and logs show it. */
  prefix: string;
  scopes: readonly Scope[];
  /** Browser origins that may use it; empty: none. */
  origins: readonly string[];
}

/**
 * The standing of the admin command, which acts for the operator on the database itself: every
 * scope, and no API key (id 0, which no stored key has).
 */
export const operatorKey: KeyScope = { id: 0, name: "admin command", prefix: "", scopes: scopeNames, origins: [] };

/** What every resolver receives. The network and the key are set before any resolver runs. */
export interface Context {
  db: Database;
  network: NetworkScope;
  key: KeyScope;
  now: () => Date;
  /** This process's live events, for subscriptions (served by the HTTP server only). */
  feed?: EventFeed;
  /** A reconnecting SSE subscriber's Last-Event-ID: the last sequence it received. */
  lastEventId?: number;
  /** Webhook settings and the observer of attempts (the contract's defaults when absent). */
  webhooks?: WebhookServices;
}
