// What the app reads of an HTTP request. The HTTP server gives it from node's request
// (src/server/nodeRequests.ts) without building a fetch Request, which with its Headers, URL
// and Response cost about a fifth of a small REST request's CPU; App.fetch gives it from a
// fetch Request. The body is read only when asked for, which the app does only once the
// request's API key is admitted.
import { maxBodyBytes } from "../config/limits";
import { readLimitedText } from "./requestBody";

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

/** The request as the app reads it: the REST layer's view, and a fetch Request for Yoga and the public endpoints. */
export interface IncomingHttp extends IncomingRest {
  /** The request as a fetch Request, with this body (read before by `text`) or none. */
  fetchRequest(body: string | null): Request;
}

/** The body's declared length is over the limit: refused before anything else. */
export const declaresTooLargeBody = (incoming: IncomingRest) => Number(incoming.header("content-length") ?? 0) > maxBodyBytes;

export function incomingOfRequest(request: Request, url: URL): IncomingHttp {
  return {
    method: request.method,
    pathname: url.pathname,
    url: () => url,
    header: (name) => request.headers.get(name),
    text: () => readLimitedText(request),
    fetchRequest: (body) =>
      body === null ? request : new Request(request.url, { method: request.method, headers: request.headers, body }),
  };
}
