// Stacks in the log name the TypeScript sources (`src/...:line:column`), not the bundle's lines.
// Node's --enable-source-maps would do it for every error, but it parses the bundle's source map
// at start and keeps it, which raised the peak memory under load (figures: docs/performance.md).
// Here the map beside the bundle is read with node:module's public SourceMap when the first stack
// is logged, and only then.
import fs from "node:fs";
import { SourceMap } from "node:module";
import path from "node:path";

/** Per bundle file: its map, or null when it has none (tests run the sources themselves). */
const maps = new Map<string, SourceMap | null>();

function mapOf(bundle: string): SourceMap | null {
  let map = maps.get(bundle);
  if (map === undefined) {
    try {
      map = new SourceMap(JSON.parse(fs.readFileSync(`${bundle}.map`, "utf8")));
    } catch {
      map = null;
    }
    maps.set(bundle, map);
  }
  return map;
}

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * The stack with each position in `bundle` (this file's bundle by default) replaced by its
 * source's, as an absolute path like the stack's others. Positions the map does not cover, and
 * every stack when Node maps them itself, stay as they are.
 */
export function sourceStack(stack: string, bundle: string = __filename): string {
  if (process.sourceMapsEnabled || !stack.includes(bundle)) return stack;
  const map = mapOf(bundle);
  if (!map) return stack;
  return stack.replace(new RegExp(`${escaped(bundle)}:(\\d+):(\\d+)`, "g"), (position, line: string, column: string) => {
    // findEntry takes and answers zero-based lines and columns; stacks count from one.
    const entry = map.findEntry(Number(line) - 1, Number(column) - 1);
    if (!("originalSource" in entry)) return position;
    const source = path.resolve(path.dirname(bundle), entry.originalSource.replace(/^file:\/\//, ""));
    return `${source}:${entry.originalLine + 1}:${entry.originalColumn + 1}`;
  });
}
