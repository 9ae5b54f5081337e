// The floor's routes: the service's REST behaviour for the benchmarked requests, written
// straight against the store. Rules that are plain functions in src/resolvers are reused.
import type { IncomingMessage } from "node:http";
import { vehicleFields } from "../../src/model/vehicleFields";
import { searchNeedle, searchTextOf, type VehicleChanges } from "../../src/resolvers/vehicleInput";
import { maxPeriods } from "../../src/resolvers/calendar";
import { dutyHoursJson, officerJson, utcPeriods } from "./duty";
import { checkIdentifier, dutyHoursArgs, listArgs, pageArgs, readJsonObject, vehicleBody } from "./input";
import { HttpError, notFound } from "./respond";
import type { ColumnValues, KeyOwner, RecordTable, Store } from "./store";

export interface Request {
  req: IncomingMessage;
  url: URL;
  network: KeyOwner;
  params: string[];
}

export type Handler = (request: Request) => Promise<{ status: number; body: unknown }>;

const ok = (body: unknown, status = 200) => ({ status, body });

/** The service's parseVehicleId (src/resolvers/vehicles.ts, whose module loads Prisma). */
function vehicleId(text: string): number | null {
  if (!/^[1-9]\d{0,15}$/.test(text)) return null;
  const value = Number(text);
  return Number.isSafeInteger(value) ? value : null;
}

/**
 * Changed fields as columns (the field table's, never a client's text), in the table's order as
 * the service writes them (src/db/vehicles/writes.ts), plus the search text of the whole
 * resulting vehicle.
 */
function columnValues(changes: VehicleChanges, whole: VehicleChanges): ColumnValues {
  const values: ColumnValues = {};
  for (const field of vehicleFields) {
    const value = changes[field.response];
    if (value !== undefined) values[field.column] = value;
  }
  values.search_text = searchTextOf(whole);
  return values;
}

/** Laravel's paginator envelope, as src/rest/laravelPage.ts builds it. */
function laravelPage(url: URL, data: unknown[], page: number, perPage: number, total: number) {
  const path = `${url.origin}${url.pathname}`;
  const lastPage = Math.max(1, Math.ceil(total / perPage));
  const linkTo = (pageNumber: number) => {
    const query = new URLSearchParams(url.searchParams);
    query.set("page", String(pageNumber));
    return `${path}?${query}`;
  };
  const from = data.length > 0 ? (page - 1) * perPage + 1 : null;
  return {
    data,
    links: {
      first: linkTo(1),
      last: linkTo(lastPage),
      prev: page > 1 ? linkTo(Math.min(page - 1, lastPage)) : null,
      next: page < lastPage ? linkTo(page + 1) : null,
    },
    meta: {
      current_page: page,
      from,
      last_page: lastPage,
      path,
      per_page: perPage,
      to: from === null ? null : from + data.length - 1,
      total,
    },
  };
}

const sevenDaysMs = 7 * 24 * 60 * 60 * 1000;

