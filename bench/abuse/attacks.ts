// The attacks of the issue, one row of the results each. An attack runs while its signal is not
// aborted (the victim's measured time), and returns what the attacker got back plus notes for the
// table. Attacks "without key" send no X-API-Key at all; keyed ones use the attacker network's.
import { defaultLimits } from "../../src/config/limits";
import { badInput } from "./badInput";
import { bisectedQuery } from "./worstQuery";
import {
  createVehicleAliases,
  graphqlBody,
  kb,
  toggleAliases,
  typenameAliases,
  typenameDocumentOfLength,
  vehiclePageAliases,
} from "./documents";
import { vehicleCount, type Fixture } from "./fixture";
import { describeAnswer, hammer, type AttackRequest, type HammerResult } from "./hammer";
import { oversizeBodies } from "./oversize";
import type { ServiceProcess } from "./service";
import { socketAttack, type SocketAttackKind } from "./sockets";
import type { Tally } from "./tally";

export interface AttackContext {
  url: string;
  fixture: Fixture;
  signal: AbortSignal;
  connections: number;
  sockets: number;
  socketWatchSeconds: number;
}

export interface AttackOutcome {
  statuses: Tally;
  notes: string[];
}

export interface Attack {
  id: string;
  name: string;
  /** One key's worst allowed work (a query at the limits, a full batch of writes): the victim's p99 target is checked on it. */
  worstAllowed?: boolean;
  /** Work before the measured run, on servers of its own (attack 5's bisection); returns notes. */
  prepare?(start: () => Promise<ServiceProcess>, fixture: Fixture): Promise<string[]>;
  run(context: AttackContext): Promise<AttackOutcome>;
  /** Notes read from a live server after the run (vehicles the attacker's network holds). */
  after?(url: string, fixture: Fixture): Promise<string[]>;
}

const json = { "content-type": "application/json", accept: "application/json" };
const keyed = (apiKey: string) => ({ ...json, "x-api-key": apiKey });
const post = (body: string, headers: Record<string, string>): AttackRequest => ({ method: "POST", path: "/graphql", headers, body });

/** An HTTP attack over the context's connections; notes the first answer and the document's size. */
async function httpAttack(context: AttackContext, request: (i: number) => AttackRequest, notes: string[] = []): Promise<AttackOutcome> {
  const result: HammerResult = await hammer(context.url, { connections: context.connections, signal: context.signal, request });
  return { statuses: result.statuses, notes: [...notes, `first answer: ${describeAnswer(result.first)}`] };
}

function socketRow(id: string, kind: SocketAttackKind, name: string): Attack {
  return {
    id,
    name,
    async run(context) {
      const result = await socketAttack(context.url, kind, {
        count: context.sockets,
        signal: context.signal,
        watchSeconds: context.socketWatchSeconds,
      });
      const median = result.medianSeconds === null ? `> ${result.watchedSeconds} s` : `${result.medianSeconds} s`;
      return {
        statuses: result.statuses,
        notes: [`server closed ${result.closed}/${result.count} sockets, median time open ${median} (watched ${result.watchedSeconds} s)`],
      };
    },
  };
}

