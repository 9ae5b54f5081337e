// What the REST layer reads of an HTTP request. The HTTP server gives it from node's request
// (src/server/nodeRequests.ts) without building a fetch Request, whose Headers, URL and Response
// cost a good part of a small REST request's CPU (figures: docs/performance.md); App.fetch gives it
// from a fetch Request (src/server/fetchIncoming.ts). The body is read only when asked for, which
// the app does only once the request's API key is admitted.
import { maxBodyBytes } from "../config/limits";

export interface IncomingRest {
  method: string;
  /** The path as a URL gives it (dot segments resolved, percent-encoding kept). */
  pathname: string;
  /** The whole URL (a page's links are built from it), made on first use. */
  url(): URL;
  /**
   * A header's value, or null when it was not sent; `name` in lower case. A header sent on
   * several lines gives its values joined by ", ".
   */
  header(name: string): string | null;
  /** The body as text ("" when none was sent), or null when it exceeds the limit. */
  text(): Promise<string | null>;
}

/** The body's declared length is over the limit: refused before anything else. */
export const declaresTooLargeBody = (incoming: IncomingRest) => Number(incoming.header("content-length") ?? 0) > maxBodyBytes;
