// The request id of X-Request-Id: the client's (or its proxy's) when it is a sane token, so one
// id follows a request through every hop; else one made here. Echoed in every answer and in the
// request's log line, so a client's report can be matched with the server's side.
import { randomUUID } from "node:crypto";

/** Letters, digits and `._:-`, at most 128: a UUID, a trace id or a load balancer's id fits; nothing to escape in a log. */
const saneRequestId = /^[A-Za-z0-9._:-]{1,128}$/;

export const requestIdHeader = "X-Request-Id";

/** The request's id from its X-Request-Id header as node gives it (several lines are joined by ", ": not sane). */
export function requestIdOf(sent: string | string[] | null | undefined): string {
  return typeof sent === "string" && saneRequestId.test(sent) ? sent : randomUUID();
}
