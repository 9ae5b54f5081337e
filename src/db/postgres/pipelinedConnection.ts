// Reads of one row by key on PostgreSQL (a vehicle by id, a network's kept counts, an officer,
// an API key) share one pipelined connection per process (pg's `pipeline` mode): the reads of
// concurrent requests go out without waiting for each other's answers, and one PostgreSQL
// backend answers them back to back. Each in a pool connection of its own, such a read woke a
// backend of its own, and the kernel's loopback work for the two sides was a large part of a
// get by id's CPU (figures: docs/performance.md). Only short reads go here: PostgreSQL answers a
// connection's statements in turn, so a search's seconds would hold up every read behind it
// (they stay on the pool).
import pg from "pg";
import { runOnClient, type ArrayRowsQuery } from "./pgInternals";

export class PipelinedConnection {
  private connecting: Promise<pg.Client> | undefined;
  private closed = false;

  /** @param config the pool's connection settings (address, timeouts, keep-alive, options) */
  constructor(private readonly config: pg.ClientConfig) {}

  /** Runs the read once connected; a connection that failed or was lost is replaced by the next read. */
  query(query: ArrayRowsQuery): Promise<pg.QueryArrayResult> {
    return this.client().then((client) => runOnClient(client, query));
  }

  async end(): Promise<void> {
    this.closed = true;
    const client = await this.connecting?.catch(() => undefined);
    this.connecting = undefined;
    await client?.end().catch(() => undefined);
  }

  private client(): Promise<pg.Client> {
    if (this.closed) return Promise.reject(new Error("The database connection is closed."));
    return (this.connecting ??= this.connect());
  }

  private connect(): Promise<pg.Client> {
    const client = new pg.Client({ ...this.config, pipeline: true } as pg.ClientConfig);
    const connecting = client.connect().then(() => client);
    // Reads sent on a lost connection fail with pg's error (the database is unavailable); the
    // next read connects again. An error event must not crash the process.
    const forget = () => {
      if (this.connecting === connecting) this.connecting = undefined;
    };
    client.on("error", () => {
      forget();
      client.end().catch(() => undefined);
    });
    client.on("end", forget);
    connecting.catch(forget);
    return connecting;
  }
}
