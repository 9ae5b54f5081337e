// Reads the commands the deployment test runs from the documents themselves, so the test runs
// what an operator reads: the annotated shell blocks of docs/deployment.md and the README's
// first requests.
import fs from "node:fs";
import path from "node:path";

export const repoRoot = path.resolve(__dirname, "..", "..");

/**
 * Where a block of docs/deployment.md runs, from the comment above it (`<!-- deploy: KIND ... -->`):
 * `build` in the repository, `server` as root on the server, `node` and `certificate` are the
 * two steps the test cannot take as written (it says what it does instead in the comment).
 */
export type BlockKind = "build" | "server" | "node" | "certificate";

export interface DeploymentBlock {
  kind: BlockKind;
  /** The section's heading, to name the block in failures. */
  section: string;
  script: string;
}

const kinds: readonly BlockKind[] = ["build", "server", "node", "certificate"];

/** Every shell block of docs/deployment.md, in order; a block without a known annotation is an error. */
export function deploymentBlocks(markdown = fs.readFileSync(path.join(repoRoot, "docs", "deployment.md"), "utf8")): DeploymentBlock[] {
  const blocks: DeploymentBlock[] = [];
  let section = "";
  let annotation: string | null = null;
  const lines = markdown.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line.startsWith("#")) section = line.replace(/^#+\s*/, "");
    const comment = /^<!-- deploy: (\w+)/.exec(line);
    if (comment) annotation = comment[1];
    if (line.startsWith("```")) {
      const end = lines.indexOf("```", i + 1);
      if (end < 0) throw new Error(`unclosed code block in "${section}"`);
      if (line === "```sh") {
        if (annotation === null || !kinds.includes(annotation as BlockKind)) {
          throw new Error(`the shell block in "${section}" has no <!-- deploy: ${kinds.join("|")} --> comment above it`);
        }
        blocks.push({ kind: annotation as BlockKind, section, script: lines.slice(i + 1, end).join("\n") });
      }
      annotation = null;
      i = end;
    }
  }
  return blocks;
}

/** The shell block under the README's "Your first request" heading. */
export function readmeFirstRequests(markdown = fs.readFileSync(path.join(repoRoot, "README.md"), "utf8")): string {
  const start = markdown.indexOf("## Your first request");
  const open = markdown.indexOf("```sh\n", start);
  const close = markdown.indexOf("\n```", open + 6);
  if (start < 0 || open < 0 || close < 0) throw new Error("README.md has no shell block under 'Your first request'");
  return markdown.slice(open + 6, close);
}
