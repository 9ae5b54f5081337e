// What happens with a request's record once it is answered: its log line, its metrics; and
// where an unexpected error of a request is written, with its stack and the request's id.
import { logInternalError, originalErrorOf } from "../../publicError";
import { noTrustedProxies, type TrustedProxies } from "../../config/proxies";
import type { Logger } from "./requestLog";
import type { ServiceMetrics } from "./metrics";
import type { RequestRecord } from "./requestRecord";
import { clientAddresses } from "./clientAddress";

export interface RequestObserver {
  /**
   * Whether answered() may need the request's peer: it must then be read while the request is
   * being answered, since a socket the client has closed no longer knows it.
   */
  readonly watchesClients: boolean;
  /**
   * `peer`: the socket's remote address (undefined when not read, or not from a socket);
   * `header`: the request's headers, for X-Forwarded-For.
   */
  answered(record: RequestRecord, peer: string | undefined, header: (name: string) => string | null): void;
  internalError(error: unknown, record: RequestRecord): void;
}

export function requestObserver(log: Logger | undefined, metrics: ServiceMetrics | undefined, trustedProxies: TrustedProxies = noTrustedProxies): RequestObserver {
  const clientAddressOf = clientAddresses(trustedProxies);
  return {
    // `warn`: the least a logger that writes request lines at all lets through.
    watchesClients: metrics !== undefined || (log !== undefined && log.isLevelEnabled("warn")),
    answered(record, peer, header) {
      // Answers of 5xx at warn, so that LOG_LEVEL=warn shows the service's failures (their
      // errors come at error, with their stack); refusals and clients' mistakes are 4xx, at info.
      const level = record.status >= 500 ? "warn" : "info";
      const logged = log !== undefined && log.isLevelEnabled(level);
      // The client is worked out only for a line written or a request counted.
      if (!logged && !metrics) return;
      const { client, proxy, source } = clientAddressOf(peer, header("x-forwarded-for"));
      record.clientAddress = client;
      record.proxyAddress = proxy;
      if (logged) log.request(record, level);
      metrics?.answered(record, source);
    },
    internalError(error, record) {
      if (log) log.error({ err: originalErrorOf(error), requestId: record.requestId }, "internal error");
      else logInternalError(error);
    },
  };
}
