// The service's logger (pino): one JSON line per event on stdout, gathered into one write per
// 64 KiB or 100 ms, and what is left written when the process exits. A line per request must
// stay cheap: pino's own destinations (sonic-boom) write or check a buffer per line, a batch
// does neither, and request lines are made by one JSON.stringify (docs/performance.md).
// LOG_FORMAT=pretty makes readable lines for a terminal with pino-pretty, a dev dependency:
// formatting costs far more than JSON, so it is for people watching, not for production.
import { hostname } from "node:os";
import pino, { type DestinationStream, type Logger as PinoLogger } from "pino";
import type { MessageFormatFunc, PrettyOptions } from "pino-pretty";
import type { LogSettings } from "../../config/observability";
import type { RequestRecord } from "./requestRecord";
import { sourceStack } from "./sourceStack";

/** pino's logger, and the writer of request lines (below). */
export type Logger = PinoLogger & {
  /** Writes the request's line at `level` (when the logger's level lets it through). */
  request(record: RequestRecord, level: "info" | "warn"): void;
};

/** The keys of a request's line that the pretty format shows as its message. */
const requestLineKeys = ["method", "route", "status", "durationMs"];

/** `GET /vehicles/{vehicle} 200 1.25 ms` for a request's line; the message for others. */
const requestMessage: MessageFormatFunc = (line, messageKey) =>
  typeof line.status === "number" && typeof line.method === "string"
    ? `${line.method} ${line.route ?? "(no route)"} ${line.status} ${line.durationMs} ms`
    : String(line[messageKey] ?? "");

function prettyDestination(): DestinationStream {
  let pretty: (options: PrettyOptions) => DestinationStream;
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    pretty = require("pino-pretty") as typeof pretty;
  } catch {
    throw new Error("LOG_FORMAT=pretty needs the pino-pretty package, a dev dependency: run `npm install` (not `--omit=dev`), or use LOG_FORMAT=json.");
  }
  return pretty({
    translateTime: "SYS:HH:MM:ss.l",
    ignore: ["pid", "hostname", ...requestLineKeys].join(","),
    messageFormat: requestMessage,
    singleLine: true,
  });
}

/** Lines written at most this long after they were logged (a SIGKILL loses them). */
const maxDelayMs = 100;
/** Characters gathered before they are written at once. */
const maxBatch = 64 * 1024;

/**
 * Lines gathered and written together through `write` (stdout: synchronous on Linux for files,
 * pipes and terminals, so a reader that cannot keep up slows the service rather than filling
 * its memory), and written whole when the process exits.
 */
export function batchedLines(write: (text: string) => void = (text) => void process.stdout.write(text)): DestinationStream & { flush(): void } {
  let pending = "";
  let timer: NodeJS.Timeout | null = null;
  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    if (pending === "") return;
    const text = pending;
    pending = "";
    write(text);
  };
  process.once("exit", flush);
  return {
    write(line: string) {
      pending += line;
      if (pending.length >= maxBatch) flush();
      // Unref'd: a pending line does not keep the process running; exit writes it.
      else if (!timer) timer = setTimeout(flush, maxDelayMs).unref();
    },
    flush,
  };
}

/**
 * A request's line as pino makes it for `logger[level](record)`: its level, time, pid and
 * hostname, then the record's fields in their order, undefined ones left out. Made with one
 * JSON.stringify of the record instead of pino's field-by-field serializer, which was most of
 * what a line per request cost (figures and how to go back: docs/performance.md). A request's
 * fields are numbers and strings only, so the two make the same text; a test compares them.
 */
function requestLines(logger: PinoLogger, destination: DestinationStream): Logger["request"] {
  const base = `,"pid":${process.pid},"hostname":${JSON.stringify(hostname())},`;
  return (record, level) => {
    if (!logger.isLevelEnabled(level)) return;
    destination.write(`{"level":${logger.levels.values[level]},"time":${Date.now()}${base}${JSON.stringify(record).slice(1)}\n`);
  };
}

/** The logger of these settings; `destination` replaces stdout (tests capture the lines). */
export function createLogger(settings: LogSettings, destination?: DestinationStream): Logger {
  const options = {
    level: settings.level,
    // pino's own serializer of `err`, its stack named by the sources (./sourceStack.ts).
    serializers: {
      err: (error: Error) => {
        const serialized = pino.stdSerializers.err(error);
        if (typeof serialized.stack === "string") serialized.stack = sourceStack(serialized.stack);
        return serialized;
      },
    },
  };
  const to = destination ?? (settings.format === "pretty" ? prettyDestination() : batchedLines());
  const logger = pino(options, to);
  return Object.assign(logger, { request: requestLines(logger, to) });
}
