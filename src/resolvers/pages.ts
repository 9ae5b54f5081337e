// Laravel-style pages of a list (vehicles, officers, an officer's dutytime): the arguments'
// rules and the page's meta, the same for every list.
import { Validator, messages } from "./validation";

export const perPageDefault = 15;
export const perPageMax = 100;

export interface PageArgs {
  page?: number | null;
  perPage?: number | null;
}

export interface PageMeta {
  currentPage: number;
  perPage: number;
  total: number;
  lastPage: number;
  from: number | null;
  to: number | null;
}

export interface Page<T> {
  data: T[];
  meta: PageMeta;
}

/** The page asked for, checked into `check`: page from 1, perPage within 1..perPageMax. */
export function pageWindow(check: Validator, args: PageArgs): { page: number; perPage: number; limit: number; offset: number } {
  const page = args.page ?? 1;
  const perPage = args.perPage ?? perPageDefault;
  if (page < 1) check.fail("page", messages.min("page", 1));
  if (perPage < 1 || perPage > perPageMax) check.fail("perPage", messages.between("perPage", 1, perPageMax));
  return { page, perPage, limit: perPage, offset: (page - 1) * perPage };
}

/** The page of `data` (its items at `page`) within `total` items. */
export function pageOf<T>(data: T[], total: number, { page, perPage }: { page: number; perPage: number }): Page<T> {
  const from = data.length > 0 ? (page - 1) * perPage + 1 : null;
  return {
    data,
    meta: {
      currentPage: page,
      perPage,
      total,
      lastPage: Math.max(1, Math.ceil(total / perPage)),
      from,
      to: from === null ? null : from + data.length - 1,
    },
  };
}

/**
 * A list field's cost (@pothos/plugin-complexity): its items' selected fields once per item of
 * the largest page it may answer. An out-of-range perPage is refused by the resolver with its
 * own message, so it counts as the most the resolver allows.
 */
export const pageComplexity = ({ perPage }: PageArgs) => ({ field: 1, multiplier: Math.min(Math.max(perPage ?? perPageDefault, 1), perPageMax) });
