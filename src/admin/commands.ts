// The admin command's commands and options, declared once: the usage, each command's --help, the
// parser's option list and the checks of a command line (unknown or misplaced options, with the
// nearest known name) all derive from these two tables.
import { scopeNames } from "../model/scopes";
import { maxKeyNameCharacters } from "../resolvers/keyInput";

export const optionTable = {
  name: { value: "NAME", description: "the network's, officer's or key's name" },
  "identifier-type": { value: "TYPE", description: "the connector's identifier type, e.g. steam: identifiers are TYPE:VALUE" },
  grace: { value: "SECONDS", description: "how long the replaced key stays valid (default: the network's, set at create)" },
  network: { value: "ID", description: "the network's id (see network list)" },
  key: { value: "KEY_ID", description: "the key's id (see key list)" },
  scopes: { value: "LIST", description: `what the key may do, comma-separated: ${scopeNames.join(", ")}` },
  origin: { value: "URL", description: "a browser origin that may use the key, e.g. https://dash.example.org; repeat it for several" },
  "expires-at": { value: "ISO", description: "when the key stops being valid, an ISO-8601 instant, e.g. 2027-01-01T00:00:00Z" },
  identifier: { value: "TYPE:VALUE", description: "the officer's identifier" },
  "time-zone": { value: "ZONE", description: "IANA time zone of the network's reports, e.g. Europe/Berlin" },
  "auto-stop-after": { value: "HOURS|off", description: "end dutytime entries left open longer than this" },
  to: { value: "FILE", description: "a new file for the copy" },
  "event-retention-days": { value: "DAYS", description: "how many days the network's events are kept (default 365)" },
  type: { value: "LIST", description: "event types, comma-separated; vehicle.* names a family" },
  "subject-type": { value: "TYPE", description: "what the events are about: vehicle, officer, apiKey, ..." },
  "subject-id": { value: "ID", description: "the id of what the events are about (an officer's identifier)" },
  since: { value: "ISO", description: "events that occurred at or after this ISO-8601 instant" },
  until: { value: "ISO", description: "events that occurred before this ISO-8601 instant" },
  after: { value: "SEQUENCE", description: "events after this sequence" },
  before: { value: "SEQUENCE", description: "events before this sequence" },
  "per-page": { value: "N", description: "how many events, newest first (1 to 500, default 50)" },
  webhook: { value: "WEBHOOK_ID", description: "the webhook's id (see webhook list)" },
  url: { value: "URL", description: "where the webhook posts: https; a Discord webhook's URL for --format discord" },
  types: { value: "LIST", description: "event types it posts, comma-separated; vehicle.* names a family (default: every type; Discord: the duty log and wanted flags)" },
  format: { value: "FORMAT", description: "standard (signed JSON, the default) or discord (embeds)" },
  description: { value: "TEXT", description: "what the webhook is for" },
  sequence: { value: "SEQUENCE", description: "the event's sequence (see events list)" },
} as const;

export type OptionName = keyof typeof optionTable;

/** Options given once per value rather than once (`--origin A --origin B`). */
export const repeatableOptions: readonly OptionName[] = ["origin"];

interface CommandSpec {
  summary: string;
  required: OptionName[];
  optional: OptionName[];
  /** What an option means for this command, where it differs from the option table's. */
  meaning?: Partial<Record<OptionName, string>>;
}

export const commandTable = {
  "network create": {
    summary: "create a network and print its first API key",
    required: ["name", "identifier-type"],
    optional: ["grace", "scopes"],
    meaning: {
      name: "the network's name",
      grace: "how long a replaced key stays valid by default (regenerate-key without --grace; default 0)",
      scopes: "what the first key may do, comma-separated: read, dutytime, write, admin (default: read,write,admin)",
    },
  },
  "network regenerate-key": {
    summary: "replace a key by a new one with its name, scopes and origins; the old one ends now or after --grace",
    required: ["network"],
    optional: ["key", "grace"],
    meaning: { key: "the key's id (see key list); may be left out while the network has one unrevoked key" },
  },
  "network list": { summary: "list networks with their keys' prefixes and whether each key is valid", required: [], optional: [] },
  "network set": {
    summary: "change a network's report time zone, auto-stop rule or event retention",
    required: ["network"],
    optional: ["time-zone", "auto-stop-after", "event-retention-days"],
  },
  "key create": {
    summary: "make a key of a network for one purpose and print it (its secret only here)",
    required: ["network", "name", "scopes"],
    optional: ["origin", "expires-at"],
    meaning: { name: `what the key is for, unique among the network's unrevoked keys (1 to ${maxKeyNameCharacters} characters)` },
  },
  "key list": { summary: "list a network's keys, revoked ones too, newest first (never their secrets)", required: ["network"], optional: [] },
  "key revoke": {
    summary: "revoke a key, now or after --grace",
    required: ["network", "key"],
    optional: ["grace"],
    meaning: { grace: "how long the key stays valid (default 0: revoked at once)" },
  },
  "officer add": {
    summary: "add an officer (a removed one comes back with its history)",
    required: ["network", "identifier", "name"],
    optional: [],
    meaning: { name: "the officer's name" },
  },
  "officer rename": { summary: "rename an officer", required: ["network", "identifier", "name"], optional: [], meaning: { name: "the officer's new name" } },
  "officer remove": { summary: "remove an officer; its hours stay in past reports", required: ["network", "identifier"], optional: [] },
  "events list": {
    summary: "list a network's events (the audit log), newest first",
    required: ["network"],
    optional: ["type", "subject-type", "subject-id", "key", "since", "until", "after", "before", "per-page"],
    meaning: { key: "only events made with this key's id" },
  },
  "webhook add": {
    summary: "add a webhook to a network and print its secret (only here)",
    required: ["network", "url"],
    optional: ["types", "format", "description"],
  },
  "webhook list": { summary: "list a network's webhooks with their state (never their secrets)", required: ["network"], optional: [] },
  "webhook remove": { summary: "delete a webhook and its delivery log", required: ["webhook"], optional: [] },
  "webhook rotate-secret": { summary: "give a webhook a new secret and print it; the old one signs too for 24 h", required: ["webhook"], optional: [] },
  "webhook enable": { summary: "enable a webhook again (after a 410 or 5 days of failures), from where it stopped", required: ["webhook"], optional: [] },
  "webhook disable": { summary: "stop a webhook's deliveries until it is enabled", required: ["webhook"], optional: [] },
  "webhook deliveries": {
    summary: "list a webhook's delivery attempts, newest first (kept 7 days)",
    required: ["webhook"],
    optional: ["before", "per-page"],
    meaning: { before: "attempts before this attempt's id", "per-page": "how many attempts (1 to 100, default 50)" },
  },
  "webhook test": { summary: "send a webhook.test event to the webhook alone, now (not recorded), and print the attempt", required: ["webhook"], optional: [] },
  "webhook redeliver": { summary: "send one retained event to the webhook again, now, and print the attempt", required: ["webhook", "sequence"], optional: [] },
  backup: { summary: "copy the embedded database, consistent, while the service runs and writes", required: ["to"], optional: [] },
} satisfies Record<string, CommandSpec>;

