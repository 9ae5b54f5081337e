// Attack 8: the bad inputs of the hardening spec, without any key, round-robin over the
// connections. Each answer must be a 4xx (most will be 401: no key); a 5xx, or a connection the
// server drops, is a failure, and the kind that caused it is named in the table's notes.
import type { AttackRequest } from "./hammer";
import { graphqlBody } from "./documents";

const json = { "content-type": "application/json" };
const depth = 10_000;
const nestedArrays = (n: number) => "[".repeat(n) + "]".repeat(n);
const gql = (kind: string, query: string, variables?: unknown): AttackRequest => ({
  kind,
  method: "POST",
  path: "/graphql",
  headers: json,
  body: graphqlBody(query, variables),
});

export const badInputs: AttackRequest[] = [
  // NUL in strings a client sends.
  gql("NUL in a GraphQL string argument", 'mutation { toggleDutytime(identifier: "steam:\\u0000x") { onDuty } }'),
  gql("raw NUL inside a GraphQL document", 'mutation { toggleDutytime(identifier: "steam:\u0000x") { onDuty } }'),
  gql("NUL in a vehicle input", 'mutation { createVehicle(input: {plate: "NUL\\u0000"}) { id } }'),
  { kind: "NUL in REST search", method: "GET", path: "/vehicles?search=%00" },
  { kind: "NUL in REST body", method: "POST", path: "/vehicles", headers: json, body: JSON.stringify({ plate: "A\u0000B" }) },
  { kind: "NUL in an identifier path segment", method: "POST", path: "/dutytime/steam%3A%00/toggle" },
  // Deep nesting: JSON bodies and GraphQL documents 10,000 levels deep.
  { kind: "JSON body 10,000 deep (REST)", method: "POST", path: "/vehicles", headers: json, body: `{"plate":${nestedArrays(depth)}}` },
  {
    kind: "JSON variables 10,000 deep (GraphQL)",
    method: "POST",
    path: "/graphql",
    headers: json,
    body: `{"query":"query($v: String) { __typename }","variables":{"v":${nestedArrays(depth)}}}`,
  },
  gql("document: inline fragments 10,000 deep", `{ ${"... on Query { ".repeat(depth)}__typename${" }".repeat(depth)} }`),
  gql("document: list argument 10,000 deep", `{ vehicles(search: ${nestedArrays(depth)}) { meta { total } } }`),
  gql("document: object argument 10,000 deep", `{ vehicles(search: ${"{a: ".repeat(depth)}1${"}".repeat(depth)}) { meta { total } } }`),
  gql("document: selections 10,000 deep", `{ ${"network { ".repeat(depth)}id${" }".repeat(depth)} }`),
  // Variables that are not JSON, or not an object.
  { kind: "GET variables not JSON", method: "GET", path: `/graphql?query=${encodeURIComponent("{ __typename }")}&variables=%7Bnot-json` },
  { kind: "GET variables not an object", method: "GET", path: `/graphql?query=${encodeURIComponent("{ __typename }")}&variables=%5B1%5D` },
  // Methods.
  { kind: "TRACE /graphql", method: "TRACE", path: "/graphql" },
  { kind: "PROPFIND /graphql", method: "PROPFIND", path: "/graphql" },
  { kind: "PUT /graphql", method: "PUT", path: "/graphql", headers: json, body: graphqlBody("{ __typename }") },
  { kind: "TRACE /vehicles", method: "TRACE", path: "/vehicles" },
  // Impossible instants.
  gql("DateTime 2026-02-30", 'mutation { createMissionReport(input: {createdAt: "2026-02-30T10:00Z"}) { id } }'),
  gql("DateTime beyond year 9999", 'mutation { createPatientFile(input: {createdAt: "9999-12-31T23:59-23:59"}) { id } }'),
  // Headers.
  { kind: "20 KB header", method: "GET", path: "/vehicles", headers: { "x-padding": "x".repeat(20_000) } },
  {
    kind: "two different Authorization lines",
    method: "GET",
    path: "/vehicles",
    // Capitalised: the typed lowercase key allows one value only; node sends an array as two lines.
    headers: { Authorization: ["Bearer vrd_a", "Bearer vrd_b"] },
  },
  { kind: "Content-Length not a number", method: "POST", path: "/vehicles", headers: { ...json, "content-length": "abc" } },
];

export const badInput = (i: number): AttackRequest => badInputs[i % badInputs.length];
