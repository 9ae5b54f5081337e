// Reads a request's JSON body: 413 when it is too large, 415 when it is not JSON, 400 when it
// is malformed.
import { maxBodyBytes, maxJsonDepth } from "../config/limits";
import { errorJson, type Reply } from "./responses";
import type { IncomingRest } from "./incoming";

/** The rest of such a body is dropped and the connection closed after the answer. */
export const bodyTooLarge = () => errorJson(413, bodyTooLargeMessage);

export const bodyTooLargeMessage = `The request body must not exceed ${maxBodyBytes} bytes.`;
export const tooDeepMessage = `The request body must not be nested more than ${maxJsonDepth} levels deep.`;

/**
 * Whether JSON text nests at most `max` levels of arrays and objects: checked before JSON.parse,
 * whose result is walked by recursive code (GraphQL's value coercion, JSON.stringify).
 */
export function nestsAtMost(text: string, max = maxJsonDepth): boolean {
  if (text.length <= max) return true;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === 92 /* \ */) i++;
      else if (code === 34 /* " */) inString = false;
    } else if (code === 34) inString = true;
    else if (code === 91 /* [ */ || code === 123 /* { */) {
      if (++depth > max) return false;
    } else if (code === 93 /* ] */ || code === 125 /* } */) depth--;
  }
  return true;
}

export type BodyResult = { ok: true; body: Record<string, unknown> | null } | { ok: false; reply: Reply };

const isJsonType = (contentType: string) => /^application\/([\w.+-]+\+)?json\s*(;|$)/i.test(contentType);

/** The body as a JSON object; null when none was sent. */
export async function readJsonObject(incoming: IncomingRest): Promise<BodyResult> {
  const text = await incoming.text();
  if (text === null) return { ok: false, reply: bodyTooLarge() };
  if (text.trim() === "") return { ok: true, body: null };
  const contentType = incoming.header("content-type") ?? "";
  if (!isJsonType(contentType)) {
    return { ok: false, reply: errorJson(415, "The request body must be JSON (Content-Type: application/json).") };
  }
  if (!nestsAtMost(text)) return { ok: false, reply: errorJson(400, tooDeepMessage) };
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { ok: false, reply: errorJson(400, "The request body is not valid JSON.") };
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    return { ok: false, reply: errorJson(400, "The request body must be a JSON object.") };
  }
  return { ok: true, body: body as Record<string, unknown> };
}
