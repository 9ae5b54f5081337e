// One GraphQL operation against the service's /graphql, with the key the user entered. Every
// failure becomes an ApiError whose message a person can act on; each panel shows its own, so one
// failing query (say, a field this server does not have yet) leaves the others working.
//
// Where the service is: the page's own origin, or the address in index.html's
// <meta name="vrd-api" content="https://records.example.org">, which an operator who hosts a
// copy of the page on another site sets once. Never from the page's URL (a `?api=` parameter):
// a link could then send a person's key to any server its sender likes.

export class ApiError extends Error {
  constructor(
    message: string,
    /** The error's extensions.code, else NETWORK, FORBIDDEN or HTTP_<status>. */
    readonly code: string,
  ) {
    super(message);
  }
}

/** The service the page talks to, and the key it sends. */
export interface Api {
  /** The service's base address: an origin, maybe with a path ("https://example.org/records"). */
  base: string;
  /** Whether the service is on another origin than the page (a copy of the page on another site). */
  crossOrigin: boolean;
  key: string;
}

/**
 * The service's address: the meta's content when it is set, else the page's own origin. An error
 * message instead when the meta holds no http(s) address, or when the page is not served over
 * http(s) (opened as a file) and has none.
 */
export function serviceAddress(configured: string | null | undefined, page: { origin: string; protocol: string }): Omit<Api, "key"> | string {
  const value = configured?.trim() ?? "";
  if (value === "") {
    if (page.protocol !== "http:" && page.protocol !== "https:") {
      return 'This page is not served by the service: set the service\'s address in its <meta name="vrd-api" content="https://...">.';
    }
    return { base: page.origin, crossOrigin: false };
  }
  let url: URL | null = null;
  try {
    url = new URL(value);
  } catch {
    // Not a URL: said below.
  }
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:") || url.username || url.password || url.search || url.hash) {
    return `The page's service address (<meta name="vrd-api">) is not an http(s) address without query: "${value}".`;
  }
  return { base: `${url.origin}${url.pathname.replace(/\/+$/, "")}`, crossOrigin: url.origin !== page.origin };
}

/** The origin of a base address, as the messages name it. */
const originOf = (base: string) => new URL(base).origin;

interface GraphqlError {
  message: string;
  extensions?: { code?: string };
}

export async function graphql<Data>(api: Api, query: string, variables: Record<string, unknown> = {}): Promise<Data> {
  let response: Response;
  try {
    response = await fetch(`${api.base}/graphql`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json", "X-API-Key": api.key },
      body: JSON.stringify({ query, variables }),
    });
  } catch {
    // From another origin, the browser hides any answer without CORS headers as a network error:
    // a key that does not list this site, an unknown key, or a service that is down look alike.
    if (api.crossOrigin) {
      throw new ApiError(
        `The service at ${originOf(api.base)} did not answer this page (network error, or a refusal the browser hides). ` +
          `Check that the key is right and lists this site, ${location.origin}, among its origins; then refresh.`,
        "NETWORK",
      );
    }
    throw new ApiError("The service cannot be reached (network error). Check the connection, then refresh.", "NETWORK");
  }
  let body: { data?: Data | null; errors?: GraphqlError[] } | null = null;
  try {
    body = await response.json();
  } catch {
    // Not JSON (a proxy's error page, say): the status below says what happened.
  }
  const first = body?.errors?.[0];
  const code = first?.extensions?.code ?? `HTTP_${response.status}`;
  if (response.status === 401 || code === "UNAUTHENTICATED") {
    throw new ApiError("The API key was not accepted (401). Check it, or forget it and enter another.", "UNAUTHENTICATED");
  }
  // A scope the key lacks, or (same origin) a key whose origins do not list this page's: the
  // caller knows what it asked and says which (main.ts).
  if (response.status === 403 || code === "FORBIDDEN") throw new ApiError("This key may not do this (403).", "FORBIDDEN");
  if (response.status === 429 || code === "RATE_LIMITED") {
    const retryAfter = response.headers.get("Retry-After");
    const wait = retryAfter ? ` Try again in ${retryAfter} s.` : " Try again later.";
    throw new ApiError(`Too many requests with this key (429).${wait}`, "RATE_LIMITED");
  }
  if (response.status === 503 || code === "UNAVAILABLE") {
    throw new ApiError("The service is unavailable for the moment (503). Refresh in a little while.", "UNAVAILABLE");
  }
  // A server older than the page: say which part, not just that a query failed.
  if (code === "GRAPHQL_VALIDATION_FAILED") throw new ApiError(`This service does not offer this part yet: ${first!.message}`, code);
  // Any other error drops the panel's data: a partial answer would show a wrong picture.
  if (first) throw new ApiError(`The service answered: ${first.message}`, code);
  if (!response.ok || !body?.data) throw new ApiError(`The service answered with status ${response.status}.`, code);
  return body.data;
}

