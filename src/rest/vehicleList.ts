// GET /vehicles: query parameters (with their aliases) to GraphQL arguments, and the
// GraphQL page to Laravel's {data, links, meta} envelope.
import type { GraphQLArgument } from "graphql";
import { Validator } from "../resolvers/validation";
import { queryToVariable } from "./variables";

/** REST parameter names per GraphQL argument; the first (snake_case) wins over its alias. */
export const listParameters: Record<string, string[]> = {
  search: ["search"],
  sortField: ["sort_field", "sortField"],
  sortOrder: ["sort_order", "sortOrder"],
  page: ["page"],
  perPage: ["per_page", "perPage"],
};

/** The REST name a client sees in errors for each argument. */
export const restNameOf = (argument: string) => listParameters[argument]?.[0] ?? argument;

export function listQueryToVariables(check: Validator, url: URL, args: readonly GraphQLArgument[]) {
  const variables = new URLSearchParams();
  for (const arg of args) {
    const names = listParameters[arg.name] ?? [arg.name];
    const name = names.find((candidate) => url.searchParams.has(candidate));
    if (!name) continue;
    const text = url.searchParams.get(name)!;
    if (text === "" && arg.name === "search") continue;
    const value = queryToVariable(check, names[0], text, arg.type);
    if (value !== undefined) variables.set(arg.name, String(value));
  }
  return variables;
}

interface GraphqlPage {
  data: unknown[];
  meta: { currentPage: number; perPage: number; total: number; lastPage: number; from: number | null; to: number | null };
}

/** Laravel's paginator envelope; links keep the request's other query parameters. */
export function laravelPage(url: URL, page: GraphqlPage) {
  const path = `${url.origin}${url.pathname}`;
  const linkTo = (pageNumber: number) => {
    const query = new URLSearchParams(url.searchParams);
    query.set("page", String(pageNumber));
    return `${path}?${query}`;
  };
  const { currentPage, lastPage } = page.meta;
  return {
    data: page.data,
    links: {
      first: linkTo(1),
      last: linkTo(lastPage),
      prev: currentPage > 1 ? linkTo(Math.min(currentPage - 1, lastPage)) : null,
      next: currentPage < lastPage ? linkTo(currentPage + 1) : null,
    },
    meta: {
      current_page: currentPage,
      from: page.meta.from,
      last_page: lastPage,
      path,
      per_page: page.meta.perPage,
      to: page.meta.to,
      total: page.meta.total,
    },
  };
}
