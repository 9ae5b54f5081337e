// graphql-ws publishes its `ws` adapter only as a package export ("graphql-ws/use/ws"): node,
// esbuild and jest resolve it at run time, TypeScript's "node" module resolution does not see it.
// Its types, from the file the export names.
declare module "graphql-ws/use/ws" {
  export * from "graphql-ws/dist/use/ws";
}
