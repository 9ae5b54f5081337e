// The keys a search looks up in the network's own trigram index: the needle's substrings of
// three ASCII letters or digits, each keyed by the network. Every such substring of a needle is
// one of the keys of any text holding the needle:
// - PostgreSQL (prisma/postgresql/migrations/*_vehicle_search_keys, vehicles_search_keys_idx):
//   pg_trgm counts those characters as word characters under every locale, so the trigram lies
//   inside a word of the text. Other trigrams are left out: pg_trgm hashes those with a
//   non-ASCII character, which hides whether they hold a word's edge.
// - SQLite (prisma/sqlite/migrations/*_vehicle_search_keys, vehicle_search_keys): the text's
//   keys are all its substrings of that kind.

const asciiTrigram = /(?=([a-z0-9]{3}))/g;

/** Whether the needle has any key: three ASCII letters or digits in a row. */
export const keyedNeedle = (needle: string) => /[a-z0-9]{3}/.test(needle);

const trigramsOf = (needle: string) => new Set(Array.from(needle.matchAll(asciiTrigram), (match) => match[1]));

/** PostgreSQL: the needle's keys in the network ("848:471"), separated by spaces (which no key holds). */
export function needleKeys(networkId: number, needle: string): string {
  return Array.from(trigramsOf(needle), (trigram) => `${networkId}:${trigram}`).join(" ");
}

/** SQLite: an FTS5 query for rows holding all the needle's keys in the network ("848x471"). */
export function needleKeysQuery(networkId: number, needle: string): string {
  return Array.from(trigramsOf(needle), (trigram) => `"${networkId}x${trigram}"`).join(" ");
}
