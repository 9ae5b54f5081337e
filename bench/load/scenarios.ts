// What each scenario asks of each server. The service and the floor answer the same REST
// requests; each peer gets its nearest equivalent (bench/peers/README.md), or none: a target
// without an entry is not measured in that scenario.
import { platformaticVehicleSelection, postgraphileVehicleSelection, vehicleSelection } from "../lib/vehicleSelection";
import type { BenchKeys, BenchNetworkKey, BenchNetworkRole } from "../seed/keysFile";
import type { TargetName } from "./targets";

export interface LoadRequest {
  method: "GET" | "POST" | "PATCH" | "PUT";
  /** The path of the i-th request (varied ids spread the load like real clients). */
  path: (i: number) => string;
  body?: (i: number) => unknown;
  /** A GraphQL body is POSTed as it is. */
  graphql?: boolean;
  /**
   * How many requests differ before `path(i)` repeats one (a new search term each request): a
   * server is sent no more of them in a scenario, so that none is a repeat.
   */
  distinct?: number;
  /**
   * What a scenario of distinct requests is warmed up on: requests that run the same code and
   * repeat none of the measured ones. Without it such a scenario is not warmed (its own requests
   * would be repeats when measured).
   */
  warmup?: LoadRequest;
}

export interface Scenario {
  name: string;
  network: BenchNetworkRole;
  requests: Partial<Record<TargetName, LoadRequest>>;
  /**
   * Its requests create vehicles (owned by `benchOwner`), which the bench removes once the
   * scenario is measured: the networks keep their seeded sizes for the scenarios after it and
   * for the next run on the same database.
   */
  createsVehicles?: boolean;
  /**
   * Its requests toggle officers on and off duty; the bench undoes that once the scenario is
   * measured (bench/lib/databases.ts, restoreToggledDutytime), so the officers page and the
   * reports after it, and the next run, read the seeded dutytime.
   */
  togglesDutytime?: boolean;
}

/** The owner of every vehicle the create scenarios write, and only of those. */
export const benchOwner = "Bench Owner";

export interface Fixture {
  keys: BenchKeys;
  /** Vehicle ids of each network, to address single vehicles. */
  vehicleIds: Record<"largest" | "reference" | "small", number[]>;
  /** A word that occurs in some owners' names of the largest network. */
  searchTerm: string;
  /**
   * Where the duty hours reports' ranges end: the seed's "now" (the run's start for keys files
   * without it), down to the hour. Fixed for the run, so every request asks the same report; the
   * data's last shifts are in range however old the seeded database is.
   */
  reportsUntil: Date;
}

const pick = <T>(list: T[], i: number) => list[i % list.length];
const get = (path: (i: number) => string): LoadRequest => ({ method: "GET", path });
/** The i-th of 9,000 four-digit terms, in an order that does not repeat for 9,000 requests. */
export const newTerms = 9000;
const newTerm = (i: number) => String(1000 + ((i * 7919) % newTerms));
/** A GET with a new term in each request's path: never more requests than terms. */
const getNewTerms = (path: (term: string) => string): LoadRequest => ({ ...get((i) => path(newTerm(i))), distinct: newTerms });