export function handlers(store: Store) {
  const find = async (networkId: number, text: string) => {
    const id = vehicleId(text);
    const found = id === null ? null : await store.findVehicle(networkId, id);
    if (!found) throw notFound("Vehicle");
    return found;
  };

  const listVehicles: Handler = async ({ url, network }) => {
    const args = listArgs(url.searchParams);
    const needle = args.search ? searchNeedle(args.search) : "";
    const { total, rows } = await store.listVehicles({
      networkId: network.networkId,
      pattern: needle === "" ? null : `%${needle}%`,
      sortField: args.sortField,
      sortOrder: args.sortOrder,
      limit: args.perPage,
      offset: (args.page - 1) * args.perPage,
    });
    return ok(laravelPage(url, rows, args.page, args.perPage, total));
  };

  const getVehicle: Handler = async ({ network, params }) => ok({ data: (await find(network.networkId, params[0])).vehicle });

  const createVehicle: Handler = async ({ req, network }) => {
    const changes = vehicleBody((await readJsonObject(req)) ?? {}, { create: true });
    const values = columnValues(changes, changes);
    return ok({ data: await store.createVehicle(network.networkId, values, new Date()) }, 201);
  };

  /** Compare-and-set on updated_at, retried when a concurrent update won (as the service does). */
  const patchVehicle: Handler = async ({ req, network, params }) => {
    const changes = vehicleBody((await readJsonObject(req)) ?? {}, { create: false });
    for (let attempt = 0; attempt <= 20; attempt++) {
      const { vehicle, rawUpdatedAt } = await find(network.networkId, params[0]);
      const next = { ...vehicle, ...changes };
      const updatedAt = new Date(Math.max(Date.now(), Date.parse(vehicle.updatedAt) + 1));
      const values = columnValues(changes, next);
      if (await store.updateVehicle(network.networkId, vehicle.id, values, updatedAt, rawUpdatedAt)) {
        return ok({ data: { ...next, updatedAt: updatedAt.toISOString() } });
      }
    }
    throw new Error("vehicle update kept colliding with concurrent updates");
  };

  /** Stop open entries if any, else start one; a concurrent start makes it toggle again. */
  const toggleDutytime: Handler = async ({ req, network, params }) => {
    await readJsonObject(req);
    const identifier = params[0];
    checkIdentifier(network.identifierType, identifier);
    const officerId = await store.officerId(network.networkId, identifier);
    if (officerId === null) throw notFound("Officer");
    for (let attempt = 0; attempt < 20; attempt++) {
      const stoppedEntries = await store.stopOpenEntries(network.networkId, officerId, new Date());
      if (stoppedEntries > 0) return ok({ data: { identifier, onDuty: false, startedAt: null, stoppedEntries } });
      const startedAt = new Date();
      if (await store.startEntry(network.networkId, officerId, startedAt)) {
        return ok({ data: { identifier, onDuty: true, startedAt: startedAt.toISOString(), stoppedEntries: 0 } });
      }
    }
    throw new HttpError(409, { message: "The officer's dutytime is changing too fast; please retry." });
  };

  const activeUsers: Handler = async ({ network }) => {
    const data = await store.activeUsers(network.networkId);
    return ok({ data, count: data.length });
  };

  const count = (tables: RecordTable[], recent: boolean): Handler =>
    async ({ network }) => {
      const since = recent ? new Date(Date.now() - sevenDaysMs) : null;
      return ok({ count: await store.countRecords(tables, network.networkId, since), timestampAvailable: true });
    };

  /** A page of officers and their open entries: the count and the page side by side, then the page's open entries, as the service reads them. */
  const listOfficers: Handler = async ({ url, network }) => {
    const { page, perPage } = pageArgs(url.searchParams);
    const { total, rows } = await store.officerPage(network.networkId, perPage, (page - 1) * perPage);
    const open = await store.openEntries(
      network.networkId,
      rows.map((officer) => officer.id),
    );
    const openOf = new Map(open.map((entry) => [entry.officerId, entry]));
    const now = Date.now();
    return ok(laravelPage(url, rows.map((officer) => officerJson(officer, openOf.get(officer.id), now)), page, perPage, total));
  };

  /** The duty hours of every officer with hours in the range (the seeded networks have no auto-stop rule: the service sends no statement for it). */
  const dutyHours: Handler = async ({ url, network }) => {
    const now = new Date();
    const { from, to, groupBy } = dutyHoursArgs(url.searchParams, now);
    const periods = utcPeriods(from, to, groupBy, maxPeriods);
    const counted = new Date(Math.min(to.getTime(), now.getTime()));
    const entries = counted > from ? await store.entriesMeeting(network.networkId, from, counted) : new Map();
    const officers = entries.size > 0 ? await store.reportOfficers(network.networkId) : [];
    return ok(dutyHoursJson(from, to, groupBy, periods, entries, officers, now));
  };

  return {
    listVehicles,
    listOfficers,
    dutyHours,
    getVehicle,
    createVehicle,
    patchVehicle,
    toggleDutytime,
    activeUsers,
    missionsLastSevenDays: count(["mission_reports"], true),
    missionsTotal: count(["mission_reports"], false),
    filesLastSevenDays: count(["patient_files", "offender_files"], true),
    filesTotal: count(["patient_files", "offender_files"], false),
  };
}
