// JSON responses in the contract's shapes. Built with the fetch implementation of the HTTP
// server adapter (@whatwg-node), which writes a string body straight to the socket; the
// platform's Response would wrap it in a web stream that the adapter then reads back.
import type { FieldErrors } from "../errors";
import { Response } from "@whatwg-node/fetch";

const jsonHeaders = { "Content-Type": "application/json; charset=utf-8" };

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return jsonText(status, JSON.stringify(body), headers);
}

/** A body that is JSON text already. */
export function jsonText(status: number, text: string, headers: Record<string, string> = {}): Response {
  return new Response(text, { status, headers: { ...jsonHeaders, ...headers } });
}

export function errorJson(status: number, message: string, headers: Record<string, string> = {}): Response {
  return json(status, { message }, headers);
}

export function validationJson(message: string, errors: FieldErrors): Response {
  return json(422, { message, errors });
}

export const noContent = () => new Response(null, { status: 204 });
