// Writing JSON responses with node:http, in the shapes and headers the service sends.
import type { ServerResponse } from "node:http";

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Record<string, string> = {},
  ) {
    super(`HTTP ${status}`);
  }
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

export const errorBody = (message: string) => ({ message });

/** 422 with Laravel's summary message and the per-field messages. */
export const validationError = (message: string, errors: Record<string, string[]>) => new HttpError(422, { message, errors });

export const notFound = (what: string) => new HttpError(404, errorBody(`${what} not found.`));
