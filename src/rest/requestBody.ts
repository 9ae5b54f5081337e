// Reads a request's JSON body: 415 when it is not JSON, 400 when it is malformed.
import { errorJson } from "./responses";

export type BodyResult = { ok: true; body: Record<string, unknown> | null } | { ok: false; response: Response };

const isJsonType = (contentType: string) => /^application\/([\w.+-]+\+)?json\s*(;|$)/i.test(contentType);

/** The body as a JSON object; null when none was sent. */
export async function readJsonObject(request: Request): Promise<BodyResult> {
  const text = await request.text();
  if (text.trim() === "") return { ok: true, body: null };
  const contentType = request.headers.get("content-type") ?? "";
  if (!isJsonType(contentType)) {
    return { ok: false, response: errorJson(415, "The request body must be JSON (Content-Type: application/json).") };
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { ok: false, response: errorJson(400, "The request body is not valid JSON.") };
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    return { ok: false, response: errorJson(400, "The request body must be a JSON object.") };
  }
  return { ok: true, body: body as Record<string, unknown> };
}
