// A V8 CPU profile of the service (node:inspector's Profiler.stop), its time split by layer
// (./layers.ts). Each sample is charged to the deepest frame that says whose work it is: the
// innermost frame of a project file, else the
// innermost frame of a known package (callbacks from the event loop, with no project frame
// above them), else V8's own pseudo-frames. The service runs from its esbuild bundle, so a
// bundle frame's file comes from the bundle's source map (node:module's SourceMap).
import fs from "node:fs";
import path from "node:path";
import { SourceMap } from "node:module";
import { fileURLToPath } from "node:url";
import { layerOfFile, layerOfPackage, type LayerName } from "./layers";

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}

export interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  /** Microseconds from the previous sample (the first: from startTime). */
  timeDeltas: number[];
}

/** Where a frame's code comes from, as far as the layers tell. */
type FrameOwner = { kind: "file"; file: string } | { kind: "package"; name: string } | { kind: "none" };

export interface LayerTimes {
  /** Main-thread time per layer over the profile, in µs. */
  byLayer: Map<LayerName, number>;
  /** Time the main thread was busy (all samples but idle and the bench's own), in µs. */
  busyUs: number;
  /** Project frames that fell under no layer (test/benchLayers.test.ts keeps this empty). */
  unassigned: Set<string>;
}

/** The package a node_modules path belongs to ("@scope/name" or "name"). */
function packageOf(filePath: string): string | null {
  const at = filePath.lastIndexOf("/node_modules/");
  if (at < 0) return null;
  const [first, second] = filePath.slice(at + "/node_modules/".length).split("/");
  return first.startsWith("@") ? `${first}/${second}` : first;
}

export function layerTimes(profile: CpuProfile, repoRoot: string): LayerTimes {
  const maps = new Map<string, SourceMap | null>();
  const sourceMapOf = (file: string): SourceMap | null => {
    if (!maps.has(file)) {
      const mapFile = `${file}.map`;
      maps.set(file, fs.existsSync(mapFile) ? new SourceMap(JSON.parse(fs.readFileSync(mapFile, "utf8"))) : null);
    }
    return maps.get(file)!;
  };
  const ownerOf = ({ url, lineNumber, columnNumber }: CallFrame): FrameOwner => {
    if (!url || url.startsWith("node:")) return { kind: "none" };
    const filePath = url.startsWith("file:") ? fileURLToPath(url) : url;
    const name = packageOf(filePath);
    if (name) return { kind: "package", name };
    const map = sourceMapOf(filePath);
    const source = map ? map.findEntry(lineNumber, columnNumber) : null;
    // findEntry answers {} where the map has no entry.
    const original = source && "originalSource" in source ? String(source.originalSource) : null;
    const resolved = original ? (original.startsWith("file:") ? fileURLToPath(original) : path.resolve(path.dirname(filePath), original)) : filePath;
    const originalPackage = packageOf(resolved);
    if (originalPackage) return { kind: "package", name: originalPackage };
    return { kind: "file", file: path.relative(repoRoot, resolved).split(path.sep).join("/") };
  };

  const parents = new Map<number, number>();
  const byId = new Map<number, ProfileNode>();
  for (const node of profile.nodes) {
    byId.set(node.id, node);
    for (const child of node.children ?? []) parents.set(child, node.id);
  }
  const unassigned = new Set<string>();
  const layerOfNode = new Map<number, LayerName | "idle">();
  const classify = (leafId: number): LayerName | "idle" => {
    const leaf = byId.get(leafId)!.callFrame;
    if (leaf.functionName === "(idle)") return "idle";
    if (leaf.functionName === "(garbage collector)") return "garbage collection (main thread)";
    let packageLayer: LayerName | null = null;
    for (let id: number | undefined = leafId; id !== undefined; id = parents.get(id)) {
      const frame = byId.get(id)!.callFrame;
      const owner = ownerOf(frame);
      if (owner.kind === "file") {
        // The bench's own profiler (./profiler.mjs) in the service process: not the service's work.
        if (owner.file.startsWith("bench/")) return "idle";
        const layer = layerOfFile(owner.file, frame.functionName);
        if (layer) return layer;
        unassigned.add(owner.file);
      } else if (owner.kind === "package") {
        packageLayer ??= layerOfPackage(owner.name);
      }
    }
    if (packageLayer) return packageLayer;
    // node's own JavaScript (its HTTP parser's callbacks, streams, timers) with no project frame above.
    for (let id: number | undefined = leafId; id !== undefined; id = parents.get(id)) {
      if (byId.get(id)!.callFrame.url.startsWith("node:")) return "HTTP (node's server: parse, write)";
    }
    return "other (V8, native, unattributed)";
  };

  const byLayer = new Map<LayerName, number>();
  let busyUs = 0;
  // A sample stands for the time until the next one.
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i];
    const us = i + 1 < profile.timeDeltas.length ? profile.timeDeltas[i + 1] : 0;
    let layer = layerOfNode.get(id);
    if (layer === undefined) {
      layer = classify(id);
      layerOfNode.set(id, layer);
    }
    if (layer === "idle" || us === 0) continue;
    busyUs += us;
    byLayer.set(layer, (byLayer.get(layer) ?? 0) + us);
  }
  return { byLayer, busyUs, unassigned };
}
