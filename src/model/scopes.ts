// What an API key may do (CONTRACT: Keys, scopes and origins), declared once: the
// schema states on each root field which scope it needs (src/schema/scopes.ts), the guarded
// execution checks it before anything runs, and the REST routes, the admin command, the
// OpenAPI document and the docs take the names and meanings from here.

export const scopeNames = ["read", "dutytime", "write", "admin"] as const;
export type Scope = (typeof scopeNames)[number];

export const scopeMeanings: Record<Scope, string> = {
  read: "every query, REST GET, the audit log and subscriptions",
  dutytime: "going on and off duty (toggle and stop)",
  write: "every change of the network's data, dutytime included",
  admin: "the network's keys, webhooks and settings through the API; grants nothing else",
};

/** Scopes that hold others: a key with `write` may do what `dutytime` allows. */
const alsoGrants: Partial<Record<Scope, readonly Scope[]>> = { write: ["dutytime"] };

/** Whether a key holding `held` may do what `needed` allows. */
export const grants = (held: readonly Scope[], needed: Scope): boolean =>
  held.includes(needed) || held.some((scope) => alsoGrants[scope]?.includes(needed) === true);

/** What keys made before scopes existed keep: all they could do then. */
export const scopesOfEarlierKeys: readonly Scope[] = ["read", "write"];

/** The first key of a new network (`network create` without --scopes). */
export const firstKeyScopes: readonly Scope[] = ["read", "write", "admin"];

export const isScope = (name: string): name is Scope => (scopeNames as readonly string[]).includes(name);

/** Scopes in their declared order, each once. */
export const sortedScopes = (scopes: Iterable<Scope>): Scope[] => {
  const held = new Set(scopes);
  return scopeNames.filter((scope) => held.has(scope));
};
