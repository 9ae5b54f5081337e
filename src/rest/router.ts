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

interface CompiledRoute<R> {
  /** The route as given: a match answers it itself, so what a caller keeps per route is found by it. */
  route: R;
  pattern: RegExp;
  names: string[];
}

export type Match<R> = { route: R; params: PathParams } | { reply: Reply };

export function createRouter<R extends Route<unknown>>(routes: R[]) {
  const compiled: CompiledRoute<R>[] = routes.map((route) => {
    const names: string[] = [];
    const source = route.path.replace(/\{(\w+)\}/g, (_, name: string) => {
      names.push(name);
      return "([^/]+)";
    });
    return { route, names, pattern: new RegExp(`^${source}/?$`) };
  });

  /** The methods the path answers (HEAD wherever GET), or null for a path of no route. */
  function methodsOf(pathname: string): string[] | null {
    const methods = compiled.filter((entry) => entry.pattern.test(pathname)).map((entry) => entry.route.method as string);
    if (methods.length === 0) return null;
    return methods.includes("GET") ? [...methods, "HEAD"] : methods;
  }

  function match(method: string, pathname: string): Match<R> | null {
    const allowed: string[] = [];
    for (const { route, names, pattern } of compiled) {
      const found = pattern.exec(pathname);
      if (!found) continue;
      if (route.method !== method && !(method === "HEAD" && route.method === "GET")) {
        allowed.push(route.method);
        continue;
      }
      const params: PathParams = {};
      try {
        names.forEach((name, index) => (params[name] = decodeURIComponent(found[index + 1])));
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
