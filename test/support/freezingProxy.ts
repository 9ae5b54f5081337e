// A TCP proxy in front of PostgreSQL that can cut a connection silently, as a NAT or a load
// balancer does to an idle one: from then on no byte passes in either direction, and neither side
// is told (no FIN, no RST) until the proxy closes. Only connections that sent a LISTEN are cut,
// so the pool's connections keep working, and connections opened afterwards pass.
import net from "node:net";

export interface FreezingProxy {
  /** The database URL through the proxy. */
  url: string;
  /** Connections through the proxy that have sent a LISTEN and are not cut. */
  listening(): number;
  /** Cuts every connection that has sent a LISTEN; returns how many. */
  freezeListening(): number;
  close(): Promise<void>;
}

interface Pair {
  client: net.Socket;
  server: net.Socket;
  listens: boolean;
  frozen: boolean;
}

/** The statement text a LISTEN sends, as the simple query protocol carries it. */
const listen = Buffer.from("LISTEN ");

export async function startFreezingProxy(databaseUrl: string): Promise<FreezingProxy> {
  const target = new URL(databaseUrl);
  const pairs = new Set<Pair>();

  const proxy = net.createServer((client) => {
    const server = net.connect(Number(target.port || 5432), target.hostname);
    const pair: Pair = { client, server, listens: false, frozen: false };
    pairs.add(pair);
    // The tail of the previous chunk, so a LISTEN split across two chunks is still seen.
    let tail = Buffer.alloc(0);
    client.on("data", (chunk: Buffer) => {
      const seen = Buffer.concat([tail, chunk]);
      if (seen.includes(listen)) pair.listens = true;
      tail = seen.subarray(Math.max(0, seen.length - listen.length));
      if (!pair.frozen) server.write(chunk);
    });
    server.on("data", (chunk: Buffer) => {
      if (!pair.frozen) client.write(chunk);
    });
    const end = () => {
      pairs.delete(pair);
      client.destroy();
      server.destroy();
    };
    // A cut connection hears nothing of the other side's end either.
    for (const socket of [client, server]) {
      socket.on("error", () => !pair.frozen && end());
      socket.on("close", () => !pair.frozen && end());
    }
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));

  const url = new URL(databaseUrl);
  url.hostname = "127.0.0.1";
  url.port = String((proxy.address() as net.AddressInfo).port);

  return {
    url: url.toString(),
    listening: () => [...pairs].filter((pair) => pair.listens && !pair.frozen).length,
    freezeListening() {
      const listening = [...pairs].filter((pair) => pair.listens && !pair.frozen);
      for (const pair of listening) pair.frozen = true;
      return listening.length;
    },
    async close() {
      for (const pair of pairs) {
        pair.client.destroy();
        pair.server.destroy();
      }
      pairs.clear();
      await new Promise((resolve) => proxy.close(resolve));
    },
  };
}
