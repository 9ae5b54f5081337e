// The admin command: `npm run --silent admin -- <group> <command> [options]`; JSON on stdout.
import { parseArgs } from "node:util";
import { GraphQLError } from "graphql";
import { readSettings } from "../config/env";
import { openDatabase, type Database } from "../db/client";
import { migrate } from "../db/migrate";
import { addOfficer, removeOfficer, renameOfficer } from "../resolvers/officers";
import type { Context } from "../context";
import type { Officer } from "../generated/prisma/client";
import { AdminError } from "./adminError";
import { createNetwork, listNetworks, regenerateNetworkKey, updateNetworkSettings } from "./networks";

const usage = `Usage:
  admin network create --name NAME --identifier-type TYPE [--grace SECONDS]
  admin network regenerate-key --network ID [--grace SECONDS]
  admin network list
  admin network set --network ID [--time-zone ZONE] [--auto-stop-after HOURS|off]
  admin officer add --network ID --identifier TYPE:VALUE --name NAME
  admin officer rename --network ID --identifier TYPE:VALUE --name NAME
  admin officer remove --network ID --identifier TYPE:VALUE
Honours DATABASE_URL and DATA_DIR like the server.`;

const optionSpec = {
  name: { type: "string" },
  "identifier-type": { type: "string" },
  grace: { type: "string" },
  network: { type: "string" },
  identifier: { type: "string" },
  "time-zone": { type: "string" },
  "auto-stop-after": { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

type Options = ReturnType<typeof parseArgs<{ options: typeof optionSpec; allowPositionals: true }>>["values"];

function required(options: Options, name: keyof Options): string {
  const value = options[name];
  if (typeof value !== "string" || value === "") throw new AdminError(`--${name} is required.\n\n${usage}`, 2);
  return value;
}

function wholeNumber(text: string, flag: string, min: number): number {
  if (!/^\d{1,12}$/.test(text) || Number(text) < min) throw new AdminError(`${flag} must be a whole number of at least ${min}.`, 2);
  return Number(text);
}

/** What the rules of a request get: the network of --network, as a request of its key would. */
async function networkContext(db: Database, options: Options, now: Date): Promise<Context> {
  const networkId = wholeNumber(required(options, "network"), "--network", 1);
  const network = await db.prisma.network.findUnique({ where: { id: networkId } });
  if (!network) throw new AdminError(`No network with id ${networkId}.`);
  return { db, network, now: () => now };
}

const officerView = (officer: Officer) => ({
  officer: { ...officer, createdAt: officer.createdAt.toISOString(), removedAt: officer.removedAt?.toISOString() ?? null },
});

async function run(command: string, options: Options, db: Database): Promise<unknown> {
  const now = new Date();
  const grace = options.grace === undefined ? undefined : wholeNumber(options.grace, "--grace", 0);
  switch (command) {
    case "network create":
      return createNetwork(
        db.prisma,
        { name: required(options, "name"), identifierType: required(options, "identifier-type"), graceSeconds: grace ?? 0 },
        now,
      );
    case "network regenerate-key":
      return regenerateNetworkKey(db, wholeNumber(required(options, "network"), "--network", 1), grace, now);
    case "network list":
      return listNetworks(db.prisma, now);
    case "network set": {
      const hours = options["auto-stop-after"];
      return updateNetworkSettings(db.prisma, wholeNumber(required(options, "network"), "--network", 1), {
        timeZone: options["time-zone"],
        autoStopAfterHours: hours === undefined ? undefined : hours === "off" ? null : wholeNumber(hours, "--auto-stop-after", 1),
      });
    }
    case "officer add":
      return officerView(await addOfficer(await networkContext(db, options, now), { identifier: required(options, "identifier"), name: required(options, "name") }));
    case "officer rename":
      return officerView(await renameOfficer(await networkContext(db, options, now), required(options, "identifier"), required(options, "name")));
    case "officer remove":
      return officerView(await removeOfficer(await networkContext(db, options, now), required(options, "identifier")));
    default:
      throw new AdminError(`Unknown command "${command}".\n\n${usage}`, 2);
  }
}

/** Domain errors carry per-field messages; show those rather than the summary alone. */
function describe(error: unknown): string {
  if (error instanceof GraphQLError) {
    const fields = error.extensions.errors as Record<string, string[]> | undefined;
    return fields ? Object.values(fields).flat().join("\n") : error.message;
  }
  return error instanceof Error ? error.message : String(error);
}

async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: optionSpec, allowPositionals: true, strict: true });
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n\n${usage}\n`);
    return 2;
  }
  if (parsed.values.help || parsed.positionals.length === 0) {
    (parsed.values.help ? process.stdout : process.stderr).write(`${usage}\n`);
    return parsed.values.help ? 0 : 2;
  }
  const command = parsed.positionals.join(" ");
  const settings = readSettings();
  await migrate(settings.databaseUrl);
  const db = await openDatabase(settings.databaseUrl);
  try {
    const result = await run(command, parsed.values, db);
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    return 0;
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
