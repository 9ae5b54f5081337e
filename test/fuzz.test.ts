// Random bad input over HTTP, from a fixed seed: whatever arrives, the answer is JSON in the
// contract's shape with a status below 500, and the stored vehicle stays as it was.
import { startService, type TestService } from "./support/service";
import { client } from "./support/http";

let service: TestService;
beforeAll(async () => {
  service = await startService();
});
afterAll(() => service.close());

/** mulberry32: a small deterministic generator, so a failure can be replayed. */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const strange = [
  "", " ", "0", "-1", "1e309", "NaN", "null", "true", "[]", "{}", "%00", "%ZZ", "../..", "a".repeat(5000),
  "ÄÖÜß", "💥", "'; DROP TABLE vehicles; --", "\u0000", "\u001f", "__proto__", "constructor", "steam:", ":", "steam:1",
];
const values: unknown[] = [null, true, false, 0, 1, -1, 1.5, 2 ** 60, "", "x", "2026-02-30", [], {}, [1, "a"], { a: { b: 1 } }, "a".repeat(40_000)];
const fields = ["plate", "cartyp", "car", "owner", "tuv", "comment", "color", "wanted", "wanted_reason", "synced", "sync_id", "network_id", "__proto__", "id"];

test("300 random requests never answer 5xx, always JSON, and never change a stored vehicle", async () => {
  const next = random(20261122);
  const pick = <T>(list: T[]) => list[Math.floor(next() * list.length)];
  const network = await service.network();
  const api = client(service.url, network.apiKey);
  const kept = (await api.post("/vehicles", { plate: "KEEP-1", owner: "Unverändert" })).body.data;

  for (let i = 0; i < 300; i++) {
    const method = pick(["GET", "POST", "PUT", "PATCH", "DELETE"]);
    const path = pick([
      `/vehicles?${pick(["search", "sort_field", "sortOrder", "per_page", "page", "perPage"])}=${encodeURIComponent(pick(strange))}`,
      `/vehicles/${encodeURIComponent(pick(strange))}`,
      `/dutytime/${encodeURIComponent(pick(strange))}/${pick(["toggle", "stop"])}`,
      `/statistics/${pick(["active-users", "missions/total", "files/last-7-days", "nope"])}`,
      `/${encodeURIComponent(pick(strange))}`,
      "/vehicles",
    ]);
    const body: Record<string, unknown> = {};
    for (let f = Math.floor(next() * 4); f > 0; f--) body[pick(fields)] = pick(values);
    const rawBody = pick([JSON.stringify(body), JSON.stringify(body), "{", "[1,2]", "\"text\"", ""]);
    const contentType = pick(["application/json", "application/json", "text/plain", "application/x-www-form-urlencoded"]);
    const response = await api.request(method, path, method === "GET" || method === "DELETE" ? {} : { rawBody, headers: { "Content-Type": contentType } });

    const context = `${method} ${path} ${rawBody.slice(0, 80)} (${contentType})`;
    expect({ context, status: response.status < 500 }).toEqual({ context, status: true });
    if (response.status !== 204) {
      expect({ context, json: response.headers.get("content-type") }).toEqual({ context, json: expect.stringMatching(/application\/json/) });
      expect({ context, message: typeof response.body?.message }).toEqual({ context, message: response.status < 300 ? "undefined" : "string" });
    }
  }
  expect((await api.get(`/vehicles/${kept.id}`)).body.data).toEqual(kept);
});
