// Laravel-style pages in the graph: every list (vehicles, officers, an officer's dutytime) is
// `{ data, meta }` with the same PageMeta.
import type { ArgBuilder, ObjectRef } from "@pothos/core";
import { builder } from "./builder";
import { perPageDefault, perPageMax, type Page, type PageMeta } from "../resolvers/pages";

const PageMetaType = builder.objectRef<PageMeta>("PageMeta").implement({
  fields: (t) => ({
    currentPage: t.exposeInt("currentPage"),
    perPage: t.exposeInt("perPage"),
    total: t.exposeInt("total"),
    lastPage: t.exposeInt("lastPage"),
    from: t.exposeInt("from", { nullable: true, description: "Position of the first item of the page; null when empty." }),
    to: t.exposeInt("to", { nullable: true, description: "Position of the last item of the page; null when empty." }),
  }),
});

/** The page type `<name>` of items of `item`. */
export function pageType<T>(name: string, item: ObjectRef<SchemaTypes, T>) {
  return builder.objectRef<Page<T>>(name).implement({
    fields: (t) => ({
      // The page's size is counted once, by the list field (pageComplexity).
      data: t.field({ type: [item], complexity: { field: 1, multiplier: 1 }, resolve: (page) => page.data }),
      meta: t.field({ type: PageMetaType, resolve: (page) => page.meta }),
    }),
  });
}

type SchemaTypes = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer Types> ? Types : never;

/** The page arguments of every list. */
export const pageArgs = (arg: ArgBuilder<SchemaTypes>) => ({
  page: arg.int({ description: "1-based, default 1." }),
  perPage: arg.int({ description: `1..${perPageMax}, default ${perPageDefault}.` }),
});
