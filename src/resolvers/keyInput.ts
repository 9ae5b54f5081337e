// What a new API key may be made of (CONTRACT: Keys, scopes and origins), checked
// with Laravel-style messages by the field names of GraphQL's input (the admin command's options
// carry the same names). All faults are reported at once.
import { isScope, scopeNames, sortedScopes, type Scope } from "../model/scopes";
import { messages, textFault, Validator } from "./validation";

export const maxKeyNameCharacters = 100;
export const maxKeyOrigins = 20;
/** Longest grace period of a revoked or replaced key: a year (moving connectors takes days, not years). */
export const maxGraceSeconds = 365 * 24 * 3600;
/** The latest instant both databases store alike. */
const latestInstant = Date.parse("9999-12-31T23:59:59.999Z");

export interface KeyInput {
  name: string;
  /** Scope names; each must be one of src/model/scopes.ts's. */
  scopes: readonly string[];
  /** Browser origins, e.g. https://dash.example.org. */
  origins: readonly string[];
  /** The key's own end; null: none. */
  expiresAt: Date | null;
}

/** A key's input as it is stored: name trimmed, scopes in order, origins as browsers send them. */
export interface CheckedKeyInput {
  name: string;
  scopes: Scope[];
  origins: string[];
  expiresAt: Date | null;
}

/**
 * The origin as browsers send it in their `Origin` header (lower-case scheme and host, no default
 * port: the WHATWG URL parser's serialization), or null when the text is more or less than a
 * browser origin: another scheme, user info, a path, a query or a fragment, a wildcard. A
 * trailing "/" is allowed, as a copied address has one.
 */
export function browserOrigin(text: string): string | null {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  if (url.username !== "" || url.password !== "" || url.pathname !== "/" || /[?#]/.test(text)) return null;
  // The parser takes "*" as part of a host name; an origin list names hosts, it has no patterns.
  if (url.hostname.includes("*")) return null;
  return url.origin;
}

const originFault = (text: string) =>
  `The origin "${text}" is not a browser origin: write scheme://host[:port] with http or https and nothing after it, e.g. https://dash.example.org.`;

function checkName(check: Validator, text: string): string {
  const name = text.trim();
  const fault = name === "" ? messages.required("name") : textFault("name", name, maxKeyNameCharacters);
  if (fault) check.fail("name", fault);
  // A name is shown in lists, logs and metrics: one line of text.
  else if (/\p{Cc}/u.test(name)) check.fail("name", "The name field must not contain control characters.");
  return name;
}

/** Scopes in their declared order, each once; unknown names and an empty list are faults. */
export function checkScopes(check: Validator, names: readonly string[]): Scope[] {
  if (names.length === 0) check.fail("scopes", messages.required("scopes"));
  for (const name of names) {
    if (!isScope(name)) check.fail("scopes", `The selected scope "${name}" is invalid. Allowed: ${scopeNames.join(", ")}.`);
  }
  return sortedScopes(names.filter(isScope));
}

function checkOrigins(check: Validator, texts: readonly string[]): string[] {
  const origins = new Set<string>();
  for (const text of texts) {
    const origin = browserOrigin(text);
    if (origin === null) check.fail("origins", originFault(text));
    else origins.add(origin);
  }
  if (origins.size > maxKeyOrigins) check.fail("origins", `The origins field must not have more than ${maxKeyOrigins} items.`);
  return [...origins];
}

function checkExpiry(check: Validator, expiresAt: Date | null, now: Date): Date | null {
  if (expiresAt === null) return null;
  const time = expiresAt.getTime();
  if (Number.isNaN(time) || time <= now.getTime()) check.fail("expiresAt", "The expires at field must be a date after now.");
  else if (time > latestInstant) check.fail("expiresAt", "The expires at field must be a date before the year 10000.");
  return expiresAt;
}

/** The input as it is stored, or BAD_USER_INPUT with every fault. */
export function checkKeyInput(input: KeyInput, now: Date): CheckedKeyInput {
  const check = new Validator();
  const checked = {
    name: checkName(check, input.name),
    scopes: checkScopes(check, input.scopes),
    origins: checkOrigins(check, input.origins),
    expiresAt: checkExpiry(check, input.expiresAt, now),
  };
  check.throwIfInvalid();
  return checked;
}

/** A grace period in whole seconds, from 0 (at once) to maxGraceSeconds; else BAD_USER_INPUT. */
export function checkGrace(graceSeconds: number): number {
  const check = new Validator();
  if (!Number.isInteger(graceSeconds) || graceSeconds < 0 || graceSeconds > maxGraceSeconds) {
    check.fail("graceSeconds", messages.between("graceSeconds", 0, maxGraceSeconds));
  }
  check.throwIfInvalid();
  return graceSeconds;
}
