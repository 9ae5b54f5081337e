// The Pothos builder and its plugins. Type definitions live in the domain files beside it.
import SchemaBuilder from "@pothos/core";
import PrismaPlugin from "@pothos/plugin-prisma";
import type PrismaTypes from "../generated/pothos-types";
import { getDatamodel } from "../generated/pothos-types";
import type { Context } from "../context";

export const builder = new SchemaBuilder<{
  PrismaTypes: PrismaTypes;
  Context: Context;
  Scalars: {
    DateTime: { Input: Date; Output: Date };
    ID: { Input: string; Output: string | number };
  };
  DefaultFieldNullability: false;
}>({
  plugins: [PrismaPlugin],
  defaultFieldNullability: false,
  prisma: {
    // The client comes with each request's context, so the schema holds no database of its own.
    client: (ctx) => ctx.db.prisma,
    dmmf: getDatamodel(),
    exposeDescriptions: false,
    filterConnectionTotalCount: true,
    onUnusedQuery: null,
  },
});

builder.queryType({});
builder.mutationType({});
