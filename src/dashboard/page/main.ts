// The dashboard page: asks for the network's API key, keeps it in sessionStorage (so a reload in
// the same tab keeps it, closing the tab forgets it), says which key it holds (`viewer`), and
// fills its panels (the webhooks' for a key with admin), each from one query of the public GraphQL API. Each panel loads and fails
// on its own. The service is on the page's origin or where index.html's meta says (./api.ts).
import { ApiError, graphql, liveEventFields, liveEvents, serviceAddress, type Api, type LiveEvent } from "./api";
import { barChart, lineChart, type Series } from "./charts";
import { dataTable, h, table } from "./dom";
import { formatDay, formatDuration, formatInstant, plural } from "./format";

const keyItem = "vrd-dashboard-api-key";
const dayMs = 24 * 60 * 60 * 1000;

function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (!element) throw new Error(`The page has no #${id}.`);
  return element as T;
}

const note = (text: string) => h("p", { class: "note" }, text);

// --- The panels: each turns one query's answer into the nodes it shows. ---

type Panel = (api: Api, now: Date) => Promise<Node[]>;

interface ActiveUsers {
  activeUsers: { count: number; data: { identifier: string; name: string; startedAt: string }[] };
}

const onDuty: Panel = async (api, now) => {
  const { activeUsers } = await graphql<ActiveUsers>(api, "{ activeUsers { count data { identifier name startedAt } } }");
  if (activeUsers.count === 0) return [h("p", {}, "Nobody is on duty.")];
  const rows = activeUsers.data.map((user) => [
    user.name,
    user.identifier,
    formatInstant(user.startedAt),
    formatDuration((now.getTime() - Date.parse(user.startedAt)) / 1000),
  ]);
  return [
    h("p", {}, `${plural(activeUsers.count, "officer", "officers")} on duty.`),
    table("Officers on duty, earliest start first; times in this browser's time zone", ["Name", "Identifier", "On duty since", "For"], rows),
  ];
};

interface DutyHours {
  dutyHours: {
    timeZone: string;
    buckets: { label: string; start: string }[];
    officers: { identifier: string; name: string; removed: boolean; seconds: number[] }[];
  };
}

/**
 * This week's hours per officer. Where the ISO week starts (Monday 00:00 in the network's time
 * zone) is the server's to compute: it knows the zone's rules, and a week with a clock change
 * lasts 167 or 169 hours. So the page asks for weekly buckets from 8 days ago and shows the last
 * one, the current week: the buckets are whole calendar weeks cut to [from, now), and the
 * current week's start lies less than 169 hours back, so `from` never cuts it. 8 days rather
 * than 7 also leaves room for a browser clock some hours off the server's.
 */
const weekHours: Panel = async (api, now) => {
  const query = `query ($from: DateTime!) {
    dutyHours(from: $from, groupBy: WEEK) { timeZone buckets { label start } officers { identifier name removed seconds } }
  }`;
  const { dutyHours: report } = await graphql<DutyHours>(api, query, { from: new Date(now.getTime() - 8 * dayMs).toISOString() });
  const last = report.buckets.length - 1;
  if (last < 0) return [h("p", {}, "No duty time this week yet.")];
  const week = report.buckets[last];
  const heading = note(`Week ${week.label}: from ${formatInstant(week.start, report.timeZone)} (${report.timeZone}) until now.`);
  const officers = report.officers
    .map((officer) => ({ name: officer.removed ? `${officer.name} (removed)` : officer.name, seconds: officer.seconds[last] ?? 0 }))
    .filter((officer) => officer.seconds > 0)
    .sort((a, b) => b.seconds - a.seconds);
  if (officers.length === 0) return [heading, h("p", {}, "No duty time this week yet.")];
  const bars = officers.map((officer) => ({ label: officer.name, value: officer.seconds / 3600, valueText: formatDuration(officer.seconds) }));
  return [
    heading,
    barChart(bars, `Hours on duty in week ${week.label} per officer`, " h"),
    dataTable(`Hours on duty in week ${week.label}`, ["Officer", "On duty"], bars.map((bar) => [bar.label, bar.valueText])),
  ];
};

