// A tiny `--name value` / `--flag` parser for the bench scripts: no dependency, and unknown
// or malformed flags stop the script instead of being silently ignored.

/** A mistake in the command line: reported as a message, without a stack. */
export class UsageError extends Error {}

export type FlagKind = "string" | "integer" | "number" | "boolean";

export type FlagSpec = Record<string, FlagKind>;

export type ParsedFlags = Record<string, string | number | boolean>;

export function parseFlags(argv: string[], spec: FlagSpec): ParsedFlags {
  const flags: ParsedFlags = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const match = /^--([a-z][a-z0-9-]*)(?:=(.*))?$/.exec(arg);
    if (!match) throw new UsageError(`unexpected argument: ${arg}`);
    const [, name, inline] = match;
    const kind = spec[name];
    if (!kind) throw new UsageError(`unknown flag --${name} (known: ${Object.keys(spec).map((n) => `--${n}`).join(", ")})`);
    if (kind === "boolean") {
      flags[name] = inline === undefined ? true : inline !== "false" && inline !== "0";
      continue;
    }
    const text = inline ?? argv[++i];
    if (text === undefined) throw new UsageError(`--${name} needs a value`);
    if (kind === "string") flags[name] = text;
    else {
      // Underscores allowed for readability: --vehicles 2_000_000.
      const value = Number(text.replace(/_/g, ""));
      if (!Number.isFinite(value) || (kind === "integer" && !Number.isInteger(value))) {
        throw new UsageError(`--${name} must be ${kind === "integer" ? "an integer" : "a number"}, got "${text}"`);
      }
      flags[name] = value;
    }
  }
  return flags;
}

/** Runs a script's main and turns a thrown error into a message and exit code 1. */
export function runMain(main: () => Promise<void>): void {
  main().catch((error: unknown) => {
    console.error(error instanceof UsageError ? `error: ${error.message}` : error instanceof Error ? error.stack ?? error.message : error);
    process.exit(1);
  });
}
