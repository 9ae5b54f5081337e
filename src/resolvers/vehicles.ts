// Vehicle register of the request's network: list, read, create, update, delete.
import type { Context } from "../context";
import type { Vehicle } from "../generated/prisma/client";
import { planPostgresSearch } from "./postgresSearchPlan";
import { planSearch, readRows } from "./searchPlan";
import {
  guessedSearchTotal,
  knownVehicleTotal,
  selectSearchPageCounting,
  selectSearchPageCountingWithState,
  selectVehicle,
  selectVehiclePage,
  selectVehiclePageWithState,
  type PageRequest,
  type VehicleFilter,
  type VehicleOrder,
} from "./vehicleQueries";
import { notFound } from "../errors";
import { Validator, messages, textFault } from "./validation";
import { searchNeedle, searchTextOf, vehicleChanges, type VehicleChanges, type VehicleInput } from "./vehicleInput";
import { deleteVehicleRow, insertVehicle, updateVehicleAsRead } from "./vehicleWrites";

export const vehicleSortFields = ["plate", "car", "owner", "tuv", "wanted"] as const;
export type VehicleSortField = (typeof vehicleSortFields)[number];
export const sortOrders = ["asc", "desc"] as const;
export type SortOrder = (typeof sortOrders)[number];

export const perPageDefault = 15;
export const perPageMax = 100;

export interface VehicleListArgs {
  search?: string | null;
  sortField?: VehicleSortField | null;
  sortOrder?: SortOrder | null;
  page?: number | null;
  perPage?: number | null;
}

export interface PageMeta {
  currentPage: number;
  perPage: number;
  total: number;
  lastPage: number;
  from: number | null;
  to: number | null;
}

export interface VehiclePage {
  data: Vehicle[];
  meta: PageMeta;
}

/** The column of each sort field; nulls sort last in both directions (ties by id). */
const sortColumn: Record<VehicleSortField, { column: string; nullsLast: boolean }> = {
  plate: { column: "plate", nullsLast: false },
  car: { column: "car", nullsLast: true },
  owner: { column: "owner", nullsLast: true },
  tuv: { column: "general_inspection", nullsLast: true },
  wanted: { column: "wanted", nullsLast: false },
};

function orderOf(args: VehicleListArgs): VehicleOrder | null {
  if (!args.sortField) return null;
  return { ...sortColumn[args.sortField], direction: args.sortOrder ?? "asc" };
}

/** Vehicle ids are positive integers; any other path segment names no vehicle. */
export function parseVehicleId(id: string | number): number | null {
  const text = String(id);
  if (!/^[1-9]\d{0,15}$/.test(text)) return null;
  const value = Number(text);
  return Number.isSafeInteger(value) && value <= 2 ** 53 - 1 ? value : null;
}

function checkListArgs(args: VehicleListArgs) {
  const check = new Validator();
  const page = args.page ?? 1;
  const perPage = args.perPage ?? perPageDefault;
  if (page < 1) check.fail("page", messages.min("page", 1));
  if (perPage < 1 || perPage > perPageMax) check.fail("perPage", messages.between("perPage", 1, perPageMax));
  const searchFault = args.search == null ? null : textFault("search", args.search, 255);
  if (searchFault) check.fail("search", searchFault);
  check.throwIfInvalid();
  return { page, perPage };
}

/** Where a search's page comes from, planned for the database at hand. */
function sourceOf(ctx: Context, filter: VehicleFilter, knownMatches: number | null, networkVehicles: number, page: Omit<PageRequest, "source">) {
  const pageEnd = page.offset + page.limit;
  return ctx.db.provider === "postgresql"
    ? planPostgresSearch(filter.needle, knownMatches, networkVehicles, pageEnd)
    : planSearch(ctx.db.read, filter, knownMatches, networkVehicles, { pageEnd, idOrder: page.order === null });
}

/** A page of the list and the total it belongs to. */
interface PageAndTotal {
  data: Vehicle[];
  total: number;
}

/**
 * The page and its total in one statement where the network's state tells the total: without a
 * search, its kept vehicle count; with one, a total kept at the version the network was last
 * seen in, confirmed by the version the page was read at, or, when none is kept, the matches
 * counted by the page's statement. Null when that does not work out (an empty page carries no
 * state; the network changed since): the caller looks the total up first.
 * PostgreSQL only, where it saves a round trip: SQLite has none to save, and its page with the
 * state's columns on every row cost more than a page and a count (~10% of a list's CPU).
 */
