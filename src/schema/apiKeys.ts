// The key a request holds (`viewer`), and the network's keys for a key with `admin`: listed,
// made (the secret answered once) and revoked. The rules are the admin command's own
// (src/resolvers/apiKeys.ts); the scope each field needs is declared on it (./scopes.ts).
import { builder } from "./builder";
import { NetworkType } from "./network";
import { needs } from "./scopes";
import { scopeMeanings, scopeNames, type Scope } from "../model/scopes";
import type { KeyRecord } from "../resolvers/apiKeys";
import type { NetworkScope } from "../context";
import { createKey, listKeys } from "../resolvers/apiKeys";
import { revokeKeyById, viewedKey } from "../resolvers/viewer";
import { maxKeyNameCharacters } from "../resolvers/keyInput";

const ScopeEnum = builder.enumType("Scope", {
  description: "What a key may do.",
  values: Object.fromEntries(scopeNames.map((scope) => [scope, { value: scope, description: scopeMeanings[scope] }])) as Record<Scope, { value: Scope; description: string }>,
});

const ApiKeyType = builder.objectRef<KeyRecord>("ApiKey").implement({
  description: "An API key of the network: never its secret, which is shown once, when it is made.",
  fields: (t) => ({
    id: t.exposeInt("id"),
    name: t.exposeString("name"),
    prefix: t.exposeString("prefix", { description: "The secret's first characters, as lists and logs show them." }),
    scopes: t.field({ type: [ScopeEnum], resolve: (key) => key.scopes }),
    origins: t.exposeStringList("origins", { description: "Browser origins that may use the key; empty: none (no browser may)." }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    expiresAt: t.expose("expiresAt", { type: "DateTime", nullable: true, description: "The key's own end; null: none." }),
    revokedAt: t.expose("revokedAt", { type: "DateTime", nullable: true, description: "Valid until then (at once, or a grace period's end); null: not revoked." }),
    lastUsedAt: t.expose("lastUsedAt", { type: "DateTime", nullable: true, description: "To the minute; null: never used." }),
  }),
});

const ViewerType = builder.objectRef<{ network: NetworkScope }>("Viewer").implement({
  description: "The network and the key of the request.",
  fields: (t) => ({
    network: t.field({ type: NetworkType, resolve: (viewer) => viewer.network }),
    key: t.field({ type: ApiKeyType, resolve: (_viewer, _args, ctx) => viewedKey(ctx) }),
  }),
});

const CreatedApiKeyType = builder.objectRef<{ key: KeyRecord; apiKey: string }>("CreatedApiKey").implement({
  fields: (t) => ({
    key: t.field({ type: ApiKeyType, resolve: (created) => created.key }),
    apiKey: t.exposeString("apiKey", { description: "The secret: shown this once, stored only as a hash." }),
  }),
});

const CreateApiKeyInput = builder.inputType("CreateApiKeyInput", {
  fields: (t) => ({
    name: t.string({ required: true, description: `1 to ${maxKeyNameCharacters} characters, unique among the network's unrevoked keys.` }),
    scopes: t.field({ type: [ScopeEnum], required: true }),
    origins: t.stringList({ description: "Browser origins (`https://dash.example.org`) that may use the key." }),
    expiresAt: t.field({ type: "DateTime", description: "Omitted or null: the key does not expire." }),
  }),
});

builder.queryFields((t) => ({
  viewer: t.field({
    type: ViewerType,
    extensions: needs("any key"),
    description: "The network and the key of the request: any key may ask.",
    resolve: (_root, _args, ctx) => ({ network: ctx.network }),
  }),
  apiKeys: t.field({
    type: [ApiKeyType],
    extensions: needs("admin"),
    description: "The network's keys, revoked ones too, newest first.",
    resolve: (_root, _args, ctx) => listKeys(ctx.db.apiKeys, ctx.network.id),
  }),
}));

builder.mutationFields((t) => ({
  createApiKey: t.field({
    type: CreatedApiKeyType,
    extensions: needs("admin"),
    args: { input: t.arg({ type: CreateApiKeyInput, required: true }) },
    resolve: (_root, { input }, ctx) =>
      createKey(ctx, { name: input.name, scopes: input.scopes, origins: input.origins ?? [], expiresAt: input.expiresAt ?? null }),
  }),
  revokeApiKey: t.field({
    type: ApiKeyType,
    extensions: needs("admin"),
    description: "Revokes the key at once, or after graceSeconds (for rolling a new key out).",
    args: { id: t.arg.id({ required: true }), graceSeconds: t.arg.int() },
    resolve: (_root, { id, graceSeconds }, ctx) => revokeKeyById(ctx, id, graceSeconds ?? 0),
  }),
}));
