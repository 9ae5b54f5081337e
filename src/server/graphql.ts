// The GraphQL endpoint (graphql-yoga) with GraphiQL served from npm, so it works offline.
import { createYoga, maskError as yogaMaskError } from "graphql-yoga";
import { renderGraphiQL } from "@graphql-yoga/render-graphiql";
import type { GraphQLSchema } from "graphql";
import type { Context, NetworkScope } from "../context";
import type { Database } from "../db/client";
import { logInternalError, originalErrorOf } from "../publicError";
import { isDatabaseUnavailable } from "../resolvers/databaseErrors";
import { unavailable } from "../errors";

/** Set by the app once the request's API key has been checked. */
export interface ServerContext {
  network: NetworkScope;
}

const exampleQuery = `# Put your network's API key into the Headers tab below:
#   {"X-API-Key": "vrd_..."}
query FirstPage {
  network { name identifierType }
  vehicles(perPage: 5, sortField: plate) {
    data { id plate carType owner generalInspection wanted wantedReason }
    meta { currentPage lastPage total }
  }
  activeUsers { count data { identifier name startedAt } }
}
`;

export function createGraphqlServer(schema: GraphQLSchema, db: Database, now: () => Date) {
  return createYoga<ServerContext, Context>({
    schema,
    graphqlEndpoint: "/graphql",
    landingPage: false,
    logging: false,
    context: ({ network }) => ({ db, network, now }),
    renderGraphiQL,
    graphiql: {
      title: "Vehicle Records and Duty Time",
      defaultQuery: exampleQuery,
      headers: JSON.stringify({ "X-API-Key": "" }),
      shouldPersistHeaders: true,
    },
    maskedErrors: {
      maskError(error, message, isDev) {
        // Domain errors are GraphQLErrors and pass as they are, with their path.
        if (isDatabaseUnavailable(originalErrorOf(error))) return unavailable();
        const masked = yogaMaskError(error, message, isDev);
        if (masked !== error) logInternalError(error);
        return masked;
      },
    },
  });
}

export type GraphqlServer = ReturnType<typeof createGraphqlServer>;
