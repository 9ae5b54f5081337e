// JSON responses in the contract's shapes.
import type { FieldErrors } from "../errors";

const jsonHeaders = { "Content-Type": "application/json; charset=utf-8" };

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { ...jsonHeaders, ...headers } });
}

export function errorJson(status: number, message: string, headers: Record<string, string> = {}): Response {
  return json(status, { message }, headers);
}

export function validationJson(message: string, errors: FieldErrors): Response {
  return json(422, { message, errors });
}

export const noContent = () => new Response(null, { status: 204 });
