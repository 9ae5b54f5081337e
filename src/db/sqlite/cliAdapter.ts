// The Prisma CLI's SQLite adapter (prisma.config.ts), never used by the service itself.
//
// Commands that need a shadow database (`migrate diff --from-migrations`, `migrate dev`) replay
// every migration.sql into an in-memory database through the shadow adapter's `executeRaw`,
// one call per script. libSQL's `execute` runs only the first statement of a multi-statement
// string and silently ignores the rest, so the shadow schema came out nearly empty and every
// diff reported the whole schema as missing. Scripts are multi-statement and carry no
// parameters, while the engine's own parameterised statements always do: parameterless
// `executeRaw` calls on the shadow database go to `executeScript` (libSQL's executeMultiple).
import { SqliteAdapterFactory } from "./adapter";

type ShadowAdapter = Awaited<ReturnType<SqliteAdapterFactory["connectToShadowDb"]>>;
type Query = Parameters<ShadowAdapter["executeRaw"]>[0];

export class SqliteCliAdapterFactory extends SqliteAdapterFactory {
  override async connectToShadowDb(): Promise<ShadowAdapter> {
    const adapter = await super.connectToShadowDb();
    const executeRaw = adapter.executeRaw.bind(adapter);
    adapter.executeRaw = async (query: Query) => {
      if (query.args.length > 0) return executeRaw(query);
      await adapter.executeScript(query.sql);
      // executeMultiple reports no affected rows; the engine ignores the count of a script.
      return 0;
    };
    return adapter;
  }
}

export function sqliteCliAdapter(url: string): SqliteCliAdapterFactory {
  return new SqliteCliAdapterFactory({ url });
}
