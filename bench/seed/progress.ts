// Progress lines on stderr while a table loads (rows, share done, rows/s), at most one a second.
import { secondsSince } from "./sink";

export interface TableLoad {
  table: string;
  rows: number;
  seconds: number;
  rowsPerSecond: number;
}

export function progress(table: string, total: number) {
  const start = performance.now();
  let rows = 0;
  let lastPrint = start;
  const line = (done: number, seconds: number) =>
    `${table}: ${done.toLocaleString("en-US")} / ${total.toLocaleString("en-US")} rows` +
    ` (${total > 0 ? Math.round((100 * done) / total) : 100}%), ${Math.round(done / Math.max(seconds, 1e-9)).toLocaleString("en-US")} rows/s`;
  return {
    add(count: number) {
      rows += count;
      const now = performance.now();
      if (now - lastPrint >= 1000) {
        lastPrint = now;
        process.stderr.write(line(rows, (now - start) / 1000) + "\n");
      }
    },
    done(): TableLoad {
      const seconds = secondsSince(start);
      process.stderr.write(`${line(rows, seconds)} in ${seconds.toFixed(1)} s\n`);
      return { table, rows, seconds: Number(seconds.toFixed(2)), rowsPerSecond: Math.round(rows / Math.max(seconds, 1e-9)) };
    },
  };
}