interface DailyCounts {
  timeZone: string;
  timestampAvailable: boolean;
  days: { date: string; count: number }[] | null;
  unknown: number | null;
}

/**
 * The last 30 calendar days of the network's time zone: 29 whole days and today so far. The
 * server returns the days that intersect [from, now), the first one cut at `from`; asking from
 * 31 days ago and keeping the last 30 leaves that cut day out, clock changes and a browser clock
 * some hours off included.
 */
const perDay: Panel = async (api, now) => {
  const fields = "timeZone timestampAvailable unknown days { date count }";
  const query = `query ($from: DateTime!) { missions: missionsPerDay(from: $from) { ${fields} } files: filesPerDay(from: $from) { ${fields} } }`;
  const answer = await graphql<{ missions: DailyCounts; files: DailyCounts }>(api, query, {
    from: new Date(now.getTime() - 31 * dayMs).toISOString(),
  });
  const kinds = [
    { name: "Mission reports", key: "missions", counts: answer.missions },
    { name: "Files (patient and offender)", key: "files", counts: answer.files },
  ];
  const nodes: Node[] = [];
  const shown = kinds.filter((kind) => kind.counts.timestampAvailable && kind.counts.days);
  for (const kind of kinds) {
    // Never a line of zeros for counts that cannot be made: say so instead.
    if (!shown.includes(kind)) nodes.push(h("p", { class: "warning" }, `${kind.name}: creation times are not available.`));
    else if (kind.counts.unknown) nodes.push(note(`${kind.name}: ${kind.counts.unknown} with an unknown creation time, not in the chart.`));
  }
  if (shown.length === 0) return nodes;

  const dates = shown[0].counts.days!.slice(-30).map((day) => day.date);
  const series: Series[] = shown.map((kind) => {
    const byDate = new Map(kind.counts.days!.map((day) => [day.date, day.count]));
    return { name: kind.name, key: kind.key, values: dates.map((date) => byDate.get(date) ?? null) };
  });
  const labels = dates.map(formatDay);
  const zone = shown[0].counts.timeZone;
  return [
    lineChart(labels, series, `${series.map((each) => each.name).join(" and ")} per day, ${labels[0]} to ${labels[labels.length - 1]}`),
    h("ul", { class: "legend" }, ...series.map((each) => h("li", {}, h("span", { class: `swatch series-${each.key}` }), each.name))),
    note(`Days of the time zone ${zone}; today until now.`),
    dataTable(
      "Per day",
      ["Day", ...series.map((each) => each.name)],
      dates.map((date, index) => [date, ...series.map((each) => String(each.values[index] ?? "–"))]),
    ),
    ...nodes,
  ];
};

interface Vehicles {
  vehicles: { data: { id: number; plate: string; owner: string | null; wantedReason: string | null; wanted: boolean }[]; meta: { total: number } };
}

/** The first 100 vehicles sorted wanted first: the wanted ones, as long as there are at most 100. */
const wanted: Panel = async (api) => {
  const { vehicles } = await graphql<Vehicles>(api, "{ vehicles(sortField: wanted, sortOrder: desc, perPage: 100) { data { id plate owner wantedReason wanted } meta { total } } }");
  const found = vehicles.data.filter((vehicle) => vehicle.wanted);
  const limit = note(
    found.length === 100 && vehicles.meta.total > 100
      ? "Lists at most 100 wanted vehicles; there may be more."
      : "Lists at most 100 wanted vehicles.",
  );
  if (found.length === 0) return [h("p", {}, "No vehicle is flagged wanted."), limit];
  const rows = found.map((vehicle) => [vehicle.plate, vehicle.owner ?? "–", vehicle.wantedReason ?? "–"]);
  return [h("p", {}, `${plural(found.length, "vehicle", "vehicles")} wanted.`), table("Wanted vehicles", ["Plate", "Owner", "Reason"], rows), limit];
};

