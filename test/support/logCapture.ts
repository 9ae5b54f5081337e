// The service's logger writing into memory, so a test reads the lines a request produced.
import { createLogger, type Logger } from "../../src/server/observability/requestLog";
import type { LogLevel } from "../../src/config/observability";

export interface CapturedLog {
  log: Logger;
  /** Everything written, as written. */
  text(): string;
  /** Each line, parsed. */
  lines(): Record<string, any>[];
  /** The line of the request with this id (throws when there is not exactly one). */
  lineOf(requestId: string): Record<string, any>;
  /**
   * That line's fields of the request, without pino's and the id and duration, which vary, and
   * the client's address, 127.0.0.1 for every test's request (test/trustedProxies.test.ts checks it).
   */
  requestOf(requestId: string): Record<string, any>;
}

export function captureLog(level: LogLevel = "info"): CapturedLog {
  const written: string[] = [];
  const log = createLogger({ level, format: "json" }, { write: (line: string) => void written.push(line) });
  const lines = () => written.join("").split("\n").filter(Boolean).map((line) => JSON.parse(line) as Record<string, any>);
  return {
    log,
    text: () => written.join(""),
    lines,
    lineOf(requestId) {
      const found = lines().filter((line) => line.requestId === requestId && "status" in line);
      if (found.length !== 1) throw new Error(`${found.length} request lines with id ${requestId}:\n${written.join("")}`);
      return found[0];
    },
    requestOf(requestId) {
      // eslint-disable-next-line @typescript-eslint/no-unused-vars
      const { level, time, pid, hostname, requestId: _id, durationMs, clientAddress, ...fields } = this.lineOf(requestId);
      return fields;
    },
  };
}