/** An event as the live panels read it. */
export interface LiveEvent {
  sequence: number;
  type: string;
  occurredAt: string;
  actor: { kind: string; keyName: string | null };
  subject: { type: string; id: string };
}

export const liveEventFields = "sequence type occurredAt actor { kind keyName } subject { type id }";

const liveQuery = `subscription ($after: Int) { events(after: $after) { ${liveEventFields} } }`;

/** What the live connection is doing, for the page to say. */
export type LiveState = "live" | "reconnecting" | ApiError;

/**
 * The network's events as they are committed, over GraphQL over SSE. fetch rather than
 * EventSource, which cannot send the key in a header. After a lost connection it subscribes again
 * after the last sequence it received, so no event is missed; a refused key ends it. Answers a
 * function that stops it.
 */
export function liveEvents(api: Api, after: number, onEvent: (event: LiveEvent) => void, onState: (state: LiveState) => void): () => void {
  let stopped = false;
  let last = after;
  let controller: AbortController | null = null;
  let delayMs = 1_000;

  async function once(): Promise<void> {
    controller = new AbortController();
    const response = await fetch(`${api.base}/graphql`, {
      method: "POST",
      signal: controller.signal,
      headers: { "Content-Type": "application/json", Accept: "text/event-stream", "X-API-Key": api.key },
      body: JSON.stringify({ query: liveQuery, variables: { after: last } }),
    });
    if (response.status === 401) throw new ApiError("The API key was not accepted (401): live updates stopped.", "UNAUTHENTICATED");
    if (response.status === 403) throw new ApiError("This key may not follow changes (403): it needs the read scope.", "FORBIDDEN");
    if (!response.ok || !response.body) return;
    onState("live");
    delayMs = 1_000;
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += value;
      let end: number;
      while ((end = buffer.indexOf("\n\n")) >= 0) {
        const frame = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = frame
          .split("\n")
          .filter((line) => line.startsWith("data:"))
          .map((line) => line.slice(5).trimStart())
          .join("\n");
        if (!frame.split("\n").includes("event: next") || data === "") continue;
        const result = JSON.parse(data) as { data?: { events: LiveEvent } | null; errors?: GraphqlError[] };
        const code = result.errors?.[0]?.extensions?.code;
        if (code === "UNAUTHENTICATED") throw new ApiError("The API key is no longer valid: live updates stopped.", "UNAUTHENTICATED");
        if (result.errors?.length || !result.data) return;
        last = result.data.events.sequence;
        onEvent(result.data.events);
      }
    }
  }

  void (async () => {
    while (!stopped) {
      try {
        await once();
      } catch (error) {
        if (stopped) return;
        if (error instanceof ApiError) {
          onState(error);
          return;
        }
      }
      if (stopped) return;
      onState("reconnecting");
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      delayMs = Math.min(delayMs * 2, 30_000);
    }
  })();
  return () => {
    stopped = true;
    controller?.abort();
  };
}
