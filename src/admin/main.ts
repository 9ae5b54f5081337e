// The admin command: `npm run --silent admin -- <group> <command> [options]`; JSON on stdout.
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { GraphQLError } from "graphql";
import { readSettings } from "../config/env";
import { openDatabase, type Database } from "../db/client";
import { migrate } from "../db/migrate";
import { addOfficer, removeOfficer, renameOfficer } from "../resolvers/officers";
import { operatorKey, type Context } from "../context";
import type { Officer } from "../generated/prisma/client";
import { AdminError } from "./adminError";
import { parseIsoInstant } from "../model/isoInstant";
import { listEvents } from "../resolvers/events";
import { createNetwork, listNetworks, regenerateNetworkKey, updateNetworkSettings } from "./networks";
import { createNetworkKey, listNetworkKeys, revokeNetworkKey } from "./keys";
import { addWebhook, listNetworkWebhooks, onWebhook } from "./webhooks";
import type { WebhookServices } from "../resolvers/webhooks";
import { silentObserver } from "../webhooks/attempts";
import {
  commandFault,
  commandHelp,
  isCommand,
  nearest,
  optionFaults,
  optionTable,
  repeatableOptions,
  usage,
  type CommandName,
  type OptionName,
} from "./commands";

/** What the parser knows: every option of the tables (as text, some repeatable), and --help. */
const optionSpec = {
  ...(Object.fromEntries(
    Object.keys(optionTable).map((option) => [option, { type: "string", multiple: repeatableOptions.includes(option as OptionName) }]),
  ) as Record<OptionName, { type: "string"; multiple: boolean }>),
  help: { type: "boolean", short: "h" },
} as const;

type Options = Partial<Record<Exclude<OptionName, "origin">, string>> & { origin?: string[]; help?: boolean };

function required(options: Options, name: Exclude<OptionName, "origin">, command: CommandName): string {
  const value = options[name];
  if (typeof value !== "string" || value === "") throw new AdminError(`--${name} is required.\n\n${commandHelp(command)}`, 2);
  return value;
}

function wholeNumber(text: string, flag: string, min: number): number {
  if (!/^\d{1,12}$/.test(text) || Number(text) < min) throw new AdminError(`${flag} must be a whole number of at least ${min}.`, 2);
  return Number(text);
}

/** --scopes read,dutytime: the names, split at commas (spaces allowed around them). */
const scopeList = (text: string) => text.split(",").map((name) => name.trim()).filter((name) => name !== "");

function instant(text: string | undefined, flag: string): Date | null {
  if (text === undefined) return null;
  const parsed = parseIsoInstant(text);
  if (!parsed) throw new AdminError(`${flag} must be an ISO-8601 date and time with a time zone, e.g. 2027-01-01T00:00:00Z.`, 2);
  return parsed;
}

/** What the rules of a request get: the network of --network, as a request of its key would. */
async function networkContext(db: Database, options: Options, now: Date, command: CommandName): Promise<Context> {
  const networkId = wholeNumber(required(options, "network", command), "--network", 1);
  const network = await db.prisma.network.findUnique({ where: { id: networkId } });
  if (!network) throw new AdminError(`No network with id ${networkId}.`);
  return { db, network, key: operatorKey, now: () => now };
}

const officerView = (officer: Officer) => ({
  officer: { ...officer, createdAt: officer.createdAt.toISOString(), removedAt: officer.removedAt?.toISOString() ?? null },
});

