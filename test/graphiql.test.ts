// GraphiQL at /graphql in a real browser (test/support/browser.ts): a person opens the page, types
// the network's key into the Headers tab, and the Docs show the schema without a reload
// (src/server/graphql.ts re-fetches it when the headers change); a query then runs with the key.
import type { Browser, Page } from "puppeteer-core";
import { startService, type TestNetwork, type TestService } from "./support/service";
import { describeInBrowser, launchBrowser } from "./support/browser";

describeInBrowser("test/graphiql.test.ts")("GraphiQL in chromium", () => {
  let service: TestService;
  let network: TestNetwork;
  let browser: Browser;

  beforeAll(async () => {
    service = await startService();
    network = await service.network({ name: "Docs PD" });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await service?.close();
  });

  /** The text of the documentation explorer's pane. */
  const docsText = (page: Page) => page.$eval(".graphiql-doc-explorer", (pane) => (pane as HTMLElement).innerText).catch(() => "");

  test("the key typed into the Headers tab: the Docs show the schema without a reload, and a query runs with it", async () => {
    const page = await browser.newPage();
    await page.setViewport({ width: 1280, height: 900 });
    await page.goto(`${service.url}/graphql`, { waitUntil: "networkidle0" });
    await page.click('[aria-label="Show Documentation Explorer"]');
    // Introspected at start with the page's empty key: refused.
    await page.waitForFunction(() => document.querySelector(".graphiql-doc-explorer")?.textContent?.includes("Error fetching schema"), { timeout: 10_000 });

    // As a person does: the Headers tab, the cursor between the empty key's quotes, the key pasted.
    await page.click('[aria-label="Headers"]');
    await page.waitForSelector(".graphiql-editor-tool .monaco-editor.focused", { timeout: 10_000 });
    await page.keyboard.down("Control");
    await page.keyboard.press("End");
    await page.keyboard.up("Control");
    await page.keyboard.press("ArrowLeft");
    await page.keyboard.press("ArrowLeft");
    await page.keyboard.sendCharacter(network.apiKey);
    // GraphiQL keeps the tab's headers as typed (a moment later).
    const stored = await page.waitForFunction(
      (key) => {
        const state = JSON.parse(localStorage.getItem("graphiql:tabState") ?? "null");
        const headers: string | undefined = state?.tabs[state.activeTabIndex].headers;
        return headers?.includes(key) ? headers : false;
      },
      { timeout: 10_000 },
      network.apiKey,
    );
    expect(JSON.parse((await stored.jsonValue()) as string)).toEqual({ "X-API-Key": network.apiKey });

    await page.waitForFunction(() => document.querySelector(".graphiql-doc-explorer")?.textContent?.includes("query: Query"), { timeout: 10_000 });
    expect(await docsText(page)).not.toContain("Error fetching schema");

    const answered = page.waitForResponse((response) => response.url().endsWith("/graphql") && response.request().method() === "POST" && !response.request().postData()?.includes("__schema"));
    await page.click('[aria-label^="Execute query"]');
    const answer = await answered;
    expect(answer.status()).toBe(200);
    expect((await answer.json()).data.network).toEqual({ name: "Docs PD", identifierType: "steam" });
    await page.waitForFunction(() => document.querySelector(".graphiql-response")?.textContent?.replace(/\s/g, "").includes("DocsPD"), { timeout: 10_000 });
    await page.close();
  });
});
