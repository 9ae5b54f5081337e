// SQLite's trigram indexes over search_text, asked for the rows that may hold a needle: the
// network's own keys (vehicle_search_keys) for a needle that has some (src/db/vehicles/searchKeys.ts),
// else the trigrams of all networks (vehicles_search).
import { Prisma } from "../../generated/prisma/client";
import { keyedNeedle, needleKeysQuery } from "../vehicles/searchKeys";

/** The needle as an FTS5 phrase: quoted, its own quotes doubled, every other character literal. */
export const ftsPhrase = (needle: string) => `"${needle.replace(/"/g, '""')}"`;

/**
 * The rows of SQLite's trigram index holding the needle: a phrase of its trigrams, answered from
 * the index alone (LIKE on the index would read every candidate's text from the table).
 */
const trigramCandidates = (needle: string) =>
  Prisma.sql`SELECT rowid FROM vehicles_search WHERE vehicles_search MATCH ${ftsPhrase(needle)}`;

/**
 * SQLite: the rows that may hold the needle. The network's rows with all its keys
 * (vehicle_search_keys) where it has any, else the trigram index's rows of every network.
 */
export const searchCandidates = (networkId: number, needle: string) =>
  keyedNeedle(needle)
    ? Prisma.sql`SELECT rowid FROM vehicle_search_keys WHERE vehicle_search_keys MATCH ${needleKeysQuery(networkId, needle)}`
    : trigramCandidates(needle);

/** SQLite's index of the network's vehicle ids, with their search text (its migration says why). */
export const sqliteNetworkIdIndex = "vehicles_network_id_id_search_text_idx";