/** The latest changes, newest first: read once, then kept up to date by the live events. */
const latestShown = 15;
let latest: LiveEvent[] = [];
/** Whether the latest changes were read by this load: only then does the page follow the events after them. */
let latestRead = false;

const actorName = (actor: LiveEvent["actor"]) =>
  actor.kind === "key" ? `key "${actor.keyName}"` : actor.kind === "admin" ? "admin command" : "auto-stop rule";

function latestNodes(): Node[] {
  if (latest.length === 0) return [h("p", {}, "No change recorded yet.")];
  const rows = latest.map((event) => [formatInstant(event.occurredAt), event.type, `${event.subject.type} ${event.subject.id}`, actorName(event.actor)]);
  return [table("The latest changes, newest first; times in this browser's time zone", ["When", "Change", "Of", "By"], rows)];
}

const latestChanges: Panel = async (api) => {
  const { events } = await graphql<{ events: { data: LiveEvent[] } }>(api, `{ events(perPage: ${latestShown}) { data { ${liveEventFields} } } }`);
  latest = events.data;
  latestRead = true;
  return latestNodes();
};

interface Webhooks {
  webhooks: {
    id: number;
    url: string;
    description: string;
    format: string;
    enabled: boolean;
    disabledReason: string | null;
    attempts: { attemptedAt: string; status: number | null; outcome: string; error: string | null }[];
  }[];
}

/** Attempts shown per webhook. */
const attemptsShown = 3;

/**
 * The network's webhooks and their last attempts, for a key with `admin` (the panel is shown
 * only then). A webhook's URL may hold a secret (a Discord webhook's token): only its host is shown.
 */
const webhooks: Panel = async (api) => {
  const query = `{ webhooks { id url description format enabled disabledReason attempts(perPage: ${attemptsShown}) { attemptedAt status outcome error } } }`;
  const { webhooks: list } = await graphql<Webhooks>(api, query);
  if (list.length === 0) return [h("p", {}, "No webhook: the admin command adds them (webhook add).")];
  const rows = list.map((webhook) => [
    `${webhook.id}: ${webhook.description || new URL(webhook.url).host}`,
    webhook.format,
    webhook.enabled ? "enabled" : `disabled${webhook.disabledReason ? `: ${webhook.disabledReason}` : ""}`,
    webhook.attempts.map((attempt) => `${formatInstant(attempt.attemptedAt)} ${attempt.outcome} (${attempt.status ?? attempt.error ?? "no answer"})`).join("; ") || "none yet",
  ]);
  return [table(`Webhooks and their last ${attemptsShown} attempts, newest first`, ["Webhook", "Format", "State", "Last attempts"], rows)];
};

/** The webhooks panel: shown for a key with `admin`, whose scope it needs. */
const webhookPanel: [id: string, reads: string, panel: Panel] = ["webhooks", "the webhooks", webhooks];

/** Each panel with what it reads, as its message names it when the key may not. */
const panels: [id: string, reads: string, panel: Panel][] = [
  ["on-duty", "who is on duty", onDuty],
  ["week-hours", "this week's hours", weekHours],
  ["per-day", "the records per day", perDay],
  ["wanted", "the wanted vehicles", wanted],
  ["latest", "the latest changes", latestChanges],
];

/** The panels an event's type changes (a network's settings change them all). */
function panelsChangedBy(type: string): string[] {
  const family = type.split(".")[0];
  if (family === "dutytime" || family === "officer") return ["on-duty", "week-hours"];
  if (family === "vehicle") return ["wanted"];
  if (family === "missionReport" || family === "patientFile" || family === "offenderFile") return ["per-day"];
  if (family === "network") return ["on-duty", "week-hours", "per-day", "wanted"];
  if (family === "webhook") return ["webhooks"];
  return [];
}

