// Building elements. Text always goes in as text nodes, never as markup: plates, owners and
// names come from the register and may hold anything.

type Child = Node | string;

export function h<Tag extends keyof HTMLElementTagNameMap>(
  tag: Tag,
  attributes: Record<string, string> = {},
  ...children: Child[]
): HTMLElementTagNameMap[Tag] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  element.append(...children);
  return element;
}

const svgNamespace = "http://www.w3.org/2000/svg";

/** An SVG element; attributes are presentation attributes or classes, never `style` (CSP). */
export function s<Tag extends keyof SVGElementTagNameMap>(
  tag: Tag,
  attributes: Record<string, string | number> = {},
  ...children: Child[]
): SVGElementTagNameMap[Tag] {
  const element = document.createElementNS(svgNamespace, tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value));
  element.append(...children);
  return element;
}

/** A table with a caption and a header row; every cell is text. */
export function table(caption: string, headers: string[], rows: string[][]): HTMLTableElement {
  return h(
    "table",
    {},
    h("caption", {}, caption),
    h("thead", {}, h("tr", {}, ...headers.map((header) => h("th", { scope: "col" }, header)))),
    h("tbody", {}, ...rows.map((row) => h("tr", {}, ...row.map((cell) => h("td", {}, cell))))),
  );
}

/** A chart's numbers as a table, folded away: for screen readers and for reading exact values. */
export const dataTable = (caption: string, headers: string[], rows: string[][]) =>
  h("details", {}, h("summary", {}, "Show the numbers"), table(caption, headers, rows));