export type CommandName = keyof typeof commandTable;

const commandNames = Object.keys(commandTable) as CommandName[];
const spec = (command: CommandName): CommandSpec => commandTable[command];

const synopsis = (command: CommandName) =>
  [
    `admin ${command}`,
    ...spec(command).required.map((option) => `--${option} ${optionTable[option].value}`),
    ...spec(command).optional.map((option) => `[--${option} ${optionTable[option].value}]${repeatableOptions.includes(option) ? "..." : ""}`),
  ].join(" ");

/** Every command, a line each. */
export function usage(): string {
  const width = Math.max(...commandNames.map((command) => command.length));
  return [
    "Usage: admin <command> [options]   (JSON on stdout)",
    "  admin is `npm run --silent admin --` in the repository, `node admin.js` in a release folder (npm run release).",
    "",
    ...commandNames.map((command) => `  ${command.padEnd(width)}  ${spec(command).summary}`),
    "",
    "admin <command> --help lists its options. DATABASE_URL and DATA_DIR name the database, as for the server.",
  ].join("\n");
}

/** One command's synopsis and options, a line each. */
export function commandHelp(command: CommandName): string {
  const options = [...spec(command).required, ...spec(command).optional];
  const width = Math.max(0, ...options.map((option) => option.length + optionTable[option].value.length + 3));
  return [
    `Usage: ${synopsis(command)}`,
    `  ${spec(command).summary}`,
    ...(options.length > 0 ? ["", "Options:"] : []),
    ...options.map((option) => {
      const meaning = spec(command).meaning?.[option] ?? optionTable[option].description;
      return `  ${`--${option} ${optionTable[option].value}`.padEnd(width)}  ${meaning}${spec(command).required.includes(option) ? " (required)" : ""}`;
    }),
  ].join("\n");
}

/** Edit distance: insertions, deletions and substitutions. */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = current;
  }
  return previous[b.length];
}

/** The known name nearest to `word`, if it is near enough to be a typo (or `word` is its start). */
export function nearest(word: string, known: readonly string[]): string | null {
  const ranked = known.map((name) => ({ name, distance: name.startsWith(word) && word.length > 0 ? 0 : distance(word, name) })).sort((a, b) => a.distance - b.distance);
  const best = ranked[0];
  return best && best.distance <= Math.max(2, Math.floor(best.name.length / 3)) ? best.name : null;
}

export const isCommand = (command: string): command is CommandName => command in commandTable;

/** What is wrong with the options of a command line: ones the command does not take, required ones missing. */
export function optionFaults(command: CommandName, given: readonly string[]): string[] {
  const takes: string[] = [...spec(command).required, ...spec(command).optional];
  const missing = spec(command).required.filter((option) => !given.includes(option)).map((option) => `--${option} is required.`);
  return given
    .filter((option) => option !== "help" && !takes.includes(option))
    .map((option) => {
      const suggestion = nearest(option, takes) ?? nearest(option, Object.keys(optionTable));
      const known = option in optionTable ? `--${option} is not an option of ${command}.` : `Unknown option --${option}.`;
      return suggestion && suggestion !== option ? `${known} Did you mean --${suggestion}?` : known;
    })
    .concat(missing);
}

/** What to say of an unknown command. */
export function commandFault(command: string): string {
  const suggestion = nearest(command, commandNames);
  return `Unknown command "${command}".${suggestion ? ` Did you mean "${suggestion}"?` : ""}`;
}
