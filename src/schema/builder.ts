// The Pothos builder and its plugins. Type definitions live in the domain files beside it.
import SchemaBuilder from "@pothos/core";
import PrismaPlugin from "@pothos/plugin-prisma";
import ComplexityPlugin from "@pothos/plugin-complexity";
import type PrismaTypes from "../generated/pothos-types";
import { getDatamodel } from "../generated/pothos-types";
import type { Context } from "../context";

export const builder = new SchemaBuilder<{
  PrismaTypes: PrismaTypes;
  Context: Context;
  Scalars: {
    DateTime: { Input: Date; Output: Date };
    ID: { Input: string; Output: string | number };
    EventData: { Input: never; Output: Record<string, unknown> };
  };
  DefaultFieldNullability: false;
}>({
  plugins: [PrismaPlugin, ComplexityPlugin],
  defaultFieldNullability: false,
  // Fields declare their cost here; it is measured and limited before execution on every path
  // (src/server/operationLimits.ts), so the plugin's own check inside resolvers stays off.
  complexity: { disabled: true, defaultComplexity: 1, defaultListMultiplier: 10 },
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
