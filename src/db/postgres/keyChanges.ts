// Announcements of changes to API keys and networks on PostgreSQL: a connection of its own that
// LISTENs to the channel the triggers of migration *_api_key_changes notify. Whatever a process
// keeps of keys in memory is good only while this connection listens (src/resolvers/admittedKeys.ts).
import pg from "pg";
import { keyChangesInThisProcess } from "../keyChanges";
import type { KeyChanges } from "../store";

export const keyChangesChannel = "vrd_api_keys";

/** Wait before listening again after the connection failed or was lost. */
const retryDelayMs = 1000;

/**
 * Listens from the first call of `epoch()` (the admin command and migrations never ask), and
 * again a second after the connection failed or was lost (database restart, failover, a
 * terminated backend): one attempt at a time, however many requests come meanwhile.
 */
export function keyChangesOf(config: pg.ClientConfig): KeyChanges {
  let counter = 0;
  let listening: pg.Client | null = null;
  let connecting = false;
  let retry: NodeJS.Timeout | undefined;
  let started = false;
  let closed = false;

  const lost = (client: pg.Client) => {
    if (listening === client) {
      listening = null;
      counter++;
    }
    client.removeAllListeners("notification");
    client.end().catch(() => undefined);
    if (!closed && !retry) retry = setTimeout(() => ((retry = undefined), listen()), retryDelayMs).unref();
  };

  const listen = () => {
    if (closed || connecting || listening) return;
    connecting = true;
    const client = new pg.Client(config);
    // Any change that commits from here on is announced to this client.
    client.on("notification", () => counter++);
    client.on("error", () => lost(client));
    client.on("end", () => lost(client));
    client
      .connect()
      .then(() => client.query(`LISTEN ${keyChangesChannel}`))
      .then(() => {
        if (closed) return void client.end().catch(() => undefined);
        listening = client;
        counter++;
      })
      .catch(() => lost(client))
      .finally(() => (connecting = false));
  };

  return {
    epoch() {
      if (!started) {
        started = true;
        listen();
      }
      // Both only grow, so their sum changes whenever either does.
      return listening ? counter + keyChangesInThisProcess() : null;
    },
    async close() {
      closed = true;
      clearTimeout(retry);
      const client = listening;
      listening = null;
      await client?.end().catch(() => undefined);
    },
  };
}
