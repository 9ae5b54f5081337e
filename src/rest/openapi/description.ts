// info.description: what the interface specification leaves open and the contract (or this
// implementation) decided.
// Prose of the contract: a change here is a change for clients.

export const description = `
REST interface of the Vehicle Records and Duty Time Service: vehicle records, officers' duty
time, and statistics, each confined to the **network of the API key** sent with the request.

**GraphQL at \`/graphql\` is the primary interface** (GraphiQL opens there in a browser); these
REST routes are generated from the same schema (SOFA) and reshaped to the conventions of the
Laravel-style API that existing clients know. Both need an API key. This document is served at
\`/openapi.json\` and browsable at \`/docs\`; \`/healthz\`, \`/readyz\`, the docs and the
\`/dashboard\` page need no key.

Besides the REST routes, the document describes every other path the service answers: GraphQL's
HTTP interface at \`/graphql\` (its schema is GraphQL's own: GraphiQL's Docs), health, this
document and its docs, the dashboard. **Every path has an operation for each HTTP method**: a
method it does not serve answers \`405\` with \`Allow\`, listed under *Other methods*; \`OPTIONS\`
on the REST paths and \`/graphql\` answers CORS preflights.

## Conventions
- Paths sit at the server root (no \`/api\` prefix); a trailing slash is tolerated.
- Every REST response body is JSON (\`Content-Type: application/json\`), errors included, except
  \`204\`; \`/graphql\` answers as GraphQL over HTTP, the pages (\`/docs\`, \`/dashboard\`, GraphiQL)
  as HTML.
- Times are ISO-8601 UTC strings (\`2026-11-21T22:10:00.000Z\`); \`tuv\` / \`generalInspection\`
  is a calendar date \`YYYY-MM-DD\`.
- Every \`GET\` route also answers \`HEAD\` (same status and headers, no body).

## Authentication
- Send the key in \`X-API-Key: <key>\`, or as \`Authorization: Bearer <key>\`. Both present and
  different: \`401\`. Missing, unknown, revoked or expired key: \`401 {"message":"Unauthenticated."}\`.
- The network comes from the key alone: a \`network\`, \`network_id\` or \`networkId\` field in a
  body is refused with \`422\`.
- A network has several keys, each with **scopes** (the security schemes list them): each REST
  operation names the scope it needs (its security requirement, \`x-scopes\`, its \`403\`); a key
  without it gets \`403 {"message":"This action is unauthorized."}\` (over \`/graphql\`: \`403\` with
  the code \`FORBIDDEN\`) and nothing runs.
- **Browsers**: a key may list **origins**: a request of such a key whose \`Origin\` header is none
  of them gets \`403\`; one that is gets \`Access-Control-Allow-Origin\` and \`Vary: Origin\` (a key
  without origins never does, so no page of another origin can read its answers). A preflight
  (\`OPTIONS\` with \`Access-Control-Request-Method\`) needs no key: \`204\` with the CORS headers
  when a valid key lists its \`Origin\`, else \`403\`.
- Regenerating a network's key revokes the old one at once, or after an optional grace period.

## Decisions the contract leaves to us
- **PUT and PATCH are both partial updates**: only the fields sent change, on both methods.
- **Sorting** (\`sort_field\`) breaks ties by \`id\` **in the sort direction**; \`null\` values
  sort **last** in both orders. Without \`sort_field\` the order is \`id\` ascending.
- **Pagination links keep the other query parameters** of the request and only change \`page\`.
  A page past the end answers \`200\` with empty \`data\`.
- **The snake_case name wins over its alias** (\`sort_field\` over \`sortField\`, \`sort_order\` over
  \`sortOrder\`, \`per_page\` over \`perPage\`) when both are sent; validation errors are always
  reported under the snake_case name.
- **\`{identifier}\` is URL-encoded** in dutytime paths (\`steam:abc\` may be sent as
  \`steam%3Aabc\`; a \`/\` inside the value must be sent as \`%2F\`).
- Unknown fields in a body are ignored; unknown query parameters are ignored.
- **Rate limit**: off by default. With \`RATE_LIMIT_PER_MINUTE=N\` (server setting) each API key may
  make N requests per minute (REST and GraphQL together, fixed one-minute window, counted per
  server process); beyond that the answer is \`429\` with a \`Retry-After\` header in seconds.

## Errors
| case | status | body |
|---|---|---|
| malformed JSON body, or a body that is not a JSON object | 400 | \`{"message": "..."}\` |
| a \`Host\` header (or request target) that makes no URL, on any path | 400 | \`{"message": "..."}\` |
| body sent with a \`Content-Type\` other than JSON | 415 | \`{"message": "..."}\` |
| body larger than 1 MiB | 413 | \`{"message": "..."}\` |
| missing or invalid key | 401 | \`{"message": "Unauthenticated."}\` |
| key without the scope, or from an origin it does not list | 403 | \`{"message": "This action is unauthorized."}\` |
| resource not found, or in another network | 404 | \`{"message": "..."}\` (never reveals another network's data) |
| unknown path | 404 | \`{"message": "Not Found."}\` |
| wrong method on a known path | 405 | \`{"message": "..."}\`, \`Allow\` header |
| validation failure | 422 | \`{"message": "...", "errors": {"field": ["reason", ...]}}\` |
| too many requests | 429 | \`{"message": "Too Many Attempts."}\`, \`Retry-After\` header |
| database unavailable | 503 | \`{"message": "..."}\` |

Checks run in this order: unknown path (\`404\`) and wrong method (\`405\`, answered without a
key), then the key (\`401\`), its origins (\`403\`), the rate limit (\`429\`), its scopes (\`403\`), the
body (\`415\`, \`400\`), validation (\`422\`), and last the addressed record (\`404\`). A \`5xx\` other
than \`503\` is a bug; internal details never reach a client.
`.trim();
