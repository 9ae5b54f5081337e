// Endpoints that need no API key: liveness, readiness, the OpenAPI document and its docs page.
import type { Database } from "../db/client";
import { errorJson, json, onlyFetchMethods, toResponse } from "../rest/responses";
import { openApiDocument } from "../rest/openapi/document";
import { serveDocs } from "./docs";
import { isDashboardPath, serveDashboard } from "../dashboard/serve";
import { Response } from "@whatwg-node/fetch";

const publicPaths = new Set(["/healthz", "/readyz", "/openapi.json"]);

/** The paths of the endpoints below: every other path but /graphql is a REST path. */
export const isPublicPath = (pathname: string) => publicPaths.has(pathname) || pathname === "/docs" || pathname.startsWith("/docs/") || isDashboardPath(pathname);

/**
 * The route template of a public path (isPublicPath), for the request log and the metrics: the
 * docs' and the dashboard's files under one template each, whatever path was asked.
 */
export function publicRouteOf(pathname: string): string {
  if (publicPaths.has(pathname) || pathname === "/docs" || pathname === "/dashboard") return pathname;
  return pathname.startsWith("/docs/") ? "/docs/{file}" : "/dashboard/{file}";
}

/** Answers the public endpoints, by the request's method and URL; null for every other path. */
export function publicEndpoints(db: Database) {
  let document: string | null = null;

  return async function publicEndpoint(method: string, url: URL): Promise<Response | null> {
    const { pathname } = url;
    if (publicPaths.has(pathname)) {
      const refused = onlyFetchMethods(method);
      if (refused) return toResponse(refused);
    }
    if (pathname === "/healthz") return toResponse(json(200, { status: "ok" }));
    if (pathname === "/readyz") {
      try {
        await db.prisma.$queryRawUnsafe("SELECT 1");
        return toResponse(json(200, { status: "ready" }));
      } catch {
        return toResponse(errorJson(503, "The database is unreachable."));
      }
    }
    if (pathname === "/openapi.json") {
      document ??= JSON.stringify(openApiDocument());
      return new Response(document, { headers: { "Content-Type": "application/json; charset=utf-8" } });
    }
    if (pathname === "/docs" || pathname.startsWith("/docs/")) return serveDocs(method, url);
    if (isDashboardPath(pathname)) return serveDashboard(method, url);
    return null;
  };
}
