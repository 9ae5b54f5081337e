// The fixed parts of the answer to a CORS preflight (src/server/cors.ts sends them, the OpenAPI
// document describes them).

/** The request headers a page may send: the key, JSON bodies, and a stream's resume point. */
export const corsAllowedHeaders = "X-API-Key, Authorization, Content-Type, Last-Event-ID";

/** How long a browser may keep a preflight's answer, in seconds. */
export const corsMaxAgeSeconds = 600;
