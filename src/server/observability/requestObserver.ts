// What happens with a request's record once it is answered: its log line, its metrics; and
// where an unexpected error of a request is written, with its stack and the request's id.
import { logInternalError, originalErrorOf } from "../../publicError";
import type { Logger } from "./requestLog";
import type { ServiceMetrics } from "./metrics";
import type { RequestRecord } from "./requestRecord";

export interface RequestObserver {
  answered(record: RequestRecord): void;
  internalError(error: unknown, record: RequestRecord): void;
}

export function requestObserver(log: Logger | undefined, metrics: ServiceMetrics | undefined): RequestObserver {
  return {
    answered(record) {
      // Answers of 5xx at warn, so that LOG_LEVEL=warn shows the service's failures (their
      // errors come at error, with their stack); refusals and clients' mistakes are 4xx, at info.
      log?.request(record, record.status >= 500 ? "warn" : "info");
      metrics?.answered(record);
    },
    internalError(error, record) {
      if (log) log.error({ err: originalErrorOf(error), requestId: record.requestId }, "internal error");
      else logInternalError(error);
    },
  };
}
