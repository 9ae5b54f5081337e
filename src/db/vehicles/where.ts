// The WHERE clauses of a page both databases use; each database's search plan adds its own
// (src/db/sqlite/pageRows.ts, src/db/postgres/pageRows.ts).
import { Prisma } from "../../generated/prisma/client";

/** All the network's rows. */
export const networkWhere = (networkId: number) => Prisma.sql`WHERE network_id = ${networkId}`;

/**
 * The network's rows whose search text holds the needle: LIKE on the row decides, whatever
 * names the candidates (`among`: ` AND id IN (...)`, or nothing).
 */
export function likeWhere(networkId: number, needle: string, among: Prisma.Sql = Prisma.empty): Prisma.Sql {
  const pattern = `%${needle}%`;
  return Prisma.sql`WHERE network_id = ${networkId}${among} AND search_text LIKE ${pattern}`;
}