async function run(command: CommandName, options: Options, db: Database, webhooks: WebhookServices): Promise<unknown> {
  const now = new Date();
  const grace = options.grace === undefined ? undefined : wholeNumber(options.grace, "--grace", 0);
  const networkId = () => wholeNumber(required(options, "network", command), "--network", 1);
  const keyId = () => wholeNumber(required(options, "key", command), "--key", 1);
  switch (command) {
    case "network create":
      return createNetwork(db,
        {
          name: required(options, "name", command),
          identifierType: required(options, "identifier-type", command),
          graceSeconds: grace ?? 0,
          scopes: options.scopes === undefined ? undefined : scopeList(options.scopes),
        },
        now,
      );
    case "network regenerate-key":
      return regenerateNetworkKey(db, networkId(), grace, now, options.key === undefined ? null : keyId());
    case "key create":
      return createNetworkKey(
        db,
        networkId(),
        {
          name: required(options, "name", command),
          scopes: scopeList(required(options, "scopes", command)),
          origins: options.origin ?? [],
          expiresAt: instant(options["expires-at"], "--expires-at"),
        },
        now,
      );
    case "key list":
      return listNetworkKeys(db, networkId());
    case "key revoke":
      return revokeNetworkKey(db, networkId(), keyId(), grace, now);
    case "network list":
      return listNetworks(db.prisma, now);
    case "network set": {
      const hours = options["auto-stop-after"];
      const days = options["event-retention-days"];
      return updateNetworkSettings(
        db,
        wholeNumber(required(options, "network", command), "--network", 1),
        {
          timeZone: options["time-zone"],
          autoStopAfterHours: hours === undefined ? undefined : hours === "off" ? null : wholeNumber(hours, "--auto-stop-after", 1),
          eventRetentionDays: days === undefined ? undefined : wholeNumber(days, "--event-retention-days", 1),
        },
        now,
      );
    }
    case "officer add":
      return officerView(await addOfficer(await networkContext(db, options, now, command), { identifier: required(options, "identifier", command), name: required(options, "name", command) }));
    case "officer rename":
      return officerView(await renameOfficer(await networkContext(db, options, now, command), required(options, "identifier", command), required(options, "name", command)));
    case "officer remove":
      return officerView(await removeOfficer(await networkContext(db, options, now, command), required(options, "identifier", command)));
    case "events list": {
      const whole = (name: "after" | "before" | "per-page", min: number) => (options[name] === undefined ? undefined : wholeNumber(options[name], `--${name}`, min));
      const page = await listEvents(await networkContext(db, options, now, command), {
        type: options.type,
        subjectType: options["subject-type"],
        subjectId: options["subject-id"],
        keyId: options.key === undefined ? undefined : keyId(),
        from: instant(options.since, "--since"),
        to: instant(options.until, "--until"),
        after: whole("after", 0),
        before: whole("before", 0),
        perPage: whole("per-page", 1),
      });
      return { events: page.data, nextBefore: page.data.length === page.meta.perPage ? page.data[page.data.length - 1].sequence : null };
    }
    case "webhook add":
      return addWebhook(
        db,
        networkId(),
        { url: required(options, "url", command), types: options.types === undefined ? undefined : scopeList(options.types), format: options.format, description: options.description },
        now,
        webhooks,
      );
    case "webhook list":
      return listNetworkWebhooks(db, networkId());
    case "webhook remove":
    case "webhook rotate-secret":
    case "webhook enable":
    case "webhook disable":
    case "webhook deliveries":
    case "webhook test":
    case "webhook redeliver": {
      const whole = (name: "before" | "per-page" | "sequence", min: number) => (options[name] === undefined ? undefined : wholeNumber(options[name], `--${name}`, min));
      const action = command.slice("webhook ".length) as Parameters<typeof onWebhook>[2];
      const extra = { before: whole("before", 1), perPage: whole("per-page", 1), sequence: whole("sequence", 1) };
      return onWebhook(db, wholeNumber(required(options, "webhook", command), "--webhook", 1), action, now, webhooks, extra);
    }
    case "backup": {
      const target = path.resolve(required(options, "to", command));
      await db.backup(target);
      return { backup: { file: target, bytes: fs.statSync(target).size } };
    }
    default:
      throw new AdminError(commandFault(command), 2);
  }
}

/** Whether the result is an attempt (webhook test, redeliver) that was not delivered. */
function undelivered(result: unknown): boolean {
  const attempt = (result as { attempt?: { outcome?: string } } | null)?.attempt;
  return attempt !== undefined && attempt.outcome !== "delivered";
}

/** Domain errors carry per-field messages; show those rather than the summary alone. */
function describe(error: unknown): string {
  if (error instanceof GraphQLError) {
    const fields = error.extensions.errors as Record<string, string[]> | undefined;
    return fields ? Object.values(fields).flat().join("\n") : error.message;
  }
  return error instanceof Error ? error.message : String(error);
}

/** The command line checked: known options only, each one the command takes; or what to say and the exit code. */
function commandLine(argv: string[]): { command: CommandName; options: Options } | { say: string; to: "stdout" | "stderr"; code: number } {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: optionSpec, allowPositionals: true, strict: false, tokens: true });
  } catch (error) {
    return { say: `${(error as Error).message}\n\n${usage()}`, to: "stderr", code: 2 };
  }
  const known = Object.keys(optionSpec);
  for (const token of parsed.tokens) {
    if (token.kind !== "option" || known.includes(token.name)) continue;
    const suggestion = nearest(token.name, known);
    return { say: `Unknown option ${token.rawName}.${suggestion ? ` Did you mean --${suggestion}?` : ""}`, to: "stderr", code: 2 };
  }
  const options = parsed.values as Options;
  const command = parsed.positionals.join(" ");
  if (command === "") return options.help ? { say: usage(), to: "stdout", code: 0 } : { say: usage(), to: "stderr", code: 2 };
  if (!isCommand(command)) return { say: `${commandFault(command)}\n\n${usage()}`, to: "stderr", code: 2 };
  if (options.help) return { say: commandHelp(command), to: "stdout", code: 0 };
  const faults = optionFaults(command, Object.keys(options));
  for (const [option, value] of Object.entries(options)) {
    const values: unknown[] = Array.isArray(value) ? value : [value];
    if (option !== "help" && values.some((each) => typeof each !== "string")) {
      faults.push(`--${option} needs a value: --${option} ${optionTable[option as OptionName].value}.`);
    }
  }
  if (faults.length > 0) return { say: `${faults.join("\n")}\n\n${commandHelp(command)}`, to: "stderr", code: 2 };
  return { command, options };
}

async function main(argv: string[]): Promise<number> {
  const line = commandLine(argv);
  if ("say" in line) {
    (line.to === "stdout" ? process.stdout : process.stderr).write(`${line.say}\n`);
    return line.code;
  }
  const { command, options } = line;
  const settings = readSettings();
  await migrate(settings.databaseUrl);
  const db = await openDatabase(settings.databaseUrl);
  try {
    const result = await run(command, options, db, { settings: settings.webhooks, observer: silentObserver });
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    // A test or redelivery that did not go through: its attempt is printed, and the exit code says so.
    return undelivered(result) ? 1 : 0;
  } catch (error) {
    process.stderr.write(`${describe(error)}\n`);
    if (!(error instanceof AdminError) && !(error instanceof GraphQLError)) return 1;
    return error instanceof AdminError ? error.exitCode : 1;
  } finally {
    await db.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(`${error instanceof Error ? error.message : error}\n`);
    process.exit(1);
  },
);
