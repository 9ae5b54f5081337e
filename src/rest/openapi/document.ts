// The OpenAPI 3.1 document of the public REST interface and of every other path the service
// answers (/graphql's HTTP interface, health, the docs, the dashboard), each path with an
// operation for every method (served at /openapi.json, browsable at /docs). Generated from the
// route table (src/rest/routes.ts) and the vehicle's field table (src/model/vehicleFields.ts),
// with hand-written overlays for what only the contract knows, rather than by SOFA: the REST
// layer reshapes SOFA's output (flat bodies, aliases, Laravel pages, contract error bodies) and
// the document must describe what clients really receive.
// A change here, or in the files beside it, is a change of the contract:
//   description.ts  info.description: conventions and the decisions the contract leaves open
//   vehicle.ts      the vehicle's schemas and examples, from the field table
//   schemas.ts      the other schemas
//   components.ts   security schemes, parameters, request bodies, headers, shared responses
//   overlays.ts     per route: operationId, summary, parameters, body, success, own errors;
//                   the paths besides the routes, with their methods
//   paths.ts        the paths from the route table and the overlays: scopes, CORS preflights
//                   (OPTIONS), 405 for the other methods
//   scopes.ts       what each operation's key needs, from the root fields' declared scopes
//   refs.ts, types.ts  $refs and JSON bodies; just enough OpenAPI typing
import { headers, parameters, requestBodies, responses, securitySchemes } from "./components";
import { description } from "./description";
import { apiKeyAuth, buildPaths, otherMethodsTag } from "./paths";
import { schemas } from "./schemas";
import type { OpenApiDocument } from "./types";

const tags = [
  { name: "Vehicles", description: "Vehicle records of the key's network." },
  { name: "Dutytime", description: "Officers' on-duty periods." },
  { name: "Officers", description: "The network's officers and their dutytime history." },
  { name: "Statistics", description: "Counts for dashboards, confined to the key's network." },
  { name: "Events", description: "The audit log: every change of the network's data and who made it." },
  { name: "GraphQL", description: "GraphQL over HTTP, the primary interface; GraphiQL in a browser." },
  { name: "Health", description: "Liveness and readiness; no API key." },
  { name: "Documentation", description: "This document, and Swagger UI on it; no API key." },
  { name: "Dashboard", description: "The dashboard page and its files; no API key (the page asks for one)." },
  // Last: Swagger UI shows the tags in this order, and collapses this one (src/server/docs.ts).
  otherMethodsTag,
];

const paths = buildPaths(tags.map((tag) => tag.name));

/** The whole document; built per call so callers may not share (and mutate) one object. */
export function openApiDocument(): OpenApiDocument {
  const document: OpenApiDocument = {
    openapi: "3.1.0",
    info: {
      title: "Vehicle Records and Duty Time Service",
      version: "1.0.0",
      description,
      license: { name: "MIT", identifier: "MIT" },
    },
    // Relative: the document describes the server that serves it.
    servers: [{ url: "/", description: "This server" }],
    tags,
    security: apiKeyAuth,
    paths,
    components: { securitySchemes, schemas, parameters, requestBodies, headers, responses },
  };
  return structuredClone(document);
}
