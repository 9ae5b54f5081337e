// V8's collector for tests that watch the heap: node's --expose-gc, set once the process runs
// (jest does not start node with it). A minor collection is a scavenge of the young generation.
import v8 from "node:v8";
import vm from "node:vm";

export type Collector = (options?: { type: "minor" | "major" }) => void;

export function exposeGc(): Collector {
  v8.setFlagsFromString("--expose-gc");
  return vm.runInNewContext("gc") as Collector;
}
