// The dashboard page (/dashboard) in a real browser: Debian's chromium driven by puppeteer-core,
// against the real service on a fresh database seeded through the public APIs, with keys made by
// the admin command. The page may reach the service only: every request the browser makes is
// checked, and any other origin fails the test. A passing run takes a screenshot
// (docs/dashboard.png with UPDATE_SCREENSHOT=1).
//
// A copy of the page on a community's own site is served as an operator would (docs/dashboards.md):
// the three files fetched from the service, the service's address set in the page's meta, served
// by a static server of another origin (another port of 127.0.0.1), with keys listing that origin
// or not.
//
// Chromium: test/support/browser.ts.
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import type { Browser, ConsoleMessage, HTTPRequest, Page } from "puppeteer-core";
import { startService, type TestNetwork, type TestService } from "./support/service";
import { client, type Client } from "./support/http";
import { repoRoot, runAdminAsync } from "./support/process";
import { describeInBrowser, launchBrowser } from "./support/browser";
import { startWebhookReceiver } from "./support/webhookReceiver";
import { defaultWebhookSettings } from "../src/config/webhooks";
import { silentObserver } from "../src/webhooks/attempts";

const describeWithChromium = describeInBrowser("test/dashboard.test.ts");

const HOUR = 60 * 60 * 1000;
const officers = {
  max: { value: "110000000000001", name: "Max Mustermann" },
  erika: { value: "110000000000002", name: "Erika Musterfrau" },
  otto: { value: "110000000000003", name: "Otto Normalverbraucher" },
};
const identifier = (officer: { value: string }) => `steam:${officer.value}`;

