// The layers of docs/architecture.md, checked by `npm run lint` (and so in .ci/run):
// requests flow from the HTTP server down to the stores, and imports only point down. Type-only
// imports count too, so the folders say the truth about what depends on what.
//
//   server (HTTP, GraphQL serving) -> rest (REST operations over SOFA) -> schema (Pothos)
//     -> resolvers (rules) -> webhooks (deliver the recorded events)
//     -> events (recorded with each change, delivered to subscribers)
//     -> db (stores, SQL) -> model and config (facts every layer shares)
/** @type {import('dependency-cruiser').IConfiguration} */
const layer = (name, mayNotImport, comment) => ({
  name,
  comment,
  severity: "error",
  from: { path: `^src/${name.split("-")[0]}/` },
  to: { path: `^src/(${mayNotImport.join("|")})/` },
});

module.exports = {
  forbidden: [
    {
      name: "no-circular",
      comment: "An import cycle: a module depends, through others, on itself.",
      severity: "error",
      from: { pathNot: "^src/generated/" },
      to: { circular: true },
    },
    layer("model-down", ["server", "rest", "schema", "resolvers", "db", "admin", "config"], "The field table is a fact every layer reads; it reads nothing."),
    layer("config-down", ["server", "rest", "schema", "resolvers", "db", "admin", "model", "events", "webhooks"], "Settings and limits are read by every layer; they read nothing."),
    layer("db-down", ["server", "rest", "schema", "resolvers", "admin"], "The stores know SQL and rows, not the rules or the interfaces above them."),
    layer("events-down", ["server", "rest", "schema", "resolvers", "admin", "webhooks"], "Events are recorded and delivered below the rules, which call them."),
    layer("webhooks-down", ["server", "rest", "schema", "resolvers", "admin"], "Webhooks read the recorded events below the rules, which manage them."),
    layer("resolvers-down", ["server", "rest", "schema", "admin"], "The rules know the stores below them, not the interfaces above them."),
    layer("schema-down", ["server", "rest", "admin", "db"], "The schema calls the rules; it does not reach past them into the stores."),
    layer("rest-down", ["server", "admin"], "The REST layer runs the schema's operations; the HTTP server calls it, not the reverse."),
    // The dashboard (src/dashboard/) sits beside the HTTP server, which routes to its serve.ts.
    layer("dashboard-down", ["server", "schema", "resolvers", "db", "admin"], "The dashboard's server side only serves files; its page reaches the data through GraphQL over HTTP."),
    {
      name: "dashboard-page-browser-only",
      comment: "The page runs in the browser: it imports its own folder only, never server code or Node.js modules.",
      severity: "error",
      from: { path: "^src/dashboard/page/" },
      to: { pathNot: "^src/dashboard/page/" },
    },
    {
      name: "nothing-below-imports-dashboard",
      comment: "Only the HTTP server routes to the dashboard.",
      severity: "error",
      from: { path: "^src/", pathNot: "^src/(server|dashboard)/" },
      to: { path: "^src/dashboard/" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^src/generated/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { extensions: [".ts", ".js"] },
  },
};
