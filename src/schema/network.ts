// The network of the request's API key.
import { builder } from "./builder";
import type { NetworkScope } from "../context";

export const NetworkType = builder.objectRef<NetworkScope>("Network").implement({
  fields: (t) => ({
    id: t.exposeInt("id"),
    name: t.exposeString("name"),
    identifierType: t.exposeString("identifierType", { description: "Officer identifiers must be identifierType:value." }),
    timeZone: t.exposeString("timeZone", { description: "IANA time zone of the network's reports when a request names none." }),
    autoStopAfterHours: t.exposeInt("autoStopAfterHours", {
      nullable: true,
      description: "An open dutytime entry older than this many hours ends at its start plus these hours; null: never.",
    }),
  }),
});

builder.queryFields((t) => ({
  network: t.field({
    type: NetworkType,
    description: "The network the API key belongs to.",
    resolve: (_root, _args, ctx) => ctx.network,
  }),
}));