function networkScenarios(fixture: Fixture, role: "largest" | "reference", label: string): Scenario[] {
  const network: BenchNetworkKey = fixture.keys[role];
  const ids = fixture.vehicleIds[role];
  const term = encodeURIComponent(fixture.searchTerm);
  const plate = (i: number) => `BN-${(i % 9000) + 1000}`;
  const statistics = ["active-users", "missions/last-7-days", "missions/total", "files/last-7-days", "files/total"];
  const peerList = (extra: string) => `/vehicles?limit=15&offset=0&where.networkId.eq=${network.networkId}${extra}&totalCount=true`;
  /** A PostGraphile query (bench/peers/start-postgraphile.mjs), POSTed to its /graphql. */
  const postgraphile = (query: string, variables: (i: number) => Record<string, number>): LoadRequest => ({
    method: "POST",
    graphql: true,
    path: () => "/graphql",
    body: (i) => ({ query, variables: variables(i) }),
  });
  return [
    {
      name: `list page (${label})`,
      network: role,
      requests: {
        service: get(() => "/vehicles"),
        floor: get(() => "/vehicles"),
        platformatic: get(() => peerList("&orderby.id=asc")),
      },
    },
    {
      name: `search (${label})`,
      network: role,
      requests: {
        service: get(() => `/vehicles?search=${term}`),
        floor: get(() => `/vehicles?search=${term}`),
        platformatic: get(() => peerList(`&where.searchText.like=%25${term}%25&orderby.id=asc`)),
      },
    },
    {
      // Every request a term not asked before (four digits of plates, ~20 matches in 200,000):
      // what a search costs before the service has kept its total (src/db/vehicles/searchTotals.ts).
      name: `search, new term each request (${label})`,
      network: role,
      requests: {
        service: getNewTerms((term) => `/vehicles?search=${term}`),
        floor: getNewTerms((term) => `/vehicles?search=${term}`),
        platformatic: getNewTerms((term) => peerList(`&where.searchText.like=%25${term}%25&orderby.id=asc`)),
      },
    },
    {
      name: `sort by owner (${label})`,
      network: role,
      requests: {
        service: get(() => "/vehicles?sort_field=owner"),
        floor: get(() => "/vehicles?sort_field=owner"),
        platformatic: get(() => peerList("&orderby.owner=asc&orderby.id=asc")),
      },
    },
    {
      name: `get by id (${label})`,
      network: role,
      requests: {
        service: get((i) => `/vehicles/${pick(ids, i)}`),
        floor: get((i) => `/vehicles/${pick(ids, i)}`),
        platformatic: get((i) => `/vehicles/${pick(ids, i)}`),
        // No REST: the row by primary key, scoped to the network as ours is.
        postgraphile: postgraphile(
          `query($v: Int!, $n: Int!) { allVehicles(condition: {rowId: $v, networkId: $n}, first: 1) { nodes { ${postgraphileVehicleSelection} } } }`,
          (i) => ({ v: pick(ids, i), n: network.networkId }),
        ),
      },
    },
    {
      name: `create (${label})`,
      network: role,
      createsVehicles: true,
      requests: {
        service: { method: "POST", path: () => "/vehicles", body: (i) => ({ plate: plate(i), owner: benchOwner, wanted: false }) },
        floor: { method: "POST", path: () => "/vehicles", body: (i) => ({ plate: plate(i), owner: benchOwner, wanted: false }) },
        platformatic: {
          method: "POST",
          path: () => "/vehicles",
          body: (i) => ({ networkId: network.networkId, plate: plate(i), owner: benchOwner, searchText: plate(i).toLowerCase(), wanted: 0, synced: 0 }),
        },
      },
    },
    {
      name: `patch (${label})`,
      network: role,
      requests: {
        service: { method: "PATCH", path: (i) => `/vehicles/${pick(ids, i)}`, body: (i) => ({ color: i % 2 ? "Rot" : "Blau" }) },
        floor: { method: "PATCH", path: (i) => `/vehicles/${pick(ids, i)}`, body: (i) => ({ color: i % 2 ? "Rot" : "Blau" }) },
        platformatic: {
          method: "PUT",
          path: (i) => `/vehicles/${pick(ids, i)}`,
          body: (i) => ({ networkId: network.networkId, plate: plate(i), color: i % 2 ? "Rot" : "Blau", searchText: plate(i).toLowerCase(), wanted: 0, synced: 0 }),
        },
      },
    },
    {
      name: `dutytime toggle (${label})`,
      network: role,
      togglesDutytime: true,
      requests: {
        service: { method: "POST", path: (i) => `/dutytime/${encodeURIComponent(pick(network.officers, i))}/toggle` },
        floor: { method: "POST", path: (i) => `/dutytime/${encodeURIComponent(pick(network.officers, i))}/toggle` },
      },
    },
    ...statistics.map((statistic) => ({
      name: `statistics/${statistic} (${label})`,
      network: role,
      requests: { service: get(() => `/statistics/${statistic}`), floor: get(() => `/statistics/${statistic}`) },
    })),
    {
      name: `GraphQL list page (${label})`,
      network: role,
      requests: {
        service: {
          method: "POST",
          graphql: true,
          path: () => "/graphql",
          body: () => ({ query: `{ vehicles { data { ${vehicleSelection} } meta { currentPage perPage total lastPage from to } } }` }),
        },
        // The floor has no GraphQL: the target compares with its REST list page.
        floor: get(() => "/vehicles"),
        platformatic: {
          method: "POST",
          graphql: true,
          path: () => "/graphql",
          body: () => ({
            query: `query($n: ID) { vehicles(where: {networkId: {eq: $n}}, orderBy: [{field: id, direction: ASC}], limit: 15, offset: 0) { ${platformaticVehicleSelection} } countVehicles(where: {networkId: {eq: $n}}) { total } }`,
            variables: { n: network.networkId },
          }),
        },
        postgraphile: postgraphile(
          `query($n: Int!) { allVehicles(condition: {networkId: $n}, orderBy: [PRIMARY_KEY_ASC], first: 15, offset: 0) { totalCount nodes { ${postgraphileVehicleSelection} } } }`,
          () => ({ n: network.networkId }),
        ),
      },
    },
  ];
}