// --- The key the page holds: `viewer`, which any key may ask. ---

interface Viewer {
  viewer: {
    network: { name: string; timeZone: string };
    key: { name: string; prefix: string; scopes: string[] };
  };
}

const viewerQuery = "{ viewer { network { name timeZone } key { name prefix scopes } } }";

/**
 * The message for a part the service refused (FORBIDDEN). Every panel needs `read`; `viewer`
 * needs no scope, so when it is refused too, the key may not be used from this page's origin
 * (its origins do not list it).
 */
async function forbiddenError(reads: string | null, viewer: Promise<unknown>): Promise<ApiError> {
  const viewerRefused = await viewer.then(
    () => false,
    (error) => error instanceof ApiError && error.code === "FORBIDDEN",
  );
  if (reads === null || viewerRefused) {
    return new ApiError(`This key may not be used from this site, ${location.origin}: its origins do not include it (403).`, "FORBIDDEN");
  }
  return new ApiError(`This key may not read ${reads}: it needs the read scope (403).`, "FORBIDDEN");
}

// --- Loading and the key. ---

/** Raised by every load and by forgetting the key: answers of an older load are dropped. */
let generation = 0;

function errorNode(error: unknown): HTMLElement {
  // Anything but an ApiError is a bug of the page: the console gets it too.
  if (!(error instanceof ApiError)) console.error(error);
  const message = error instanceof ApiError ? error.message : `This part failed: ${error instanceof Error ? error.message : String(error)}`;
  return h("p", { class: "error", role: "alert" }, message);
}

/**
 * Fills a part with what `content` makes, or with its error; `refused` says what a FORBIDDEN
 * answer means for it. A live update (`quiet`) keeps the part as it is until the new content is there.
 */
async function fill(body: HTMLElement, load: number, content: () => Promise<Node[]>, refused: () => Promise<ApiError>, quiet = false) {
  body.setAttribute("aria-busy", "true");
  if (!quiet) body.replaceChildren(note("Loading…"));
  let nodes: Node[];
  try {
    nodes = await content();
  } catch (error) {
    nodes = [errorNode(error instanceof ApiError && error.code === "FORBIDDEN" ? await refused() : error)];
  }
  if (load !== generation) return;
  body.replaceChildren(...nodes);
  body.removeAttribute("aria-busy");
}

/** Stops the live events of the last load. */
let stopLive: (() => void) | null = null;

/**
 * Follows the network's events from the latest change shown on: each one is added to the latest
 * changes at once, and the panels it changes are read again (once for a burst of events).
 */
function follow(api: Api, load: number, viewer: Promise<unknown>) {
  const state = byId("live-state");
  const due = new Set<string>();
  let timer: ReturnType<typeof setTimeout> | null = null;
  const reload = () => {
    timer = null;
    for (const [id, reads, panel] of shownPanels()) {
      if (!due.has(id)) continue;
      void fill(byId(id).querySelector<HTMLElement>(".panel-body")!, load, () => panel(api, new Date()), () => forbiddenError(reads, viewer), true);
    }
    due.clear();
  };
  stopLive = liveEvents(
    api,
    latest[0]?.sequence ?? 0,
    (event) => {
      if (load !== generation) return;
      latest = [event, ...latest].slice(0, latestShown);
      byId("latest").querySelector<HTMLElement>(".panel-body")!.replaceChildren(...latestNodes());
      for (const id of panelsChangedBy(event.type)) due.add(id);
      timer ??= setTimeout(reload, 300);
    },
    (live) => {
      if (load !== generation) return;
      state.textContent = live === "live" ? "Live: changes appear as they are made." : live === "reconnecting" ? "Reconnecting…" : live.message;
    },
  );
}

