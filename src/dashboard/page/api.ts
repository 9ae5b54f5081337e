// One GraphQL operation against the service's own /graphql, with the key the user entered.
// Every failure becomes an ApiError whose message a person can act on; each panel shows its own,
// so one failing query (say, a field this server does not have yet) leaves the others working.

export class ApiError extends Error {
  constructor(
    message: string,
    /** The error's extensions.code, else NETWORK or HTTP_<status>. */
    readonly code: string,
  ) {
    super(message);
  }
}

interface GraphqlError {
  message: string;
  extensions?: { code?: string };
}

export async function graphql<Data>(key: string, query: string, variables: Record<string, unknown> = {}): Promise<Data> {
  let response: Response;
  try {
    response = await fetch("/graphql", {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json", "X-API-Key": key },
      body: JSON.stringify({ query, variables }),
    });
  } catch {
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
