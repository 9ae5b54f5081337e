// The key a request holds, as the API shows keys (`viewer.key`): read when asked, since admission
// keeps only what it checks (src/resolvers/admittedKeys.ts), not when the key was made or last used.
import type { Context } from "../context";
import type { KeyRecord } from "../db/store";
import { notFound } from "../errors";
import { parseStoredId } from "./ids";
import { revokeKey } from "./apiKeys";

export async function viewedKey(ctx: Context): Promise<KeyRecord> {
  const key = await ctx.db.apiKeys.byId(ctx.network.id, ctx.key.id);
  // Gone only if its network went since the request was admitted.
  if (!key) throw notFound("Key");
  return key;
}

/** Revokes the network's key of this id as a client sends it (another network's, or no number: not found). */
export async function revokeKeyById(ctx: Context, id: string | number, graceSeconds: number): Promise<KeyRecord> {
  const keyId = parseStoredId(id);
  if (keyId === null) throw notFound("Key");
  return revokeKey(ctx, keyId, graceSeconds);
}
