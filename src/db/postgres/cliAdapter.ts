// The Prisma CLI's PostgreSQL adapter (prisma.config.ts), never used by the service itself.
// The CLI runs the Wasm schema engine over @prisma/adapter-pg 6.19, which as shipped cannot
// run the migrate commands; each fix below is marked (a)-(e).
import crypto from "node:crypto";
import pg from "pg";
import { PrismaPg } from "@prisma/adapter-pg";
import { reportCatalogTypesAsText } from "./pgInternals";

type PgAdapter = Awaited<ReturnType<PrismaPg["connect"]>>;

/**
 * (a) The engine's catalog queries return `name` and `"char"` columns, which the adapter refuses
 * ("Column type 'name' could not be deserialized"): this client reports them as text.
 */
class CatalogTextClient extends pg.Client {
  constructor(config?: string | pg.ClientConfig) {
    super(config);
    reportCatalogTypesAsText(this);
  }
}

/**
 * (b) The stock shadow pool is `{ ...config, database }`; with a `connectionString` in the config
 * the URL's database wins and the "shadow" replay runs on the MAIN database. Separate fields let
 * `database` really select another database.
 */
function connectionFields(url: string): pg.ClientConfig {
  const parsed = new URL(url);
  return {
    host: parsed.searchParams.get("host") ?? (decodeURIComponent(parsed.hostname) || "localhost"),
    port: parsed.port ? Number(parsed.port) : 5432,
    user: decodeURIComponent(parsed.username) || undefined,
    password: decodeURIComponent(parsed.password) || undefined,
    database: decodeURIComponent(parsed.pathname.slice(1)) || undefined,
  };
}

/**
 * (d) The stock `executeScript` splits the script on every `;` (which breaks `$$` function bodies
 * and applies a migration statement by statement). Sent as one parameterless query, pg uses the
 * simple protocol: the server runs all statements, in one implicit transaction.
 */
function withWholeScripts(adapter: PgAdapter): PgAdapter {
  adapter.executeScript = async (script: string) => {
    await adapter.executeRaw({ sql: script, args: [], argTypes: [] });
  };
  return adapter;
}

async function onServer(fields: pg.ClientConfig, sql: string): Promise<void> {
  const client = new pg.Client(fields);
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

export class PostgresCliAdapterFactory extends PrismaPg {
  private readonly fields: pg.ClientConfig;

  constructor(url: string) {
    const fields = connectionFields(url);
    const schema = new URL(url).searchParams.get("schema") ?? undefined;
    // (e) Without allowExitOnIdle the idle pool keeps every CLI command alive ~10 s after its work.
    super({ ...fields, Client: CatalogTextClient, allowExitOnIdle: true }, { schema });
    this.fields = fields;
  }

  override async connect(): Promise<PgAdapter> {
    return withWholeScripts(await super.connect());
  }

  /**
   * (c) The stock shadow database is dropped while its pool is still connected, which fails.
   * Create a throwaway database here and, once the engine disposes of it, close the pool and
   * `DROP DATABASE ... WITH (FORCE)` (the role needs CREATEDB).
   */
  override async connectToShadowDb(): Promise<PgAdapter> {
    const database = `prisma_shadow_${crypto.randomBytes(8).toString("hex")}`;
    await onServer(this.fields, `CREATE DATABASE "${database}"`);
    const drop = () => onServer(this.fields, `DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
    try {
      const shadow = new PrismaPg({ ...this.fields, database, Client: CatalogTextClient, allowExitOnIdle: true });
      const adapter = withWholeScripts(await shadow.connect());
      const dispose = adapter.dispose.bind(adapter);
      adapter.dispose = async () => {
        try {
          await dispose();
        } finally {
          await drop();
        }
      };
      return adapter;
    } catch (error) {
      await drop();
      throw error;
    }
  }
}

export function postgresCliAdapter(url: string): PostgresCliAdapterFactory {
  return new PostgresCliAdapterFactory(url);
}
