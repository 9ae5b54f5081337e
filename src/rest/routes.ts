// The REST interface of SPEC.md section 4. Each handler only maps HTTP to a GraphQL operation
// (run by SOFA) and its result back to the contract's shape; the rules live in the resolvers.
import type { GraphQLInputObjectType, GraphQLSchema } from "graphql";
import type { NetworkScope } from "../context";
import { Validator } from "../resolvers/validation";
import { validationSummary, type FieldErrors } from "../errors";
import { readJsonObject } from "./requestBody";
import { json, noContent, validationJson } from "./responses";
import type { PathParams, Route } from "./router";
import type { CallSofa, SofaCall, SofaResult } from "./sofa";
import { bodyToInput } from "./variables";
import { laravelPage, listQueryToVariables, restNameOf } from "./vehicleList";

export interface RestRequest {
  request: Request;
  url: URL;
  params: PathParams;
  network: NetworkScope;
}

export type RestHandler = (rest: RestRequest) => Promise<Response>;

const segment = encodeURIComponent;

function invalid(check: Validator): Response | null {
  const { errors } = check;
  return Object.keys(errors).length === 0 ? null : validationJson(validationSummary(errors), errors);
}

/** Renames error keys from GraphQL argument names to the REST names the client sent. */
async function renameErrorFields(response: Response, rename: (field: string) => string): Promise<Response> {
  if (response.status !== 422) return response;
  const body = (await response.json()) as { message: string; errors: FieldErrors };
  const errors: FieldErrors = {};
  for (const [field, messages] of Object.entries(body.errors ?? {})) errors[rename(field)] = messages;
  return validationJson(body.message, errors);
}

export function restRoutes(schema: GraphQLSchema, callSofa: CallSofa): Route<RestHandler>[] {
  const inputType = (name: string) => schema.getType(name) as GraphQLInputObjectType;
  const vehiclesArgs = schema.getQueryType()!.getFields().vehicles.args;

  const call = async (rest: RestRequest, sofa: SofaCall, respond: (result: SofaResult & { ok: true }) => Response) => {
    const result = await callSofa(sofa, rest.network);
    return result.ok ? respond(result) : result.response;
  };

  /** POST/PUT/PATCH of a vehicle: the flat JSON body becomes the mutation's `input`. */
  const writeVehicle = (inputTypeName: string, sofaPath: (rest: RestRequest) => string, method: string): RestHandler =>
    async (rest) => {
      const read = await readJsonObject(rest.request);
      if (!read.ok) return read.response;
      const check = new Validator();
      const input = bodyToInput(check, read.body ?? {}, inputType(inputTypeName));
      const rejected = invalid(check);
      if (rejected) return rejected;
      return call(rest, { method, path: sofaPath(rest), variables: { input } }, ({ status, data }) => json(status, { data }));
    };

  /** POST /dutytime/...: a body is optional; when sent it must be a JSON object (ignored). */
  const dutytime = (action: "toggle" | "stop"): RestHandler => async (rest) => {
    const read = await readJsonObject(rest.request);
    if (!read.ok) return read.response;
    const path = `/dutytime/${segment(rest.params.identifier)}/${action}`;
    return call(rest, { method: "POST", path }, ({ data }) => json(200, { data }));
  };

  /** GET of a statistic: the operation's result is the response body. */
  const statistic = (path: string): RestHandler => (rest) =>
    call(rest, { method: "GET", path }, ({ data }) => json(200, data));

  const vehiclePath = (rest: RestRequest) => `/vehicles/${segment(rest.params.vehicle)}`;

  return [
    {
      method: "GET",
      path: "/vehicles",
      handler: async (rest) => {
        const check = new Validator();
        const query = listQueryToVariables(check, rest.url, vehiclesArgs);
        const rejected = invalid(check);
        if (rejected) return rejected;
        const result = await callSofa({ method: "GET", path: "/vehicles", query }, rest.network);
        if (!result.ok) return renameErrorFields(result.response, restNameOf);
        return json(200, laravelPage(rest.url, result.data as Parameters<typeof laravelPage>[1]));
      },
    },
    { method: "POST", path: "/vehicles", handler: writeVehicle("CreateVehicleInput", () => "/vehicles", "POST") },
    {
      method: "GET",
      path: "/vehicles/{vehicle}",
      handler: (rest) => call(rest, { method: "GET", path: vehiclePath(rest) }, ({ data }) => json(200, { data })),
    },
    // PUT and PATCH both update only the fields sent (CONTRACT), so both run updateVehicle.
    { method: "PUT", path: "/vehicles/{vehicle}", handler: writeVehicle("UpdateVehicleInput", vehiclePath, "PATCH") },
    { method: "PATCH", path: "/vehicles/{vehicle}", handler: writeVehicle("UpdateVehicleInput", vehiclePath, "PATCH") },
    {
      method: "DELETE",
      path: "/vehicles/{vehicle}",
      handler: (rest) => call(rest, { method: "DELETE", path: vehiclePath(rest) }, () => noContent()),
    },
    { method: "POST", path: "/dutytime/{identifier}/toggle", handler: dutytime("toggle") },
    { method: "POST", path: "/dutytime/{identifier}/stop", handler: dutytime("stop") },
    { method: "GET", path: "/statistics/active-users", handler: statistic("/statistics/active-users") },
    { method: "GET", path: "/statistics/missions/last-7-days", handler: statistic("/statistics/missions/last-7-days") },
    { method: "GET", path: "/statistics/missions/total", handler: statistic("/statistics/missions/total") },
    { method: "GET", path: "/statistics/files/last-7-days", handler: statistic("/statistics/files/last-7-days") },
    { method: "GET", path: "/statistics/files/total", handler: statistic("/statistics/files/total") },
  ];
}
