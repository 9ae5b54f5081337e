// The one connection of a process that LISTENs on PostgreSQL: every channel a part of the service
// listens to (key changes, src/db/postgres/keyChanges.ts) is listened to on it, and it is the one
// place that knows whether what arrives on it can still be trusted.
//
// A connection can die without a word: a NAT or load balancer that drops an idle connection sends
// neither FIN nor RST, and TCP's keepalive notices after hours. Notifications then simply stop,
// which looks the same as nothing changing. So the connection is asked a tiny round trip at an
// interval. The invariant that makes this enough: one connection delivers notifications and query
// results in order, and a listening backend sends its pending notifications before it reports
// itself ready for the next query (the moment pg resolves the query). So when a round trip sent at
// T0 is answered, every notification of a transaction that committed before T0 has been
// delivered. What a subscriber keeps on the strength of the notifications is therefore trusted
// only while the last answered round trip was sent less than the timeout ago (`hears`): staleness
// is bounded by the timeout even before the connection is declared dead. A round trip unanswered for the timeout declares it dead; it is destroyed (a
// goodbye would wait on the dead socket) and replaced a second later.
//
// Notifications sent while no connection listens are lost: after every (re)connect each
// subscriber is told (`listening`), and re-reads whatever it derives from them.
import net from "node:net";
import { performance } from "node:perf_hooks";
import pg from "pg";
import type { ListenerSettings } from "../../config/database";

/** Wait before connecting again after the connection failed or was lost. */
const retryDelayMs = 1000;

/** How the listening connection shows in pg_stat_activity, for operators (and tests) to find it. */
export const listenerApplicationName = "vrd-listener";

export interface Subscriber {
  /** A notification on the channel. */
  notified(payload: string): void;
  /**
   * The channel is listened to on a new connection (the first, or one replacing a lost one).
   * Whatever was announced while none listened was lost: everything derived from earlier
   * notifications must be read again.
   */
  listening(): void;
}

export interface Listener {
  /** Listens to `channel` from now on, connecting at the first call; returns a function that stops. */
  subscribe(channel: string, subscriber: Subscriber): () => void;
  /**
   * Whether `channel` is listened to on a connection that answered, less than the timeout ago, a
   * round trip sent after every transaction whose notification is not yet delivered. While false,
   * nothing kept on the strength of its notifications may be used.
   */
  hears(channel: string): boolean;
  close(): Promise<void>;
}

/** One connection and what is known of it. */
interface Connection {
  client: pg.Client;
  socket: net.Socket;
  /** Connected (authenticated): round trips may be sent. */
  open: boolean;
  lost: boolean;
  /** When each round trip not yet answered was sent, oldest first (answers come in order). */
  unanswered: number[];
  /** When the last answered round trip was sent: everything committed before it has been delivered. */
  aliveAt: number;
  /** Channels whose LISTEN this connection has answered. */
  channels: Set<string>;
}

const channelName = /^[a-z_][a-z0-9_]*$/;

/**
 * @param config the connection's settings (address, connect timeout, keep-alive)
 * @param settings how often it is asked a round trip, and how long an answer may take
 */
export function postgresListener(config: pg.ClientConfig, settings: ListenerSettings): Listener {
  const subscribers = new Map<string, Set<Subscriber>>();
  let current: Connection | null = null;
  let retry: NodeJS.Timeout | undefined;
  let pings: NodeJS.Timeout | undefined;
  let closed = false;

  const roundTrip = (connection: Connection, sql: string): Promise<void> => {
    const sentAt = performance.now();
    connection.unanswered.push(sentAt);
    return connection.client.query(sql).then(() => {
      connection.unanswered.shift();
      connection.aliveAt = Math.max(connection.aliveAt, sentAt);
    });
  };

  const lost = (connection: Connection) => {
    if (connection.lost) return;
    connection.lost = true;
    if (current === connection) current = null;
    connection.client.removeAllListeners("notification");
    connection.socket.destroy();
    if (!closed && !retry) retry = setTimeout(() => ((retry = undefined), connect()), retryDelayMs).unref();
  };

  const listenOn = (connection: Connection, channel: string) =>
    roundTrip(connection, `LISTEN ${channel}`).then(() => {
      if (connection.lost || !subscribers.has(channel)) return;
      connection.channels.add(channel);
      for (const subscriber of subscribers.get(channel) ?? []) subscriber.listening();
    });

  const connect = () => {
    if (closed || current) return;
    const socket = new net.Socket();
    const client = new pg.Client({ ...config, application_name: listenerApplicationName, stream: () => socket });
    const connection: Connection = { client, socket, open: false, lost: false, unanswered: [], aliveAt: -Infinity, channels: new Set() };
    current = connection;
    client.on("notification", ({ channel, payload }) => {
      for (const subscriber of subscribers.get(channel) ?? []) subscriber.notified(payload ?? "");
    });
    client.on("error", () => lost(connection));
    client.on("end", () => lost(connection));
    client
      .connect()
      .then(() => {
        connection.open = true;
        return Promise.all([...subscribers.keys()].map((channel) => listenOn(connection, channel)));
      })
      .catch(() => lost(connection));
  };

  /** Asks the connection a round trip, unless one is on its way; one unanswered too long loses it. */
  const ping = () => {
    const connection = current;
    if (!connection?.open) return;
    const oldest = connection.unanswered[0];
    if (oldest === undefined) roundTrip(connection, "SELECT 1").catch(() => lost(connection));
    else if (performance.now() - oldest >= settings.timeoutMs) lost(connection);
  };

  return {
    subscribe(channel, subscriber) {
      if (!channelName.test(channel)) throw new Error(`Not a channel name: ${channel}`);
      if (closed) return () => undefined;
      const known = subscribers.get(channel);
      subscribers.set(channel, (known ?? new Set()).add(subscriber));
      pings ??= setInterval(ping, settings.pingIntervalMs).unref();
      // Connecting, or a LISTEN on its way: the subscriber is told with the others once answered.
      const connection = current;
      if (!connection) connect();
      else if (connection.channels.has(channel)) subscriber.listening();
      else if (!known && connection.open) listenOn(connection, channel).catch(() => lost(connection));
      return () => {
        const each = subscribers.get(channel);
        if (!each?.delete(subscriber) || each.size > 0) return;
        subscribers.delete(channel);
        const listening = current;
        if (listening?.open && listening.channels.delete(channel)) {
          roundTrip(listening, `UNLISTEN ${channel}`).catch(() => lost(listening));
        }
      };
    },
    hears(channel) {
      const connection = current;
      if (!connection?.channels.has(channel)) return false;
      return performance.now() - connection.aliveAt < settings.timeoutMs;
    },
    async close() {
      closed = true;
      clearTimeout(retry);
      clearInterval(pings);
      const connection = current;
      current = null;
      if (!connection) return;
      connection.lost = true;
      if (!connection.open) return void connection.socket.destroy();
      // A goodbye to a live connection; a dead one would never answer it.
      let giveUp: NodeJS.Timeout | undefined;
      const waited = new Promise((resolve) => (giveUp = setTimeout(resolve, settings.timeoutMs).unref()));
      await Promise.race([connection.client.end().catch(() => undefined), waited]);
      clearTimeout(giveUp);
      connection.socket.destroy();
    },
  };
}
