// A list route's GraphQL page ({data, meta}) as Laravel's {data, links, meta} envelope.
type PageMeta = { currentPage: number; perPage: number; total: number; lastPage: number; from: number | null; to: number | null };

const dataKey = '{"data":';
const metaKey = ',"meta":';

/**
 * SOFA's JSON of a VehiclePage (`{"data":[...],"meta":{...}}`) as the vehicles' JSON text, which
 * is passed on as it is, and the parsed meta: a page is serialized once, not parsed and
 * serialized again. `,"meta":` can only be the key (a quote inside a JSON string is escaped),
 * and the meta object holds numbers only; another shape is parsed whole.
 */
export function splitPageJson(json: string): { dataJson: string; meta: PageMeta } {
  const metaAt = json.lastIndexOf(metaKey);
  if (json.startsWith(dataKey) && metaAt > dataKey.length && json.endsWith("}")) {
    return { dataJson: json.slice(dataKey.length, metaAt), meta: JSON.parse(json.slice(metaAt + metaKey.length, -1)) as PageMeta };
  }
  const page = JSON.parse(json) as { data: unknown[]; meta: PageMeta };
  return { dataJson: JSON.stringify(page.data), meta: page.meta };
}

/**
 * A link to each page: the request's query with `page` set (in its place, or last), its other
 * parameters kept. The query is encoded once per response, not once per link.
 */
export function pageLinks(path: string, params: URLSearchParams): (pageNumber: number) => string {
  const query = new URLSearchParams(params);
  query.set("page", "1");
  // `set` leaves one page parameter, and a parameter's encoded text holds no "&".
  const parts = query.toString().split("&");
  const pageAt = parts.indexOf("page=1");
  return (pageNumber) => {
    parts[pageAt] = `page=${pageNumber}`;
    return `${path}?${parts.join("&")}`;
  };
}

/** Laravel's paginator envelope as JSON; links keep the request's other query parameters. */
export function laravelPageJson(url: URL, pageJson: string): string {
  const { dataJson, meta } = splitPageJson(pageJson);
  const path = `${url.origin}${url.pathname}`;
  const linkTo = pageLinks(path, url.searchParams);
  const { currentPage, lastPage } = meta;
  const links = {
    first: linkTo(1),
    last: linkTo(lastPage),
    prev: currentPage > 1 ? linkTo(Math.min(currentPage - 1, lastPage)) : null,
    next: currentPage < lastPage ? linkTo(currentPage + 1) : null,
  };
  const laravelMeta = {
    current_page: currentPage,
    from: meta.from,
    last_page: lastPage,
    path,
    per_page: meta.perPage,
    to: meta.to,
    total: meta.total,
  };
  return `${dataKey}${dataJson},"links":${JSON.stringify(links)},"meta":${JSON.stringify(laravelMeta)}}`;
}

type CursorPageMeta = { perPage: number; prevCursor: string | null; nextCursor: string | null };

/** Laravel's cursor paginator envelope as JSON; links keep the request's other query parameters. */
export function laravelCursorPageJson(url: URL, pageJson: string): string {
  const { data, meta } = JSON.parse(pageJson) as { data: unknown[]; meta: CursorPageMeta };
  const path = `${url.origin}${url.pathname}`;
  const linkTo = (cursor: string | null) => {
    if (cursor === null) return null;
    const query = new URLSearchParams(url.searchParams);
    query.set("cursor", cursor);
    return `${path}?${query}`;
  };
  const links = { prev: linkTo(meta.prevCursor), next: linkTo(meta.nextCursor) };
  const laravelMeta = { path, per_page: meta.perPage, prev_cursor: meta.prevCursor, next_cursor: meta.nextCursor };
  return JSON.stringify({ data, links, meta: laravelMeta });
}
