// Matches a method and path to a REST route: 404 for unknown paths, 405 (with Allow) for a
// known path with another method.
import { errorJson, methodNotAllowed, type Reply } from "./responses";

export type PathParams = Record<string, string>;

export interface Route<Handler> {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** OpenAPI-style template, e.g. /vehicles/{vehicle}. */
  path: string;
  handler: Handler;
}

interface CompiledRoute<Handler> extends Route<Handler> {
  pattern: RegExp;
  names: string[];
}

export type Match<Handler> = { route: Route<Handler>; params: PathParams } | { reply: Reply };

export function createRouter<Handler>(routes: Route<Handler>[]) {
  const compiled: CompiledRoute<Handler>[] = routes.map((route) => {
    const names: string[] = [];
    const source = route.path.replace(/\{(\w+)\}/g, (_, name: string) => {
      names.push(name);
      return "([^/]+)";
    });
    return { ...route, names, pattern: new RegExp(`^${source}/?$`) };
  });

  /** The methods the path answers (HEAD wherever GET), or null for a path of no route. */
  function methodsOf(pathname: string): string[] | null {
    const methods = compiled.filter((route) => route.pattern.test(pathname)).map((route) => route.method as string);
    if (methods.length === 0) return null;
    return methods.includes("GET") ? [...methods, "HEAD"] : methods;
  }

  function match(method: string, pathname: string): Match<Handler> | null {
    const allowed: string[] = [];
    for (const route of compiled) {
      const found = route.pattern.exec(pathname);
      if (!found) continue;
      if (route.method !== method && !(method === "HEAD" && route.method === "GET")) {
        allowed.push(route.method);
        continue;
      }
      const params: PathParams = {};
      try {
        route.names.forEach((name, index) => (params[name] = decodeURIComponent(found[index + 1])));
      } catch {
        return { reply: errorJson(404, "Not Found.") };
      }
      return { route, params };
    }
    if (allowed.includes("GET")) allowed.push("HEAD");
    if (allowed.length > 0) return { reply: methodNotAllowed(method, allowed) };
    return null;
  }

  return Object.assign(match, { methodsOf });
}
