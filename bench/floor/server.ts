// node:http server of the floor: route by method and path, authenticate as the service does
// (X-API-Key or Bearer, SHA-256 looked up once), run the handler, write JSON.
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import { apiKeyFromHeaders, hashApiKey, looksLikeApiKey } from "../../src/resolvers/apiKeys";
import { handlers, type Handler } from "./handlers";
import { errorBody, HttpError, sendJson } from "./respond";
import type { KeyOwner, Store } from "./store";

interface Route {
  method: string;
  pattern: RegExp;
  handler: Handler;
}

/** The key as the service reads it (both headers are plain strings in node). */
const apiKey = (req: IncomingMessage) => apiKeyFromHeaders((name) => (req.headers[name] as string | undefined) ?? null);

/**
 * Keys admitted before, by hash, as the service keeps them: on PostgreSQL while the database
 * announces key changes, on SQLite until the next commit (src/resolvers/admittedKeys.ts).
 * Nothing changes keys during a bench run, so the floor keeps them for the run, writes or not.
 */
const admitted = new Map<string, KeyOwner>();

async function authenticate(store: Store, req: IncomingMessage): Promise<KeyOwner | null> {
  const key = apiKey(req);
  if (!key || !looksLikeApiKey(key)) return null;
  const hash = hashApiKey(key);
  const owner = admitted.get(hash) ?? (await store.keyOwner(hash));
  const now = new Date();
  if (!owner || (owner.expiresAt && owner.expiresAt <= now) || (owner.revokedAt && owner.revokedAt <= now)) return null;
  admitted.set(hash, owner);
  return owner;
}

export function createFloorServer(store: Store): http.Server {
  const h = handlers(store);
  const routes: Route[] = [
    { method: "GET", pattern: /^\/vehicles\/?$/, handler: h.listVehicles },
    { method: "POST", pattern: /^\/vehicles\/?$/, handler: h.createVehicle },
    { method: "GET", pattern: /^\/vehicles\/([^/]+)\/?$/, handler: h.getVehicle },
    { method: "PATCH", pattern: /^\/vehicles\/([^/]+)\/?$/, handler: h.patchVehicle },
    { method: "PUT", pattern: /^\/vehicles\/([^/]+)\/?$/, handler: h.patchVehicle },
    { method: "POST", pattern: /^\/dutytime\/([^/]+)\/toggle\/?$/, handler: h.toggleDutytime },
    { method: "GET", pattern: /^\/statistics\/active-users\/?$/, handler: h.activeUsers },
    { method: "GET", pattern: /^\/statistics\/missions\/last-7-days\/?$/, handler: h.missionsLastSevenDays },
    { method: "GET", pattern: /^\/statistics\/missions\/total\/?$/, handler: h.missionsTotal },
    { method: "GET", pattern: /^\/statistics\/files\/last-7-days\/?$/, handler: h.filesLastSevenDays },
    { method: "GET", pattern: /^\/statistics\/files\/total\/?$/, handler: h.filesTotal },
    { method: "GET", pattern: /^\/officers\/?$/, handler: h.listOfficers },
    { method: "GET", pattern: /^\/statistics\/duty-hours\/?$/, handler: h.dutyHours },
  ];

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", `http://${req.headers.host ?? "localhost"}`);
    let route: Route | undefined;
    let found: RegExpExecArray | null = null;
    const allowed: string[] = [];
    for (const candidate of routes) {
      const match = candidate.pattern.exec(url.pathname);
      if (!match) continue;
      if (candidate.method === req.method) {
        route = candidate;
        found = match;
        break;
      }
      allowed.push(candidate.method);
    }
    if (!route || !found) {
      if (allowed.length > 0) {
        return sendJson(res, 405, errorBody(`The ${req.method} method is not supported for this route. Supported: ${allowed.join(", ")}.`), {
          Allow: allowed.join(", "),
        });
      }
      return sendJson(res, 404, errorBody("Not Found."));
    }
    let params: string[];
    try {
      params = found.slice(1).map((segment) => decodeURIComponent(segment));
    } catch {
      return sendJson(res, 404, errorBody("Not Found."));
    }
    const network = await authenticate(store, req);
    if (!network) return sendJson(res, 401, errorBody("Unauthenticated."));
    const { status, body } = await route.handler({ req, url, network, params });
    sendJson(res, status, body);
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (error instanceof HttpError) return sendJson(res, error.status, error.body, error.headers);
      console.error("internal error:", error);
      if (!res.headersSent) sendJson(res, 500, errorBody("Server Error."));
    });
  });
  // As the service's server (src/server/httpServer.ts).
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  return server;
}
