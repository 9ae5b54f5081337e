// The keys a search looks up in PostgreSQL's vehicles_search_keys_idx
// (prisma/postgresql/migrations/*_vehicle_search_keys): the needle's trigrams of ASCII letters
// and digits, each keyed by the network. pg_trgm counts those as word characters under every
// locale, so such a trigram of a needle lies inside a word of any text holding the needle, and
// is one of that text's keys. Other trigrams are left out: pg_trgm hashes those with a
// non-ASCII character, which hides whether they hold a word's edge.

const asciiWordTrigram = /(?=([a-z0-9]{3}))/g;

/** Whether the needle has any key: three ASCII letters or digits in a row. */
export const keyedNeedle = (needle: string) => /[a-z0-9]{3}/.test(needle);

/** The needle's keys in the network, separated by spaces (which no key holds). */
export function needleKeys(networkId: number, needle: string): string {
  const trigrams = new Set(Array.from(needle.matchAll(asciiWordTrigram), (match) => match[1]));
  return Array.from(trigrams, (trigram) => `${networkId}:${trigram}`).join(" ");
}