export function attacks(options: { maxAliases: number }): Attack[] {
  const worst = bisectedQuery(options.maxAliases);
  return [
    {
      id: "1",
      name: "no key: distinct ~10,000-character documents",
      run: (context) => {
        // Bodies of at most 10,000 characters: the document and its JSON wrapping.
        const document = (i: number) => typenameDocumentOfLength(i, 10_000 - graphqlBody("").length - 4);
        return httpAttack(context, (i) => post(graphqlBody(document(i)), json), [`bodies of ${graphqlBody(document(0)).length.toLocaleString("en-US")} characters or a few fewer`]);
      },
    },
    socketRow("2a", "stalled-body", "no key: Content-Length 1,000,000, ~1 MB sent, then stalled"),
    socketRow("2b", "slow-body", "no key: Content-Length 1,000,000, 1 KB/s, never complete"),
    socketRow("2c", "slowloris", "no key: slowloris (a header line per second)"),
    socketRow("2d", "idle", "no key: idle sockets"),
    {
      id: "3",
      name: "one key: 800 aliases of vehicles(perPage:100), repeated",
      run: (context) => {
        const body = graphqlBody(vehiclePageAliases(800));
        return httpAttack(context, () => post(body, keyed(context.fixture.attacker.apiKey)), [`document of ${kb(body)}`]);
      },
    },
    {
      id: "4a",
      name: "one key: distinct documents of 5,000 __typename aliases",
      run: (context) =>
        httpAttack(context, (i) => post(graphqlBody(typenameAliases(i, 5_000)), keyed(context.fixture.attacker.apiKey)), [
          `documents of ${kb(graphqlBody(typenameAliases(0, 5_000)))}`,
        ]),
    },
    {
      id: "4b",
      name: "one key: distinct documents of 25,000 __typename aliases",
      run: (context) =>
        httpAttack(context, (i) => post(graphqlBody(typenameAliases(i, 25_000)), keyed(context.fixture.attacker.apiKey)), [
          `documents of ${kb(graphqlBody(typenameAliases(0, 25_000)))}`,
        ]),
    },
    {
      id: "5",
      name: "one key: worst allowed query (most vehicles(perPage:100) aliases accepted)",
      worstAllowed: true,
      prepare: worst.prepare,
      run: (context) => {
        const aliases = Math.max(1, worst.aliases());
        const body = graphqlBody(vehiclePageAliases(aliases));
        return httpAttack(context, () => post(body, keyed(context.fixture.attacker.apiKey)), [
          `${aliases} aliases (${kb(body)})${worst.aliases() === 0 ? ": even 1 was refused, sent anyway" : ""}`,
        ]);
      },
    },
    {
      id: "6a",
      name: "one key: 1,000 aliased createVehicle per request",
      run: (context) => httpAttack(context, (i) => post(graphqlBody(createVehicleAliases(i, 1_000)), keyed(context.fixture.attacker.apiKey))),
      async after(url, fixture) {
        return [`network B holds ${(await vehicleCount(url, fixture.attacker.apiKey)) ?? "?"} vehicles afterwards (100 before)`];
      },
    },
    {
      id: "6b",
      name: "one key: 1,000 aliased toggleDutytime per request",
      run: (context) => {
        const body = graphqlBody(toggleAliases(context.fixture.attacker.officer, 1_000));
        return httpAttack(context, () => post(body, keyed(context.fixture.attacker.apiKey)));
      },
    },
    {
      id: "6c",
      name: `one key: ${defaultLimits.graphqlMaxRootFields} aliased createVehicle per request (the most allowed)`,
      worstAllowed: true,
      run: (context) =>
        httpAttack(context, (i) => post(graphqlBody(createVehicleAliases(i, defaultLimits.graphqlMaxRootFields)), keyed(context.fixture.attacker.apiKey))),
      async after(url, fixture) {
        return [`network B holds ${(await vehicleCount(url, fixture.attacker.apiKey)) ?? "?"} vehicles afterwards (100 before)`];
      },
    },
    {
      id: "6d",
      name: `one key: ${defaultLimits.graphqlMaxRootFields} aliased toggleDutytime per request (the most allowed)`,
      worstAllowed: true,
      run: (context) => {
        const body = graphqlBody(toggleAliases(context.fixture.attacker.officer, defaultLimits.graphqlMaxRootFields));
        return httpAttack(context, () => post(body, keyed(context.fixture.attacker.apiKey)));
      },
    },
    {
      id: "7",
      name: "one key: 5 MiB POST /vehicles (Node's fetch)",
      run: async (context) => ({
        statuses: await oversizeBodies(context.url, context.fixture.attacker.apiKey, context),
        notes: [],
      }),
    },
    {
      id: "8",
      name: "no key: bad inputs of the spec (NUL, deep nesting, bad variables, TRACE, ...)",
      async run(context) {
        const result = await hammer(context.url, { connections: context.connections, signal: context.signal, request: badInput });
        // Which inputs got a 5xx or a dropped connection: each is a failure of its own.
        const failed = [...result.perKind.counts.keys()].filter((key) => !/: [1-4]\d\d$/.test(key));
        return { statuses: result.statuses, notes: failed.length ? [`failed: ${failed.join("; ")}`] : ["every input answered 1xx-4xx"] };
      },
    },
  ];
}
