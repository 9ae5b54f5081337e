// The one place that relies on sofa-api's internals (pinned exactly in package.json; guarded by
// test/sofaInternals.test.ts, which runs in plain `npm test`). docs/performance.md says what
// this buys and how to go without it.
//
// SOFA builds a route handler per GraphQL operation: it turns request values into the
// operation's variables (parseVariable: path parameters first), runs the operation through the
// execute function it was given, and answers its data as JSON or hands the errors to the error
// handler. The REST layer's own router has matched the public path already, so each handler is
// called directly, without SOFA's HTTP router: no URL pattern matching, no fetch Request, no
// abort signal. The handlers are what `useSofa` keeps in the router's `__routes` (sofa-api
// 0.18 router.js `useHandler`), and every variable is given as a path parameter, already
// typed: SOFA takes an object as an input object's value as it is, so nothing is serialized
// to be parsed again. Errors come back as the configured error handler's value, which SOFA
// returns as the route's answer as it is.
import type { useSofa } from "sofa-api";

/** What a SOFA route handler reads of a request (sofa-api 0.18 router.js `useHandler`). */
interface SofaRequest {
  url: string;
  /** Path parameters: SOFA takes a variable from here before the query string and the body. */
  params: Record<string, unknown>;
  /** null: no body is read. */
  body: null;
  text(): Promise<string>;
}

/** A handler's answer: the operation's data as a JSON Response, or what the error handler made. */
type SofaHandler<Context> = (request: SofaRequest, serverContext: Context) => Promise<unknown>;

/** An operation's data as SOFA serialized it (passed on as text, not parsed again), or its errors. */
export type SofaResult = { ok: true; json: string } | { ok: false; errors: ReadonlyArray<unknown> };

/**
 * What the error handler below returns: the errors as they are. SOFA hands the error handler's
 * value back as the route's answer, whatever it is, and the REST layer maps the errors to a
 * reply (src/rest/sofa.ts restErrorReply).
 */
class SofaErrors {
  constructor(readonly errors: ReadonlyArray<unknown>) {}
}

/** The error handler to configure `useSofa` with (typed by SOFA as making its own Response). */
export const keepErrors = ((errors: ReadonlyArray<unknown>) => new SofaErrors(errors)) as unknown as NonNullable<
  Parameters<typeof useSofa>[0]["errorHandler"]
>;

/** A handler's answer as a result: SOFA's JSON text of the data, or the errors kept. */
async function resultOf(answer: unknown): Promise<SofaResult> {
  if (answer instanceof SofaErrors) return { ok: false, errors: answer.errors };
  return { ok: true, json: await (answer as Response).text() };
}

/** A SOFA route as `useSofa` keeps it. */
interface BuiltRoute<Context> {
  method: string;
  path: string;
  handler: SofaHandler<Context>;
}

/**
 * Each operation's handler, found by the method and path SOFA was configured with for it. A
 * SOFA version that builds its routes otherwise fails here, when the app is created.
 */
export function sofaHandlers<Context>(
  router: ReturnType<typeof useSofa>,
  routes: Record<string, { method: string; path: string }>,
): Map<string, (variables: Record<string, unknown>, context: Context) => Promise<SofaResult>> {
  const built = (router as unknown as { __routes?: BuiltRoute<Context>[] }).__routes;
  if (!Array.isArray(built)) throw new Error("sofa-api keeps no __routes: see src/rest/sofaHandlers.ts");
  const handlers = new Map<string, (variables: Record<string, unknown>, context: Context) => Promise<SofaResult>>();
  for (const [operation, { method, path }] of Object.entries(routes)) {
    const route = built.find((candidate) => candidate.method === method && candidate.path === path);
    if (!route || typeof route.handler !== "function") throw new Error(`sofa-api built no route ${method} ${path} for ${operation}`);
    const url = `http://sofa.internal${path}`;
    handlers.set(operation, async (variables, context) =>
      resultOf(await route.handler({ url, params: variables, body: null, text: async () => "" }, context)));
  }
  return handlers;
}
