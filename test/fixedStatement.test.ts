// A fixed statement answers what Prisma.sql answers for the same values, with its text made once.
import { Prisma } from "../src/generated/prisma/client";
import { fixedStatement } from "../src/db/fixedStatement";
import { insertValues, vehicleColumnCount } from "../src/db/vehicleColumns";
import type { StoredVehicle } from "../src/model/vehicleFields";
import { vehiclePageSql } from "../src/db/vehicles/pageSql";
import { networkWhere } from "../src/db/vehicles/where";
import { sortableVehicleFields } from "../src/model/vehicleFields";
import type { VehicleOrder } from "../src/db/store";

const columns = Prisma.raw("id, plate");

describe("fixedStatement", () => {
  const builds = {
    plain: (id: number, networkId: number) => Prisma.sql`SELECT ${columns} FROM vehicles WHERE id = ${id} AND network_id = ${networkId}`,
    // Arguments in another order than the placeholders, one used twice, a value of the text's own.
    reordered: (a: string, b: Date) => Prisma.sql`UPDATE t SET x = ${b}, y = ${a}, z = ${"fixed"} WHERE w = ${a} AND v = ${0}`,
    nested: (networkId: number, needle: string) => {
      const where = Prisma.sql`WHERE network_id = ${networkId}`;
      return Prisma.sql`SELECT 1 FROM vehicles ${where} AND search_text LIKE ${needle} LIMIT ${30}`;
    },
  };

  test.each(Object.keys(builds) as (keyof typeof builds)[])("%s: the same text and values as Prisma.sql", (name) => {
    const build = builds[name] as (...args: unknown[]) => Prisma.Sql;
    const fixed = fixedStatement(build);
    for (const args of [
      [7, 3],
      ["a'b", new Date("2026-11-29T10:00:00.000Z")],
      [42, "%x%"],
    ]) {
      const expected = build(...args);
      const got = fixed(...args);
      expect({ sql: got.sql, text: got.text, values: got.values }).toEqual({ sql: expected.sql, text: expected.text, values: expected.values });
    }
  });

  test("a rest parameter's values, by the arity given", () => {
    const fixed = fixedStatement((first: number, ...rest: unknown[]) => Prisma.sql`INSERT INTO t VALUES (${first}, ${Prisma.join(rest)})`, 4);
    const got = fixed(1, "two", null, false);
    expect(got.sql).toBe("INSERT INTO t VALUES (?, ?,?,?)");
    expect(got.text).toBe("INSERT INTO t VALUES ($1, $2,$3,$4)");
    expect(got.values).toEqual([1, "two", null, false]);
  });

  test("the text is made once, whatever the calls", () => {
    let rendered = 0;
    const fixed = fixedStatement((id: number) => (rendered++, Prisma.sql`SELECT ${id}`));
    const answers = [fixed(1), fixed(2)];
    expect(rendered).toBe(1);
    expect(answers.map(({ sql, values }) => [sql, values])).toEqual([
      ["SELECT ?", [1]],
      ["SELECT ?", [2]],
    ]);
  });

  test("a value computed from an argument is refused when the statement is made", () => {
    expect(() => fixedStatement((id: number) => Prisma.sql`SELECT ${id + 1}`)).toThrow(/compute values before the call/);
    expect(() => fixedStatement((name: string) => Prisma.sql`SELECT ${`%${name}%`}`)).toThrow(/compute values before the call/);
    expect(() => fixedStatement((name: string) => Prisma.sql`SELECT ${String(name)}`)).toThrow(/compute values before the call/);
    expect(() => fixedStatement((data: object) => Prisma.sql`SELECT ${JSON.stringify(data)}`)).toThrow(/compute values before the call/);
  });

  test("an argument the text does not place, or a call with another number of arguments, is refused", () => {
    expect(() => fixedStatement((...values: unknown[]) => Prisma.sql`SELECT ${values[1]}`, 1)).toThrow(/undefined value/);
    expect(() => fixedStatement((id: number, unused: number) => (void unused, Prisma.sql`SELECT ${id}`))).toThrow(/does not place its argument 1/);
    const withDefault = fixedStatement((id: number, limit = 10) => Prisma.sql`SELECT ${id} LIMIT ${limit}`);
    expect(withDefault(1).values).toEqual([1, 10]);
    expect(() => withDefault(1, 20)).toThrow(/takes 1 arguments, not 2/);
  });

  test("a vehicle's insert has a value for every column", () => {
    const values = insertValues({ id: 1, networkId: 2, searchText: "", createdAt: new Date(0), updatedAt: new Date(0) } as unknown as StoredVehicle);
    expect(values).toHaveLength(vehicleColumnCount);
    expect(values.slice(0, 2)).toEqual([1, 2]);
  });
});

describe("a page of every row of the network", () => {
  // Each order the field table allows, both ways, and each extra a page's rows can carry.
  const orders = [null, ...sortableVehicleFields.flatMap((field) => (["asc", "desc"] as const).map((direction) => ({ field: field.request, direction })))];
  const extras = ["none", "matches", "networkState", "matchesAndState"] as const;

  test.each(extras)("with %s: the text the network's WHERE clause makes, for every order", (extra) => {
    for (const order of orders) {
      for (const [networkId, limit, offset] of [
        [7, 15, 0],
        [12, 30, 60],
      ]) {
        const window = { order: order as VehicleOrder | null, limit, offset };
        const fixed = vehiclePageSql(networkId, { where: null, gather: false }, window, extra);
        const made = vehiclePageSql(networkId, { where: networkWhere(networkId), gather: false }, window, extra);
        expect({ order, sql: fixed.sql, text: fixed.text, values: fixed.values }).toEqual({ order, sql: made.sql, text: made.text, values: made.values });
      }
    }
  });
});
