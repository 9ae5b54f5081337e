// A small HTTP client for tests: every call returns status, headers and the parsed JSON body.
export interface ApiResponse<Body = any> {
  status: number;
  headers: Headers;
  body: Body;
  text: string;
}

export interface RequestOptions {
  body?: unknown;
  /** Sent as is (not JSON-encoded): for malformed bodies. */
  rawBody?: string;
  headers?: Record<string, string>;
  key?: string | null;
}

export function client(baseUrl: string, defaultKey: string | null = null) {
  async function request(method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse> {
    const headers: Record<string, string> = { Accept: "application/json", ...options.headers };
    const key = options.key === undefined ? defaultKey : options.key;
    if (key) headers["X-API-Key"] = key;
    let body: string | undefined;
    if (options.rawBody !== undefined) body = options.rawBody;
    else if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers["Content-Type"] ??= "application/json";
    }
    const response = await fetch(baseUrl + path, { method, headers, body });
    const text = await response.text();
    let parsed: unknown = undefined;
    if (text !== "") {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = undefined;
      }
    }
    return { status: response.status, headers: response.headers, body: parsed, text };
  }

  return {
    request,
    get: (path: string, options?: RequestOptions) => request("GET", path, options),
    post: (path: string, body?: unknown, options?: RequestOptions) => request("POST", path, { ...options, body }),
    put: (path: string, body?: unknown, options?: RequestOptions) => request("PUT", path, { ...options, body }),
    patch: (path: string, body?: unknown, options?: RequestOptions) => request("PATCH", path, { ...options, body }),
    delete: (path: string, options?: RequestOptions) => request("DELETE", path, options),
    /** A GraphQL operation at /graphql; returns the HTTP response with {data, errors}. */
    graphql: (query: string, variables?: Record<string, unknown>, options?: RequestOptions) =>
      request("POST", "/graphql", { ...options, body: { query, variables } }),
  };
}

export type Client = ReturnType<typeof client>;
