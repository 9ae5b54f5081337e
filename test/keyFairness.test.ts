// One key's operations hold a bounded number of places and cost at once; the rest wait in line,
// in order, up to a bound; an operation waiting and running too long is answered 503 while its
// place is held until its work really ends. Also over HTTP: a key flooding /graphql with its
// costliest allowed queries is answered 429 beyond its line, and another key is not.
import type { GraphQLError } from "graphql";
import { keyFairness, type FairnessLimits } from "../src/server/keyFairness";
import { defaultLimits, reportCost } from "../src/config/limits";
import { LengthBoundedCache } from "../src/server/lengthBoundedCache";
import { startService, testProvider, type TestService } from "./support/service";
import { client } from "./support/http";

const limits: FairnessLimits = { keyMaxOperationsInFlight: 2, keyMaxCostInFlight: 100, keyMaxQueued: 2, operationTimeoutMs: 1_000 };

/** Work that ends when the test says so. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

type Outcome = string | { refused: string | undefined };
const refused = (error: GraphQLError): Outcome => ({ refused: error.extensions.code as string | undefined });
const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

test("a key runs at most its places at once; the next waits and starts in order when one ends", async () => {
  const fairness = keyFairness(limits);
  const started: string[] = [];
  const gates = [gate(), gate(), gate()];
  const run = (name: string, index: number) =>
    fairness.run(1, 10, async () => {
      started.push(name);
      await gates[index].opened;
      return name;
    }, refused);
  const results = [run("a", 0), run("b", 1), run("c", 2)];
  await tick();
  expect(started).toEqual(["a", "b"]);
  gates[1].open();
  await tick();
  expect(started).toEqual(["a", "b", "c"]);
  gates[0].open();
  gates[2].open();
  expect(await Promise.all(results)).toEqual(["a", "b", "c"]);
});

test("cost in flight is bounded too: a costly operation waits until the key's cost allows it, others' keys do not wait", async () => {
  const fairness = keyFairness(limits);
  const first = gate();
  const started: string[] = [];
  const costly = fairness.run(1, 80, async () => {
    started.push("costly");
    await first.opened;
    return "costly";
  }, refused);
  const second = fairness.run(1, 80, async () => {
    started.push("second");
    return "second";
  }, refused);
  const otherKey = fairness.run(2, 80, async () => {
    started.push("other key");
    return "other key";
  }, refused);
  await tick();
  expect(started).toEqual(["costly", "other key"]);
  first.open();
  expect(await Promise.all([costly, second, otherKey])).toEqual(["costly", "second", "other key"]);
  // An operation costlier than the whole budget still runs, alone.
  expect(await fairness.run(1, 10_000, () => "alone", refused)).toBe("alone");
});

test("beyond the line a key is refused with RATE_LIMITED; the line empties as work ends", async () => {
  const fairness = keyFairness(limits);
  const held = gate();
  const running = [1, 2].map(() => fairness.run(1, 1, () => held.opened.then(() => "ran"), refused));
  const waiting = [1, 2].map(() => fairness.run(1, 1, () => "waited", refused));
  expect(await fairness.run(1, 1, () => "never", refused)).toEqual({ refused: "RATE_LIMITED" });
  held.open();
  expect(await Promise.all([...running, ...waiting])).toEqual(["ran", "ran", "waited", "waited"]);
  expect(await fairness.run(1, 1, () => "again", refused)).toBe("again");
});

test("an operation past its time is answered UNAVAILABLE, and its place is held until its work ends", async () => {
  const fairness = keyFairness({ ...limits, keyMaxOperationsInFlight: 1, operationTimeoutMs: 50 });
  const slow = gate();
  const late = fairness.run(1, 1, () => slow.opened.then(() => "late"), refused);
  expect(await late).toEqual({ refused: "UNAVAILABLE" });
  const started: string[] = [];
  const next = fairness.run(1, 1, () => {
    started.push("next");
    return "next";
  }, refused);
  await tick();
  expect(started).toEqual([]);
  slow.open();
  expect(await next).toBe("next");
});

test("work that throws, rejects or answers at once gives its place back, and the one waiting starts", async () => {
  const fairness = keyFairness({ ...limits, keyMaxOperationsInFlight: 1, keyMaxQueued: 3 });
  const order: string[] = [];
  const first = gate();
  const held = fairness.run(1, 1, () => first.opened.then(() => "held"), refused);
  // All three wait behind `held`, and each starts from the place the one before gave back.
  const throws = fairness.run(1, 1, () => {
    order.push("throws");
    throw new Error("thrown");
  }, refused);
  const rejects = fairness.run(1, 1, () => {
    order.push("rejects");
    return Promise.reject(new Error("rejected"));
  }, refused);
  const plain = fairness.run(1, 1, () => {
    order.push("plain");
    return "plain";
  }, refused);
  await tick();
  expect(order).toEqual([]);
  first.open();
  expect(await held).toBe("held");
  await expect(throws).rejects.toThrow("thrown");
  await expect(rejects).rejects.toThrow("rejected");
  expect(await plain).toBe("plain");
  expect(order).toEqual(["throws", "rejects", "plain"]);
  // A thenable that is not a promise, whose then throws: a rejection, its place given back.
  const throwingThen = () => {
    throw new Error("then threw");
  };
  const badThenable = fairness.run(1, 1, () => ({ then: throwingThen }) as unknown as Promise<string>, refused);
  await expect(badThenable).rejects.toThrow("then threw");

  // Every place came back once, no more: the next starts without waiting for a deadline, and
  // one after it waits while it runs (a place given back twice would let it start).
  const second = gate();
  let afterStarted = false;
  const next = fairness.run(1, 1, () => second.opened.then(() => "next"), refused);
  const after = fairness.run(1, 1, () => {
    afterStarted = true;
    return "after";
  }, refused);
  await tick();
  expect(afterStarted).toBe(false);
  second.open();
  expect(await Promise.all([next, after])).toEqual(["next", "after"]);
});

test("the length-bounded cache drops the least recently used entries past its entries or total key length", () => {
  const cache = new LengthBoundedCache<number>(3, 10);
  cache.set("aaa", 1);
  cache.set("bbb", 2);
  cache.set("ccc", 3);
  expect(cache.get("aaa")).toBe(1);
  cache.set("ddd", 4);
  expect([cache.get("bbb"), cache.get("aaa"), cache.get("ddd")]).toEqual([undefined, 1, 4]);
  cache.set("eeeeeeee", 5);
  expect(cache.size).toBe(1);
  expect(cache.get("eeeeeeee")).toBe(5);
  cache.set("x".repeat(11), 6);
  expect(cache.get("x".repeat(11))).toBeUndefined();
});

// On SQLite an operation's reads are synchronous: it runs to its end before the next request is
// read, so a key never has two in flight there. The wiring is checked where operations overlap.
const overHttp = testProvider === "postgresql" ? describe : describe.skip;

overHttp("over HTTP (PostgreSQL: operations overlap)", () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startService({ limits: { keyMaxOperationsInFlight: 1, keyMaxQueued: 0 } });
  });
  afterAll(() => service.close());

  test("a key sending many operations at once gets 429 beyond its line; another key is answered", async () => {
    const [flooding, other] = [await service.network(), await service.network()];
    const api = client(service.url, flooding.apiKey);
    for (let i = 0; i < 100; i++) await api.post("/vehicles", { plate: `FLOOD-${i}`, owner: "Flo Od" });
    const query = `{ ${Array.from({ length: 3 }, (_, i) => `a${i}: vehicles(perPage: 100) { data { id plate owner } }`).join(" ")} }`;
    // Whether two requests overlap is up to the scheduler: a few rounds make it certain.
    let answers: Awaited<ReturnType<typeof api.graphql>>[] = [];
    for (let round = 0; round < 5 && !answers.some((answer) => answer.status === 429); round++) {
      answers = await Promise.all(Array.from({ length: 20 }, () => api.graphql(query)));
    }
    const statuses = answers.map((answer) => answer.status);
    expect(statuses).toContain(200);
    expect(statuses).toContain(429);
    expect(statuses.every((status) => status === 200 || status === 429)).toBe(true);
    const limited = answers.find((answer) => answer.status === 429)!;
    expect(limited.headers.get("retry-after")).toBe("1");
    expect(limited.body.errors[0].extensions.code).toBe("RATE_LIMITED");
    expect((await client(service.url, other.apiKey).graphql("{ network { name } }")).status).toBe(200);
  });
});

test("with the default limits a key runs two year reports at a time (one's query overlaps the other's counting), and 25 month reports at once", async () => {
  const fairness = keyFairness(defaultLimits);
  const day = 86_400_000;
  const until = Date.parse("2026-06-01T00:00:00Z");
  const costOf = (days: number) => reportCost({ from: new Date(until - days * day), to: new Date(until) });
  const startedWith = async (count: number, days: number) => {
    const held = gate();
    let started = 0;
    const runs = Array.from({ length: count }, () => fairness.run(1, costOf(days), async () => ((started += 1), held.opened), refused));
    await tick();
    const atOnce = started;
    held.open();
    await Promise.all(runs);
    return atOnce;
  };
  expect(await startedWith(3, 365)).toBe(2);
  expect(await startedWith(30, 30)).toBe(25);
});