async function pageInOneRead(ctx: Context, filter: VehicleFilter, page: Omit<PageRequest, "source">): Promise<PageAndTotal | null> {
  if (ctx.db.provider !== "postgresql") return null;
  if (filter.needle === null) {
    const { data, state } = await selectVehiclePageWithState(ctx.db.read, filter, { ...page, source: readRows });
    return state ? { data, total: state.vehicles } : null;
  }
  const searched = { ...filter, needle: filter.needle };
  const guess = guessedSearchTotal(ctx.db.read, searched);
  if (!guess) {
    // Not kept (a new term, or the network changed): counted with the page. The plan gathers the
    // matches whatever the network's size while they are counted.
    const source = planPostgresSearch(filter.needle, null, 0, page.offset + page.limit);
    return selectSearchPageCountingWithState(ctx.db.read, searched, { ...page, source });
  }
  // A page past the last match is answered below without reading rows.
  if (page.offset >= guess.total) return null;
  const source = await sourceOf(ctx, filter, guess.total, guess.state.vehicles, page);
  const { data, state } = await selectVehiclePageWithState(ctx.db.read, searched, { ...page, source });
  return state?.version === guess.state.version ? { data, total: guess.total } : null;
}

/** The total looked up first (kept, or counted with the page), then the page. */
async function totalThenPage(ctx: Context, filter: VehicleFilter, page: Omit<PageRequest, "source">): Promise<PageAndTotal> {
  const known = await knownVehicleTotal(ctx.db.read, filter);
  if (known.total === null) {
    const searched = { ...filter, needle: filter.needle! };
    const source = await sourceOf(ctx, filter, null, known.networkVehicles, page);
    return selectSearchPageCounting(ctx.db.read, searched, { ...page, source }, known.version);
  }
  // A page past the last match needs no look at the rows: a search for a rare or absent term
  // would otherwise scan the whole network.
  if (page.offset >= known.total) return { data: [], total: known.total };
  const source = await sourceOf(ctx, filter, known.total, known.networkVehicles, page);
  return { data: await selectVehiclePage(ctx.db.read, filter, { ...page, source }), total: known.total };
}

export async function listVehicles(ctx: Context, args: VehicleListArgs): Promise<VehiclePage> {
  const { page, perPage } = checkListArgs(args);
  const needle = args.search ? searchNeedle(args.search) : "";
  const filter = { networkId: ctx.network.id, needle: needle === "" ? null : needle, trigramIndex: ctx.db.provider === "sqlite" };
  const request = { order: orderOf(args), limit: perPage, offset: (page - 1) * perPage };
  const { data, total } = (await pageInOneRead(ctx, filter, request)) ?? (await totalThenPage(ctx, filter, request));
  const from = data.length > 0 ? (page - 1) * perPage + 1 : null;
  return {
    data,
    meta: {
      currentPage: page,
      perPage,
      total,
      lastPage: Math.max(1, Math.ceil(total / perPage)),
      from,
      to: from === null ? null : from + data.length - 1,
    },
  };
}

export async function findVehicle(ctx: Context, id: string | number): Promise<Vehicle> {
  const vehicleId = parseVehicleId(id);
  const vehicle = vehicleId === null ? null : await selectVehicle(ctx.db.read, ctx.network.id, vehicleId);
  if (!vehicle) throw notFound("Vehicle");
  return vehicle;
}

export async function createVehicle(ctx: Context, input: VehicleInput): Promise<Vehicle> {
  const changes = vehicleChanges(input, { required: true });
  const now = ctx.now();
  const fields = { ...changes, plate: changes.plate! };
  return insertVehicle(ctx.db.write, { ...unsetVehicleFields, ...fields, networkId: ctx.network.id, searchText: searchTextOf(fields), createdAt: now, updatedAt: now });
}

/** What a new vehicle holds in the fields a create leaves out (the columns' defaults). */
const unsetVehicleFields = {
  carType: null,
  car: null,
  owner: null,
  generalInspection: null,
  comment: null,
  color: null,
  wanted: false,
  wantedReason: null,
  synced: false,
  syncId: null,
} satisfies Omit<Required<VehicleChanges>, "plate">;

/**
 * Updates the fields sent. The search text depends on fields not sent, so the write is a
 * compare-and-set on updatedAt (which only ever grows): a concurrent update makes it retry.
 */
export async function updateVehicle(ctx: Context, id: string | number, input: VehicleInput): Promise<Vehicle> {
  const changes = vehicleChanges(input, { required: false });
  for (let attempt = 0; ; attempt++) {
    const current = await findVehicle(ctx, id);
    const next = { ...current, ...changes };
    const updatedAt = new Date(Math.max(ctx.now().getTime(), current.updatedAt.getTime() + 1));
    const searchText = searchTextOf(next);
    if (await updateVehicleAsRead(ctx.db.write, ctx.db.provider, current, changes, searchText, updatedAt)) return { ...next, searchText, updatedAt };
    if (attempt >= 20) throw new Error("vehicle update kept colliding with concurrent updates");
  }
}

export async function deleteVehicle(ctx: Context, id: string | number): Promise<Vehicle> {
  const vehicle = await findVehicle(ctx, id);
  // Gone in between: deleted by a concurrent call.
  if (!(await deleteVehicleRow(ctx.db.write, ctx.network.id, vehicle.id))) throw notFound("Vehicle");
  return vehicle;
}
