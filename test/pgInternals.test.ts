// The guard of src/db/postgres/pgInternals.ts, the one module that relies on pg's internals. It
// plays the server's side of a query (the protocol messages pg's client hands to a query) so
// it runs in plain `npm test`, without PostgreSQL: a pg upgrade that renames or reshapes what
// the module uses fails here. test/preparingPool.test.ts checks real reads on PostgreSQL.
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { ArrayRowsQuery, reportCatalogTypesAsText, runOnClient } from "../src/db/postgres/pgInternals";
import { repoRoot } from "./support/process";

/** Type parsers of our own, so the test sees they are the ones used. */
const typeParsers = {
  getTypeParser: (oid: number) => (oid === 23 ? (value: string) => Number(value) * 10 : (value: string) => `text:${value}`),
};

/** A client that answers every query as PostgreSQL would through pg's connection: one row, then ready. */
const answeringClient = (rows: string[][]) =>
  ({
    query(query: pg.Query & Record<string, (...args: unknown[]) => void>) {
      query.handleRowDescription({ fields: [{ name: "n", dataTypeID: 23 }, { name: "t", dataTypeID: 25 }] });
      for (const fields of rows) query.handleDataRow({ fields });
      query.handleCommandComplete({ text: `SELECT ${rows.length}` }, {});
      query.handleReadyForQuery({});
    },
  }) as unknown as pg.Client;

describe("pg internals (src/db/postgres/pgInternals.ts)", () => {
  test("pg is pinned to one exact version, the one installed", () => {
    const pinned: string = JSON.parse(fs.readFileSync(path.join(repoRoot, "package.json"), "utf8")).dependencies.pg;
    expect(pinned).toMatch(/^\d+\.\d+\.\d+$/);
    expect(JSON.parse(fs.readFileSync(path.join(repoRoot, "node_modules", "pg", "package.json"), "utf8")).version).toBe(pinned);
  });

  test("an array-rows query answers its rows as arrays, parsed by the given parsers, through its callback", async () => {
    const query = new ArrayRowsQuery("SELECT n, t FROM x WHERE a = $1", "kept_1", [5], typeParsers);
    const sent = query as unknown as { text: string; values: unknown[]; name: string };
    expect([sent.text, sent.values, sent.name]).toEqual(["SELECT n, t FROM x WHERE a = $1", [5], "kept_1"]);
    const result = await runOnClient(answeringClient([["4", "a"], ["2", "b"]]), query);
    expect(result.rows).toEqual([[40, "text:a"], [20, "text:b"]]);
    expect(result.fields.map((field) => field.name)).toEqual(["n", "t"]);
    expect(result.rowCount).toBe(2);
  });

  test("an error reaches the caller through the callback", async () => {
    const query = new ArrayRowsQuery("SELECT 1", undefined, [], typeParsers);
    const failing = { query: (q: pg.Query) => (q as unknown as { handleError(error: Error): void }).handleError(new Error("gone")) } as unknown as pg.Client;
    await expect(runOnClient(failing, query)).rejects.toThrow("gone");
  });

  test("a client reports name and \"char\" columns as text, other types as they are", () => {
    const client = new pg.Client();
    const seen: number[][] = [];
    expect(typeof (client as unknown as { _handleRowDescription: unknown })._handleRowDescription).toBe("function");
    (client as unknown as { _handleRowDescription(msg: { fields: { dataTypeID: number }[] }): void })._handleRowDescription = (msg) =>
      seen.push(msg.fields.map((field) => field.dataTypeID));
    reportCatalogTypesAsText(client);
    (client as unknown as { _handleRowDescription(msg: unknown): void })._handleRowDescription({ fields: [{ dataTypeID: 19 }, { dataTypeID: 18 }, { dataTypeID: 23 }] });
    expect(seen).toEqual([[25, 25, 23]]);
  });

  test("pg's client accepts the pipeline setting the pipelined connection uses", () => {
    expect((new pg.Client({ pipeline: true } as pg.ClientConfig) as unknown as { pipeline: boolean }).pipeline).toBe(true);
  });
});
