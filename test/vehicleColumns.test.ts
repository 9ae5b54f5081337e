// A vehicle read by position (a page's table) and by column name (a row by id) is the same
// vehicle; a table whose statement did not select the vehicle's columns first is refused, never
// read as a vehicle with its values shifted. Reads leave the search text out: no answer shows it.
import { Prisma } from "../src/generated/prisma/client";
import { vehicleColumns, vehicleOfRow, vehicleReadColumns, vehiclesOfTable, type VehicleRow } from "../src/db/vehicleColumns";
import { vehicleFields } from "../src/model/vehicleFields";

/** The column names of vehicleReadColumns, from the SELECT list itself. */
const columns = Prisma.sql`${vehicleReadColumns}`.sql.split(", ");

test("a read selects every column of the table but the search text, in the insert's order", () => {
  const inserted = Prisma.sql`${vehicleColumns}`.sql.split(", ");
  expect(inserted).toContain("search_text");
  expect(columns).toEqual(inserted.filter((column) => column !== "search_text"));
});

/** A distinct value per column, flags alternating. */
function valuesOf(round: number): unknown[] {
  return columns.map((column, place) => {
    if (column === "id" || column === "network_id") return String(round * 100 + place);
    if (column === "created_at" || column === "updated_at") return `2026-11-2${round}T10:0${place % 10}:00.00${place % 10}+00:00`;
    const field = vehicleFields.find((candidate) => candidate.column === column);
    if (field?.kind === "flag") return (place + round) % 2;
    return `${column}-${round}`;
  });
}

test("a table's rows read by position are the vehicles of the same rows read by name, extra columns left out", () => {
  const rows = [valuesOf(1), valuesOf(2)];
  const table = { columns: [...columns, "network_total"], rows: rows.map((values) => [...values, 7]) };
  const byName = rows.map((values) => vehicleOfRow(Object.fromEntries(columns.map((column, i) => [column, values[i]])) as VehicleRow));
  expect(vehiclesOfTable(table)).toEqual(byName);
  expect(byName[0]).toMatchObject({ id: 100, networkId: 101, plate: "plate-1" });
  expect(byName[0]).not.toHaveProperty("searchText");
  expect(vehicleFields.filter((field) => field.kind === "flag").every((field) => typeof byName[0][field.response as "wanted"] === "boolean")).toBe(true);
});

test.each([
  ["a column left out", columns.slice(1)],
  ["two columns swapped", [columns[0], columns[2], columns[1], ...columns.slice(3)]],
  ["another column first", ["matches", ...columns]],
])("a table with %s is refused", (_, tableColumns) => {
  expect(() => vehiclesOfTable({ columns: tableColumns, rows: [valuesOf(1)] })).toThrow(/not a vehicle row/);
});
