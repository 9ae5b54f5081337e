// The REST interface of SPEC.md section 4. Each handler only maps HTTP to a GraphQL operation
// (run by SOFA) and its result back to the contract's shape; the rules live in the resolvers.
import type { GraphQLInputObjectType, GraphQLSchema } from "graphql";
import type { NetworkScope } from "../context";
import { Validator } from "../resolvers/validation";
import { validationSummary, type FieldErrors } from "../errors";
import { readJsonObject } from "./requestBody";
import { jsonText, noContent, validationJson, type Reply } from "./responses";
import type { IncomingRest } from "./incoming";
import type { PathParams, Route } from "./router";
import type { CallSofa, SofaCall, SofaOperation, SofaResult } from "./sofa";
import { bodyToInput } from "./variables";
import { laravelPageJson, listQueryToVariables, restNameOf } from "./vehicleList";

export interface RestRequest {
  incoming: IncomingRest;
  params: PathParams;
  network: NetworkScope;
}

export type RestHandler = (rest: RestRequest) => Promise<Reply>;

function invalid(check: Validator): Reply | null {
  const { errors } = check;
  return Object.keys(errors).length === 0 ? null : validationJson(validationSummary(errors), errors);
}

/** Renames error keys from GraphQL argument names to the REST names the client sent. */
function renameErrorFields(reply: Reply, rename: (field: string) => string): Reply {
  if (reply.status !== 422 || reply.body === null) return reply;
  const body = JSON.parse(reply.body) as { message: string; errors: FieldErrors };
  const errors: FieldErrors = {};
  for (const [field, messages] of Object.entries(body.errors ?? {})) errors[rename(field)] = messages;
  return validationJson(body.message, errors);
}

export function restRoutes(schema: GraphQLSchema, callSofa: CallSofa): Route<RestHandler>[] {
  const inputType = (name: string) => schema.getType(name) as GraphQLInputObjectType;
  const vehiclesArgs = schema.getQueryType()!.getFields().vehicles.args;

  const call = async (rest: RestRequest, sofa: SofaCall, respond: (result: SofaResult & { ok: true }) => Reply) => {
    const result = await callSofa(sofa, rest.network);
    return result.ok ? respond(result) : result.reply;
  };

  /** The contract's `{"data": ...}` around the operation's JSON, which is not parsed again. */
  const dataJson = (status: number, operationJson: string) => jsonText(status, `{"data":${operationJson}}`);

  /** The vehicle id of a /vehicles/{vehicle} path, under the operation's argument name. */
  const vehicleParams = (rest: RestRequest) => (rest.params.vehicle === undefined ? undefined : { id: rest.params.vehicle });

  /** POST/PUT/PATCH of a vehicle: the flat JSON body becomes the mutation's `input`. */
  const writeVehicle = (inputTypeName: string, operation: SofaOperation): RestHandler =>
    async (rest) => {
      const read = await readJsonObject(rest.incoming);
      if (!read.ok) return read.reply;
      const check = new Validator();
      const input = bodyToInput(check, read.body ?? {}, inputType(inputTypeName));
      const rejected = invalid(check);
      if (rejected) return rejected;
      return call(rest, { operation, params: vehicleParams(rest), variables: { input } }, ({ status, json }) => dataJson(status, json));
    };

  /** POST /dutytime/...: a body is optional; when sent it must be a JSON object (ignored). */
  const dutytime = (action: "toggle" | "stop"): RestHandler => async (rest) => {
    const read = await readJsonObject(rest.incoming);
    if (!read.ok) return read.reply;
    const operation = action === "toggle" ? "Mutation.toggleDutytime" : "Mutation.stopDutytime";
    return call(rest, { operation, params: { identifier: rest.params.identifier } }, ({ json }) => dataJson(200, json));
  };

  /** GET of a statistic: the operation's result is the response body. */
  const statistic = (operation: SofaOperation): RestHandler => (rest) =>
    call(rest, { operation }, ({ json }) => jsonText(200, json));

  return [
    {
      method: "GET",
      path: "/vehicles",
      handler: async (rest) => {
        const url = rest.incoming.url();
        const check = new Validator();
        const query = listQueryToVariables(check, url, vehiclesArgs);
        const rejected = invalid(check);
        if (rejected) return rejected;
        const result = await callSofa({ operation: "Query.vehicles", query }, rest.network);
        if (!result.ok) return renameErrorFields(result.reply, restNameOf);
        return jsonText(200, laravelPageJson(url, result.json));
      },
    },
    { method: "POST", path: "/vehicles", handler: writeVehicle("CreateVehicleInput", "Mutation.createVehicle") },
    {
      method: "GET",
      path: "/vehicles/{vehicle}",
      handler: (rest) => call(rest, { operation: "Query.vehicle", params: vehicleParams(rest) }, ({ json }) => dataJson(200, json)),
    },
    // PUT and PATCH both update only the fields sent (CONTRACT), so both run updateVehicle.
    { method: "PUT", path: "/vehicles/{vehicle}", handler: writeVehicle("UpdateVehicleInput", "Mutation.updateVehicle") },
    { method: "PATCH", path: "/vehicles/{vehicle}", handler: writeVehicle("UpdateVehicleInput", "Mutation.updateVehicle") },
    {
      method: "DELETE",
      path: "/vehicles/{vehicle}",
      handler: (rest) => call(rest, { operation: "Mutation.deleteVehicle", params: vehicleParams(rest) }, () => noContent()),
    },
    { method: "POST", path: "/dutytime/{identifier}/toggle", handler: dutytime("toggle") },
    { method: "POST", path: "/dutytime/{identifier}/stop", handler: dutytime("stop") },
    { method: "GET", path: "/statistics/active-users", handler: statistic("Query.activeUsers") },
    { method: "GET", path: "/statistics/missions/last-7-days", handler: statistic("Query.missionsLastSevenDays") },
    { method: "GET", path: "/statistics/missions/total", handler: statistic("Query.missionsTotal") },
    { method: "GET", path: "/statistics/files/last-7-days", handler: statistic("Query.filesLastSevenDays") },
    { method: "GET", path: "/statistics/files/total", handler: statistic("Query.filesTotal") },
  ];
}