/** The panels this load shows: the webhooks' too when the key has `admin`. */
let withWebhooks = false;
const shownPanels = () => (withWebhooks ? [...panels, webhookPanel] : panels);

function load(api: Api) {
  withWebhooks = false;
  byId("webhooks").hidden = true;
  stopLive?.();
  stopLive = null;
  latest = [];
  latestRead = false;
  const current = ++generation;
  const now = new Date();
  byId("loaded-at").textContent = `Loaded at ${now.toLocaleTimeString()}.`;
  byId("network-name").textContent = "";
  byId("key-info").textContent = "";
  const viewer = graphql<Viewer>(api, viewerQuery);
  void fill(
    byId("network-info"),
    current,
    async () => {
      const { network, key } = (await viewer).viewer;
      if (current !== generation) return [];
      byId("network-name").textContent = `– ${network.name}`;
      byId("key-info").textContent = `Key "${key.name}" (${key.prefix}…), scopes: ${key.scopes.join(", ") || "none"}.`;
      if (key.scopes.includes("admin")) {
        withWebhooks = true;
        byId("webhooks").hidden = false;
        const [id, reads, panel] = webhookPanel;
        void fill(byId(id).querySelector<HTMLElement>(".panel-body")!, current, () => panel(api, now), () => forbiddenError(reads, viewer));
      }
      return [note(`Days and weeks are those of the network's time zone, ${network.timeZone}; other times are this browser's.`)];
    },
    () => forbiddenError(null, viewer),
  );
  for (const [id, reads, panel] of panels) {
    const filled = fill(
      byId(id).querySelector<HTMLElement>(".panel-body")!,
      current,
      () => panel(api, now),
      () => forbiddenError(reads, viewer),
    );
    // Live from the latest change shown on, once it is shown (a key without read follows nothing).
    if (id === "latest") void filled.then(() => current === generation && latestRead && follow(api, current, viewer));
  }
}

/** sessionStorage may be off (privacy settings): then the key lives until the page is left. */
function storedKey(): string | null {
  try {
    return sessionStorage.getItem(keyItem);
  } catch {
    return null;
  }
}

function showDashboard(api: Api) {
  byId("key-form").hidden = true;
  byId("key-stored").hidden = false;
  byId("panels").hidden = false;
  load(api);
}

function forgetKey() {
  generation += 1;
  stopLive?.();
  stopLive = null;
  byId("live-state").textContent = "";
  try {
    sessionStorage.removeItem(keyItem);
  } catch {
    // Nothing was stored.
  }
  for (const body of document.querySelectorAll<HTMLElement>(".panel-body, #network-info")) body.replaceChildren();
  byId("network-name").textContent = "";
  byId("key-info").textContent = "";
  byId("panels").hidden = true;
  byId("key-stored").hidden = true;
  byId("key-form").hidden = false;
  byId("key-input").focus();
}

function start() {
  const service = serviceAddress(document.querySelector('meta[name="vrd-api"]')?.getAttribute("content"), location);
  if (typeof service === "string") {
    // A copy of the page with a wrong address: nothing to send a key to.
    byId("service").replaceChildren(h("span", { class: "error", role: "alert" }, service));
    byId("key-form").hidden = true;
    return;
  }
  byId("service").textContent = `Service: ${service.base}. The key is sent there and nowhere else.`;
  let key = storedKey();
  const input = byId<HTMLInputElement>("key-input");
  byId<HTMLFormElement>("key-form").addEventListener("submit", (event) => {
    event.preventDefault();
    key = input.value.trim();
    input.value = "";
    if (!key) return;
    try {
      sessionStorage.setItem(keyItem, key);
    } catch {
      // Kept in memory only.
    }
    showDashboard({ ...service, key });
  });
  byId("refresh").addEventListener("click", () => key && load({ ...service, key }));
  byId("forget-key").addEventListener("click", () => {
    key = null;
    forgetKey();
  });
  if (key) showDashboard({ ...service, key });
}

start();