/**
 * Dashboards' reads, in the largest network only (their cost follows the officers and entries,
 * which grow with the network: no 2k twin, whose growth check would not apply). A dashboard asks
 * the same report again and again (each viewer, each refresh), which the service keeps while the
 * network's duty data is unchanged (src/resolvers/keptReports.ts); a new range each request shows
 * what counting a report costs, in the largest network and in the history10x network: the same
 * officers and recent shifts as the largest, 10x its history, so its latency shows whether a
 * report reads more than its range.
 * Platformatic: none (no equivalent of a report; its list of officers lacks the open entries).
 */
function dashboardScenarios(fixture: Fixture): Scenario[] {
  const until = fixture.reportsUntil.getTime();
  const day = 86_400_000;
  const reportPath = (days: number, groupBy: string, earlierMs: number, end = until) =>
    `/statistics/duty-hours?from=${new Date(end - days * day - earlierMs).toISOString()}&to=${new Date(end).toISOString()}&group_by=${groupBy}&time_zone=UTC`;
  const report = (days: number, groupBy: string) => get(() => reportPath(days, groupBy, 0));
  /**
   * The i-th request's range starts i seconds earlier: never asked before, at most ~28 hours
   * longer. Warmed up on ranges ending a week earlier, which no measured request asks: the
   * scenario before runs the floor's counting code, but the service answers it from kept reports.
   */
  const newRange = (days: number, groupBy: string): LoadRequest => ({
    ...get((i) => reportPath(days, groupBy, i * 1000)),
    distinct: 100_000,
    warmup: get((i) => reportPath(days, groupBy, i * 1000, until - 7 * day)),
  });
  const both = (request: LoadRequest) => ({ service: request, floor: request });
  return [
    { name: "officers page (largest)", network: "largest", requests: both(get(() => "/officers?per_page=100")) },
    { name: "duty hours, month by day (largest)", network: "largest", requests: both(report(30, "DAY")) },
    { name: "duty hours, year by month (largest)", network: "largest", requests: both(report(365, "MONTH")) },
    { name: newRangeScenario("month by day", "largest"), network: "largest", requests: both(newRange(30, "DAY")) },
    { name: newRangeScenario("year by month", "largest"), network: "largest", requests: both(newRange(365, "MONTH")) },
    ...(fixture.keys.history10x
      ? [{ name: newRangeScenario("month by day", "history 10x"), network: "history10x" as const, requests: both(newRange(30, "DAY")) }]
      : []),
  ];
}

/** The name of a report scenario that asks a new range each request. */
export const newRangeScenario = (report: "month by day" | "year by month", network: "largest" | "history 10x") =>
  `duty hours, ${report}, new range each request (${network})`;

export function scenarios(fixture: Fixture): Scenario[] {
  return [...networkScenarios(fixture, "largest", "largest"), ...dashboardScenarios(fixture), ...networkScenarios(fixture, "reference", "2k")];
}

/** The scenarios whose name contains one of the comma-separated parts of `only`; all without it. */
export function scenariosNamed(all: Scenario[], only: string | undefined): Scenario[] {
  const parts = only?.split(",").filter((part) => part !== "");
  return parts && parts.length > 0 ? all.filter((scenario) => parts.some((part) => scenario.name.includes(part))) : all;
}

/** What a target sends in a scenario: the release, an earlier service, sends what the service sends. */
export const requestOf = (scenario: Scenario, target: TargetName): LoadRequest | undefined =>
  scenario.requests[target] ?? (target === "release" ? scenario.requests.service : undefined);