/** A static web server on its own port of 127.0.0.1 (so its own origin), answering GET of the paths given. */
async function staticSite(files: Record<string, { body: string; contentType: string }>): Promise<{ origin: string; close(): Promise<void> }> {
  const server = http.createServer((request, response) => {
    const file = request.method === "GET" ? files[new URL(request.url ?? "/", "http://site").pathname] : undefined;
    if (!file) return response.writeHead(404, { "Content-Type": "text/plain" }).end("Not found");
    response.writeHead(200, { "Content-Type": file.contentType, "Cache-Control": "no-cache" }).end(file.body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}

/** The page's three files as the service serves them, as an operator copies them to another site. */
async function copyOfThePage(serviceUrl: string) {
  const file = async (path: string) => {
    const response = await fetch(`${serviceUrl}${path}`);
    expect(response.status).toBe(200);
    return { body: await response.text(), contentType: response.headers.get("content-type")! };
  };
  const page = await file("/dashboard");
  // The one edit: where the service is.
  const meta = '<meta name="vrd-api" content="">';
  expect(page.body).toContain(meta);
  const copied = { ...page, body: page.body.replace(meta, `<meta name="vrd-api" content="${serviceUrl}">`) };
  return {
    "/dashboard/": copied,
    "/dashboard/index.html": copied,
    "/dashboard/assets/dashboard.js": await file("/dashboard/assets/dashboard.js"),
    "/dashboard/assets/dashboard.css": await file("/dashboard/assets/dashboard.css"),
  };
}

describeWithChromium("dashboard page in chromium", () => {
  let service: TestService;
  let network: TestNetwork;
  let api: Client;
  let browser: Browser;
  /** Two copies of the page on other sites: one whose origin keys list, one no key lists. */
  let sites: { listed: Awaited<ReturnType<typeof staticSite>>; unlisted: Awaited<ReturnType<typeof staticSite>> };
  /** Keys made with the admin command, as an operator makes them. */
  let keys: Record<"sameSite" | "crossSite" | "dutyOnly", CreatedKey>;

  interface CreatedKey {
    key: { name: string; prefix: string; scopes: string[]; origins: string[] };
    apiKey: string;
  }

  async function createKey(name: string, scopes: string, origins: string[] = []): Promise<CreatedKey> {
    const args = ["key", "create", "--network", String(network.id), "--name", name, "--scopes", scopes, ...origins.flatMap((origin) => ["--origin", origin])];
    const run = await runAdminAsync(args, { DATABASE_URL: service.databaseUrl });
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: "" });
    const created = JSON.parse(run.stdout) as CreatedKey;
    expect(created.key).toMatchObject({ name, scopes: scopes.split(","), origins });
    return created;
  }

  beforeAll(async () => {
    // Webhooks may reach the test's receiver on 127.0.0.1.
    service = await startService({ webhooks: { settings: { ...defaultWebhookSettings, allowedHosts: ["127.0.0.1"] }, observer: silentObserver } });
    network = await service.network({ name: "Los Santos PD" });
    api = client(service.url, network.apiKey);
    for (const officer of Object.values(officers)) {
      const input = { identifier: identifier(officer), name: officer.name };
      const response = await api.graphql("mutation ($input: CreateOfficerInput!) { createOfficer(input: $input) { id } }", { input });
      expect(response.body.errors).toBeUndefined();
    }

    // Duty time at fixed moments before now: Max 3 h closed and on duty for 1 h, Otto 30 min
    // closed, Erika on duty for 30 min.
    const base = Date.now();
    const toggleAt = async (msAgo: number, officer: { value: string }) => {
      service.clock.set(new Date(base - msAgo));
      const response = await api.post(`/dutytime/${identifier(officer)}/toggle`);
      expect(response.status).toBe(200);
    };
    await toggleAt(5 * HOUR, officers.max);
    await toggleAt(4 * HOUR, officers.otto);
    await toggleAt(3.5 * HOUR, officers.otto);
    await toggleAt(2 * HOUR, officers.max);
    await toggleAt(1 * HOUR, officers.max);
    await toggleAt(0.5 * HOUR, officers.erika);
    service.clock.reset();

    const vehicles = [
      { plate: "LS-4711", owner: "Max Mustermann", wanted: true, wanted_reason: "Hit and run" },
      { plate: "BL-0815", owner: "Anna Beispiel", wanted: true, wanted_reason: "Stolen in Paleto Bay" },
      { plate: "XY-1234", owner: "Nobody Wanted", wanted: false },
    ];
    for (const vehicle of vehicles) expect((await api.post("/vehicles", vehicle)).status).toBe(201);

    // Records: 2 mission reports now, 1 three days ago, 1 with an unknown creation time; files: a
    // patient file now, an offender file two days ago.
    const record = async (field: string, input: string, createdAt?: string | null) => {
      const variables = { input: createdAt === undefined ? {} : { createdAt } };
      const response = await api.graphql(`mutation ($input: ${input}!) { ${field}(input: $input) { id } }`, variables);
      expect(response.body.errors).toBeUndefined();
    };
    const daysAgo = (days: number) => new Date(base - days * 24 * HOUR).toISOString();
    await record("createMissionReport", "CreateMissionReportInput");
    await record("createMissionReport", "CreateMissionReportInput");
    await record("createMissionReport", "CreateMissionReportInput", daysAgo(3));
    await record("createMissionReport", "CreateMissionReportInput", null);
    await record("createPatientFile", "CreatePatientFileInput");
    await record("createOffenderFile", "CreateOffenderFileInput", daysAgo(2));

    const copy = await copyOfThePage(service.url);
    // An operator's slip: the address without its scheme.
    const slip = { ...copy["/dashboard/"], body: copy["/dashboard/"].body.replace(`content="${service.url}"`, 'content="records.example.org"') };
    sites = { listed: await staticSite({ ...copy, "/dashboard/misconfigured.html": slip }), unlisted: await staticSite(copy) };
    // The README's dashboard keys: read only, for the service's own page and for another site's;
    // and a connector's key that happens to list the site.
    keys = {
      sameSite: await createKey("dashboard", "read"),
      crossSite: await createKey("dashboard on our site", "read", [sites.listed.origin]),
      dutyOnly: await createKey("connector", "dutytime", [sites.listed.origin]),
    };

    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await sites?.listed.close();
    await sites?.unlisted.close();
    await service?.close();
  });

  /** What a page did: console errors, uncaught errors, its requests, and requests to other origins than those allowed. */
  interface Watched {
    page: Page;
    consoleErrors: string[];
    /** Every request the page made ("POST http://..."), those to other origins included. */
    requests: string[];
    foreignRequests: string[];
    /** Set by a test to answer some GraphQL requests itself: return true when it answered. */
    mock: ((request: HTTPRequest) => Promise<boolean>) | null;
  }

  /** A new tab that may reach these origins only (default: the service's); any other request is aborted and recorded. */
  async function openPage(allowedOrigins: string[] = [service.url]): Promise<Watched> {
    const page = await browser.newPage();
    await page.setViewport({ width: 1280, height: 900 });
    const watched: Watched = { page, consoleErrors: [], requests: [], foreignRequests: [], mock: null };
    page.on("console", (message: ConsoleMessage) => {
      if (message.type() === "error") watched.consoleErrors.push(message.text());
    });
    page.on("pageerror", (error) => watched.consoleErrors.push(`uncaught: ${String(error)}`));
    await page.setRequestInterception(true);
    page.on("request", (request) => {
      void (async () => {
        const url = new URL(request.url());
        watched.requests.push(`${request.method()} ${request.url()}`);
        if (url.protocol !== "data:" && !allowedOrigins.includes(url.origin)) {
          watched.foreignRequests.push(request.url());
          return request.abort("blockedbyclient");
        }
        if (watched.mock && (await watched.mock(request))) return;
        return request.continue();
      })();
    });
    return watched;
  }

  /** Waits until the dashboard shows and every part has finished loading. */
  async function waitForPanels(page: Page) {
    await page.waitForFunction(
      () =>
        !document.getElementById("panels")!.hidden &&
        document.querySelectorAll("[aria-busy]").length === 0 &&
        // A hidden panel (the webhooks', for a key without admin) is not loaded.
        [...document.querySelectorAll(".panel:not([hidden]) .panel-body, #network-info")].every((body) => body.childElementCount > 0),
      { timeout: 20_000 },
    );
  }

  /** Opens the page (the service's own, else the address given), enters the key and waits for every part. */
  async function enterKey(page: Page, key: string, at = `${service.url}/dashboard`) {
    await page.goto(at, { waitUntil: "load" });
    await page.type("#key-input", key);
    await page.click("#key-form button[type=submit]");
    await waitForPanels(page);
  }

  const textOf = (page: Page, selector: string) => page.$eval(selector, (element) => element.textContent ?? "");
  const textsOf = (page: Page, selector: string) => page.$$eval(selector, (elements) => elements.map((element) => element.textContent ?? ""));
  /** The rows of the first table in a panel, as cell texts. */
  const rowsOf = (page: Page, selector: string) =>
    page.$$eval(`${selector} tbody tr`, (rows) => rows.map((row) => [...row.querySelectorAll("td")].map((cell) => cell.textContent ?? "")));

  /** The seeded data in every panel, the network in the heading, and the key the page holds. */
  async function expectTheData(page: Page, key: CreatedKey) {
    // 1. On duty: Max and Erika (earliest first), with start time and duration; Otto is off duty.
    const onDuty = await rowsOf(page, "#on-duty");
    expect(onDuty.map((row) => row[0])).toEqual([officers.max.name, officers.erika.name]);
    expect(onDuty.map((row) => row[1])).toEqual([identifier(officers.max), identifier(officers.erika)]);
    expect(onDuty[0][3]).toMatch(/^(1 h 0\d min|59 min)$/);
    expect(onDuty[1][3]).toMatch(/^(29|30|31) min$/);
    expect(await textOf(page, "#on-duty")).toContain("2 officers on duty.");

    // 4. Wanted vehicles: plate, owner, reason; the unwanted one is not listed; the limit is said.
    const wanted = await rowsOf(page, "#wanted");
    expect(wanted).toEqual(
      expect.arrayContaining([
        ["LS-4711", "Max Mustermann", "Hit and run"],
        ["BL-0815", "Anna Beispiel", "Stolen in Paleto Bay"],
      ]),
    );
    expect(wanted).toHaveLength(2);
    expect(await textOf(page, "#wanted")).toContain("at most 100");

    // The network and its time zone, in the heading; the key by its name, prefix and scopes.
    expect(await textOf(page, "#network-name")).toContain("Los Santos PD");
    expect(await textOf(page, "#network-info")).toMatch(/time zone, \S+;/);
    expect(await textOf(page, "#key-info")).toBe(`Key "${key.key.name}" (${key.key.prefix}…), scopes: ${key.key.scopes.join(", ")}.`);

    // 2. Hours this week: a bar per officer with time this week, labelled with the names, Max first.
    const labels = await textsOf(page, "#week-hours svg.bar-chart text.bar-label");
    // Max leads once the whole seeded day (the last 5 hours) lies in this ISO week (UTC, the
    // network's zone); in a week's first 5 hours part of it belongs to the week before.
    const now = new Date();
    const weekStart = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) - ((now.getUTCDay() + 6) % 7) * 24 * HOUR;
    if (now.getTime() - weekStart > 5 * HOUR) expect(labels[0]).toBe(officers.max.name);
    else expect(labels).toContain(officers.max.name);
    expect(labels).toContain(officers.erika.name);
    expect(await page.$$eval("#week-hours svg.bar-chart rect.bar", (bars) => bars.length)).toBe(labels.length);
    expect(await textOf(page, "#week-hours")).toMatch(/Week \d{4}-W\d{2}/);

    // 3. Records per day: two lines over 30 days, the numbers add up, the unknown one is a note.
    const lines = await page.$$eval("#per-day svg.line-chart path.line", (paths) =>
      paths.map((line) => ({ series: line.getAttribute("data-series"), points: (line.getAttribute("d") ?? "").split(/[ML]/).filter(Boolean).length })),
    );
    expect(lines).toEqual([
      { series: "Mission reports", points: 30 },
      { series: "Files (patient and offender)", points: 30 },
    ]);
    expect((await textsOf(page, "#per-day svg.line-chart text.x-label")).length).toBeGreaterThanOrEqual(5);
    const days = await rowsOf(page, "#per-day");
    expect(days).toHaveLength(30);
    const sum = (column: number) => days.reduce((total, row) => total + Number(row[column]), 0);
    expect([sum(1), sum(2)]).toEqual([3, 2]);
    expect(await textOf(page, "#per-day")).toContain("Mission reports: 1 with an unknown creation time");
  }

  test("shows who is on duty, this week's hours, the records per day and the wanted vehicles", async () => {
    const { page, consoleErrors, foreignRequests } = await openPage();
    await enterKey(page, keys.sameSite.apiKey);

    // Loaded as three files, no inline script, under a strict Content-Security-Policy.
    expect(await page.$$eval("script", (scripts) => scripts.map((script) => script.getAttribute("src")))).toEqual(["/dashboard/assets/dashboard.js"]);
    expect(await textOf(page, "#service")).toBe(`Service: ${service.url}. The key is sent there and nowhere else.`);
    await expectTheData(page, keys.sameSite);

    expect(consoleErrors).toEqual([]);
    expect(foreignRequests).toEqual([]);
    // The README's screenshot is rewritten only when asked (UPDATE_SCREENSHOT=1), so a test run
    // leaves the working tree as it was; otherwise it goes to a temporary file.
    const screenshot = (process.env.UPDATE_SCREENSHOT === "1" ? path.join(repoRoot, "docs", "dashboard.png") : path.join(os.tmpdir(), `vrd-dashboard-${process.pid}.png`)) as `${string}.png`;
    await page.screenshot({ path: screenshot });
    expect(fs.readFileSync(screenshot).subarray(1, 4).toString()).toBe("PNG");
    await page.close();
  });

  test("live: a toggle made elsewhere appears without a reload, in who is on duty and in the latest changes with its key", async () => {
    const { page, consoleErrors } = await openPage();
    await enterKey(page, keys.sameSite.apiKey);
    await page.waitForFunction(() => document.getElementById("live-state")!.textContent === "Live: changes appear as they are made.", { timeout: 10_000 });
    const loadedAt = await textOf(page, "#loaded-at");
    const connector = client(service.url, network.apiKey);
    expect((await connector.post(`/dutytime/${identifier(officers.otto)}/toggle`)).status).toBe(200);
    await page.waitForFunction(() => document.getElementById("on-duty")!.textContent!.includes("3 officers on duty."), { timeout: 10_000 });
    expect((await rowsOf(page, "#on-duty")).map((row) => row[0])).toContain(officers.otto.name);
    const [newest] = await rowsOf(page, "#latest");
    expect(newest.slice(1)).toEqual(["dutytime.started", `officer ${identifier(officers.otto)}`, 'key "first key"']);
    // Back off duty, as the other tests expect; the page follows again.
    expect((await connector.post(`/dutytime/${identifier(officers.otto)}/toggle`)).status).toBe(200);
    await page.waitForFunction(() => document.getElementById("on-duty")!.textContent!.includes("2 officers on duty."), { timeout: 10_000 });
    expect((await rowsOf(page, "#latest"))[0][1]).toBe("dutytime.stopped");
    // No reload: the page was loaded once.
    expect(await textOf(page, "#loaded-at")).toBe(loadedAt);
    expect(consoleErrors).toEqual([]);
    await page.close();
  });

  test("a key with admin also sees the webhooks and their last attempts (a URL by its host only); a read key does not", async () => {
    const receiver = await startWebhookReceiver();
    try {
      const admin = client(service.url, network.apiKey);
      const made = await admin.graphql(`mutation ($url: String!) { createWebhook(input: { url: $url, format: discord, description: "Duty log" }) { webhook { id } } }`, {
        url: `${receiver.url}/api/webhooks/42/secret-token`,
      });
      expect(made.body.errors).toBeUndefined();
      const id = made.body.data.createWebhook.webhook.id;
      const tested = await admin.graphql(`mutation ($id: ID!) { testWebhook(id: $id) { outcome } }`, { id });
      expect(tested.body.data.testWebhook.outcome).toBe("delivered");

      const { page, consoleErrors } = await openPage();
      await enterKey(page, network.apiKey);
      await page.waitForFunction(() => document.querySelector("#webhooks table") !== null, { timeout: 10_000 });
      const [row] = await rowsOf(page, "#webhooks");
      expect(row.slice(0, 3)).toEqual([`${id}: Duty log`, "discord", "enabled"]);
      expect(row[3]).toMatch(/delivered \(200\)$/);
      expect(await textOf(page, "#webhooks")).not.toContain("secret-token");
      expect(consoleErrors).toEqual([]);

      await page.close();
      const reader = await openPage();
      await enterKey(reader.page, keys.sameSite.apiKey);
      expect(await reader.page.$eval("#webhooks", (panel) => (panel as HTMLElement).hidden)).toBe(true);
      await reader.page.close();
      expect((await admin.graphql(`mutation ($id: ID!) { deleteWebhook(id: $id) { id } }`, { id })).body.errors).toBeUndefined();
    } finally {
      await receiver.close();
    }
  });

  test("keeps the key over a reload and forgets it on request", async () => {
    const { page, consoleErrors } = await openPage();
    await enterKey(page, network.apiKey);
    await page.reload({ waitUntil: "load" });
    await waitForPanels(page);
    expect(await rowsOf(page, "#on-duty")).toHaveLength(2);

    await page.click("#forget-key");
    expect(await page.$eval("#key-form", (form) => (form as HTMLElement).hidden)).toBe(false);
    expect(await page.$eval("#panels", (panels) => (panels as HTMLElement).hidden)).toBe(true);
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    await page.reload({ waitUntil: "load" });
    expect(await page.$eval("#panels", (panels) => (panels as HTMLElement).hidden)).toBe(true);
    expect(consoleErrors).toEqual([]);
    await page.close();
  });

  test("a wrong key shows why in every part", async () => {
    const { page, consoleErrors } = await openPage();
    await enterKey(page, "vrd_not-a-real-key");
    const errors = await textsOf(page, ".panel-body .error, #network-info .error");
    expect(errors).toHaveLength(6);
    for (const error of errors) expect(error).toContain("The API key was not accepted (401)");
    // The browser logs each refused request; nothing else may be logged.
    expect(consoleErrors.filter((message) => !message.includes("status of 401"))).toEqual([]);
    await page.close();
  });

  test("a failing part shows its own message: no network, 429, unknown field, creation times unavailable", async () => {
    const watched = await openPage();
    const reply = (request: HTTPRequest, status: number, body: unknown, headers: Record<string, string> = {}) =>
      request.respond({ status, contentType: "application/json", headers, body: JSON.stringify(body) }).then(() => true);
    const unavailable = { timeZone: "Europe/Berlin", timestampAvailable: false, days: null, unknown: null };
    watched.mock = async (request) => {
      const body = request.postData() ?? "";
      if (body.includes("activeUsers")) return request.abort("failed").then(() => true);
      if (body.includes("vehicles")) {
        return reply(request, 429, { errors: [{ message: "Too many requests.", extensions: { code: "RATE_LIMITED" } }] }, { "Retry-After": "30" });
      }
      if (body.includes("missionsPerDay")) return reply(request, 200, { data: { missions: unavailable, files: unavailable } });
      // As a server without the field answers (a page newer than the service).
      if (body.includes("dutyHours")) {
        const message = 'Cannot query field "dutyHours" on type "Query".';
        return reply(request, 200, { errors: [{ message, extensions: { code: "GRAPHQL_VALIDATION_FAILED" } }] });
      }
      return false;
    };
    const { page, consoleErrors } = watched;
    await enterKey(page, network.apiKey);

    expect(await textOf(page, "#on-duty .error")).toContain("cannot be reached (network error)");
    expect(await textOf(page, "#wanted .error")).toBe("Too many requests with this key (429). Try again in 30 s.");
    expect(await textOf(page, "#week-hours .error")).toBe('This service does not offer this part yet: Cannot query field "dutyHours" on type "Query".');
    // No line at all, never zeros: a message for each kind of record.
    expect(await page.$$("#per-day svg")).toHaveLength(0);
    expect(await textsOf(page, "#per-day .warning")).toEqual([
      "Mission reports: creation times are not available.",
      "Files (patient and offender): creation times are not available.",
    ]);
    expect(consoleErrors.filter((message) => !/status of 429|net::ERR_FAILED/.test(message))).toEqual([]);
    await page.close();
  });

  describe("a copy of the page on another site (another origin), the service's address in its meta", () => {
    /** Every part shows an error and no data: nothing in the panels, no network, no key. */
    async function expectNoData(page: Page, message: string | RegExp) {
      const errors = await textsOf(page, ".panel-body .error, #network-info .error");
      expect(errors).toHaveLength(6);
      for (const error of errors) expect(error).toMatch(message);
      expect(await page.$$("#panels table, #panels svg")).toHaveLength(0);
      expect(await textOf(page, "#network-name")).toBe("");
      expect(await textOf(page, "#key-info")).toBe("");
    }

    test("a read key listing the site's origin: the same data, and the page's requests go to the site and the service only", async () => {
      const site = sites.listed.origin;
      const { page, consoleErrors, requests, foreignRequests } = await openPage([site, service.url]);
      await enterKey(page, keys.crossSite.apiKey, `${site}/dashboard/`);
      expect(await textOf(page, "#service")).toBe(`Service: ${service.url}. The key is sent there and nowhere else.`);
      await expectTheData(page, keys.crossSite);

      // The files from the site; to the service, the preflights and the operations (viewer, 5
      // panels and the live events' subscription) of its /graphql, nothing else.
      expect(requests.filter((request) => request.startsWith("GET ")).sort()).toEqual(
        [`${site}/dashboard/`, `${site}/dashboard/assets/dashboard.css`, `${site}/dashboard/assets/dashboard.js`].map((url) => `GET ${url}`),
      );
      const toService = requests.filter((request) => !request.startsWith("GET "));
      await page.waitForFunction(() => document.getElementById("live-state")!.textContent!.startsWith("Live"), { timeout: 10_000 });
      expect(toService.filter((request) => request.startsWith("POST "))).toEqual(Array(7).fill(`POST ${service.url}/graphql`));
      expect(new Set(toService.filter((request) => !request.startsWith("POST ")))).toEqual(new Set([`OPTIONS ${service.url}/graphql`]));
      expect(consoleErrors).toEqual([]);
      expect(foreignRequests).toEqual([]);
      await page.close();
    });

    test("a read key without the site's origin, or a site no key lists: the browser refuses the answers, the page shows why and no data", async () => {
      const message = (site: string) => new RegExp(`^The service at ${service.url} did not answer this page .*lists this site, ${site}, among its origins`);

      // The site is listed by other keys, so the preflight passes; this key's answers carry no
      // CORS headers, so the browser does not hand them to the page.
      const listed = await openPage([sites.listed.origin, service.url]);
      await enterKey(listed.page, keys.sameSite.apiKey, `${sites.listed.origin}/dashboard/`);
      await expectNoData(listed.page, message(sites.listed.origin));
      expect(listed.consoleErrors.filter((line) => !/blocked by CORS policy: No 'Access-Control-Allow-Origin' header|net::ERR_FAILED/.test(line))).toEqual([]);
      expect(listed.consoleErrors.join("\n")).toContain("blocked by CORS policy");
      expect(listed.foreignRequests).toEqual([]);
      await listed.page.close();

      // No key lists the site: the preflight gets no CORS headers, the operation is never sent.
      const unlisted = await openPage([sites.unlisted.origin, service.url]);
      await enterKey(unlisted.page, keys.crossSite.apiKey, `${sites.unlisted.origin}/dashboard/`);
      await expectNoData(unlisted.page, message(sites.unlisted.origin));
      expect(unlisted.consoleErrors.filter((line) => !/blocked by CORS policy: Response to preflight request|net::ERR_FAILED/.test(line))).toEqual([]);
      expect(unlisted.consoleErrors.join("\n")).toContain("Response to preflight request");
      expect(unlisted.requests.filter((request) => request.startsWith("POST "))).toEqual([]);
      expect(unlisted.foreignRequests).toEqual([]);
      await unlisted.page.close();
    });

    test("a key listing the site but with the dutytime scope only: the key is named, each panel says it needs the read scope", async () => {
      const { page, consoleErrors, foreignRequests } = await openPage([sites.listed.origin, service.url]);
      await enterKey(page, keys.dutyOnly.apiKey, `${sites.listed.origin}/dashboard/`);
      expect(await textOf(page, "#key-info")).toBe(`Key "connector" (${keys.dutyOnly.key.prefix}…), scopes: dutytime.`);
      expect(await textOf(page, "#network-name")).toContain("Los Santos PD");
      expect(await textsOf(page, ".panel-body .error")).toEqual([
        "This key may not read who is on duty: it needs the read scope (403).",
        "This key may not read this week's hours: it needs the read scope (403).",
        "This key may not read the records per day: it needs the read scope (403).",
        "This key may not read the wanted vehicles: it needs the read scope (403).",
        "This key may not read the latest changes: it needs the read scope (403).",
      ]);
      expect(await page.$$("#panels table, #panels svg")).toHaveLength(0);
      expect(consoleErrors.filter((line) => !line.includes("status of 403"))).toEqual([]);
      expect(foreignRequests).toEqual([]);
      await page.close();
    });
    test("a copy whose meta holds no http(s) address says so, and asks for no key", async () => {
      const { page, consoleErrors, requests } = await openPage([sites.listed.origin, service.url]);
      await page.goto(`${sites.listed.origin}/dashboard/misconfigured.html`, { waitUntil: "load" });
      expect(await textOf(page, "#service .error")).toBe('The page\'s service address (<meta name="vrd-api">) is not an http(s) address without query: "records.example.org".');
      expect(await page.$eval("#key-form", (form) => (form as HTMLElement).hidden)).toBe(true);
      expect(requests.filter((request) => !request.startsWith(`GET ${sites.listed.origin}/`))).toEqual([]);
      expect(consoleErrors).toEqual([]);
      await page.close();
    });
  });

  test("a key whose origins do not list the service's own: refused on the service's page, which says why", async () => {
    const { page, consoleErrors } = await openPage();
    await enterKey(page, keys.crossSite.apiKey);
    const errors = await textsOf(page, ".panel-body .error, #network-info .error");
    expect(errors).toEqual(Array(6).fill(`This key may not be used from this site, ${service.url}: its origins do not include it (403).`));
    expect(await textOf(page, "#key-info")).toBe("");
    expect(consoleErrors.filter((line) => !line.includes("status of 403"))).toEqual([]);
    await page.close();
  });

  test("serves GET and HEAD without a key; other methods 405, unknown assets 404, as JSON", async () => {
    const page = await fetch(`${service.url}/dashboard`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(page.headers.get("content-security-policy")).toContain("script-src 'self'");
    expect(await page.text()).toContain('<script src="/dashboard/assets/dashboard.js" defer></script>');

    const script = await fetch(`${service.url}/dashboard/assets/dashboard.js`);
    expect([script.status, script.headers.get("content-type")]).toEqual([200, "text/javascript; charset=utf-8"]);
    const style = await fetch(`${service.url}/dashboard/assets/dashboard.css`, { method: "HEAD" });
    expect([style.status, style.headers.get("content-type"), await style.text()]).toEqual([200, "text/css; charset=utf-8", ""]);

    const post = await fetch(`${service.url}/dashboard`, { method: "POST" });
    expect([post.status, post.headers.get("allow"), await post.json()]).toEqual([
      405,
      "GET, HEAD",
      { message: "The POST method is not supported for this route. Supported: GET, HEAD." },
    ]);
    const missing = await fetch(`${service.url}/dashboard/assets/main.ts`);
    expect([missing.status, await missing.json()]).toEqual([404, { message: "Not Found." }]);
  });
});
