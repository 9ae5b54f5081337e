// The service's Prometheus metrics (prom-client), served on a listener of their own
// (./metricsServer.ts). Requests and refusals are counted from each request's record when it is
// answered (./requestObserver.ts), requests by route in plain counts (./requestSeries.ts); cache
// hits, the database pool and the process are read when Prometheus scrapes, so they cost
// requests nothing.
//
// Every label takes its values from a bounded set, whatever clients send:
// - `route`: the route templates (REST's table, `/graphql`, the public paths), else `unmatched`;
// - `method`: the methods node's parser accepts; `status`: a status code;
// - `reason`: the refusal reasons of ./requestRecord.ts;
// - `operation`: a GraphQL operation's name for the first 100 names this process ran (operations
//   of admitted keys, valid against the schema), then `(other)`; `(anonymous)` for none;
// - `cache`: the caches of src/config/cacheCounts.ts;
// - `source`: how a request's client address was known (./clientAddress.ts). Never the address:
//   clients choose those, and a series each would grow without end.
import { collectDefaultMetrics, Counter, Gauge, Registry } from "prom-client";
import { cacheCounts, type CacheName } from "../../config/cacheCounts";
import type { RequestRecord } from "./requestRecord";
import { RequestSeries, SeriesDurations } from "./requestSeries";
import { clientAddressSources, type ClientAddressSource } from "./clientAddress";

/** What pg's Pool tells of its connections (public properties). */
export interface PoolCounts {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
}

/** Operation names with a series of their own; later names count as `(other)`. */
export const maxOperationNames = 100;

/**
 * Keys with a series of their own (vrd_key_requests_total): a process's keys in use are far
 * fewer than this; past it, keys count under `key_id="(other)"`, so series never grow without end.
 */
export const maxKeySeries = 1_000;
const otherKeys = { key_id: "(other)", key_name: "(other)" };

/** Seconds: a get by id takes about a millisecond, a report or a write under load up to seconds. */
const durationBuckets = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

const cacheNames = Object.keys(cacheCounts) as CacheName[];

/** prom-client's process metrics that break Prometheus' naming rules (see serviceMetrics). */
const lintFailingDefaults = ["nodejs_active_handles_total", "nodejs_active_requests_total", "nodejs_active_resources_total"];

export interface ServiceMetrics {
  registry: Registry;
  /** Counts a request whose answer is ready, whose client's address was known so. */
  answered(record: RequestRecord, addressSource: ClientAddressSource): void;
}

/**
 * The metrics of one service process. `pool`: the PostgreSQL pool of its database, if any
 * (SQLite has none; its write turns are not counted, see docs/operations.md).
 */
export function serviceMetrics({ pool = null }: { pool?: PoolCounts | null } = {}): ServiceMetrics {
  const registry = new Registry();
  const registers = [registry];
  collectDefaultMetrics({ register: registry });
  // Gauges whose names end in _total, which Prometheus keeps for counters (promtool refuses
  // them); their values are the sums of nodejs_active_handles, _requests and _resources by type.
  for (const name of lintFailingDefaults) registry.removeSingleMetric(name);

  const series = new RequestSeries(durationBuckets);
  new Counter({
    name: "vrd_http_requests_total",
    help: "HTTP requests answered, by route template, method and status.",
    labelNames: ["route", "method", "status"] as const,
    registers,
    collect() {
      this.reset();
      for (const each of series.all()) {
        for (const [status, count] of each.statuses) this.inc({ route: each.route, method: each.method, status }, count);
      }
    },
  });
  // Plain counts, made samples when scraped, as the series above (prom-client's inc hashes its labels).
  const addressSources = Object.fromEntries(clientAddressSources.map((source) => [source, 0])) as Record<ClientAddressSource, number>;
  new Counter({
    name: "vrd_http_requests_by_client_address_source_total",
    help: "HTTP requests answered, by how the client's address was known: direct, trusted_proxy (X-Forwarded-For of a TRUSTED_PROXIES peer), untrusted_forwarded (X-Forwarded-For of another peer, ignored).",
    labelNames: ["source"] as const,
    registers,
    collect() {
      this.reset();
      for (const source of clientAddressSources) this.inc({ source }, addressSources[source]);
    },
  });
  new SeriesDurations(series, {
    name: "vrd_http_request_duration_seconds",
    help: "Time from a request's headers to its answer, by route template and method.",
    registers,
  });
  const operations = countedWhenScraped({
    name: "vrd_graphql_operations_total",
    help: "GraphQL operations run or refused by the limits, by operation name (bounded: see docs/operations.md) and type.",
    labelNames: ["operation", "type"] as const,
    registers,
  });
  const refusals = countedWhenScraped({
    name: "vrd_refusals_total",
    help: "Requests refused, by reason (no_key, unknown_key, rate_limit, operation_limit, operation_cost, fairness_queue, timeout, ...).",
    labelNames: ["reason"] as const,
    registers,
  });
  for (const [name, help, result] of [
    ["vrd_cache_hits_total", "Lookups answered by an in-memory cache, by cache.", "hits"],
    ["vrd_cache_misses_total", "Lookups an in-memory cache could not answer, by cache.", "misses"],
  ] as const) {
    new Counter({
      name,
      help,
      labelNames: ["cache"] as const,
      registers,
      collect() {
        // The counts are the process's (src/config/cacheCounts.ts): set, not added.
        this.reset();
        for (const cache of cacheNames) this.inc({ cache }, cacheCounts[cache][result]);
      },
    });
  }
  if (pool) {
    new Gauge({
      name: "vrd_database_pool_connections",
      help: "Connections of the PostgreSQL pool, by state: in_use (running a statement or a transaction), idle.",
      labelNames: ["state"] as const,
      registers,
      collect() {
        this.set({ state: "in_use" }, pool.totalCount - pool.idleCount);
        this.set({ state: "idle" }, pool.idleCount);
      },
    });
    new Gauge({
      name: "vrd_database_pool_waiting",
      help: "Requests waiting for a connection of the PostgreSQL pool.",
      registers,
      collect() {
        this.set(pool.waitingCount);
      },
    });
  }

  const keyRequests = countedWhenScraped({
    name: "vrd_key_requests_total",
    help: "Requests of admitted keys, by key id and name (bounded: see docs/operations.md).",
    labelNames: ["key_id", "key_name"] as const,
    registers,
  });
  /** The labels of each key counted so far (its first name stays): at most maxKeySeries keys, the others as one. */
  const keyLabelOf = labelsKept((id: number, name?: string) => ({ key_id: String(id), key_name: name ?? "" }), maxKeySeries, otherKeys);

  const operationNames = new Set<string>();
  function operationName(name: string | undefined): string {
    if (name === undefined) return "(anonymous)";
    if (operationNames.has(name)) return name;
    if (operationNames.size >= maxOperationNames) return "(other)";
    operationNames.add(name);
    return name;
  }
  // Bounded as the names and reasons are: a few types per operation name.
  const operationLabelsOf = labelsKept((operation: string) => labelsKept((type: string) => ({ operation, type })));
  const refusalLabelOf = labelsKept((reason: string) => ({ reason }));

  return {
    registry,
    answered(record, addressSource) {
      addressSources[addressSource] += 1;
      series.add(record.route ?? "unmatched", record.method, record.status, record.durationMs / 1000);
      if (record.operationType !== undefined) operations.count(operationLabelsOf(operationName(record.operation))(record.operationType));
      if (record.refusal !== undefined) refusals.count(refusalLabelOf(record.refusal));
      if (record.keyId !== undefined) keyRequests.count(keyLabelOf(record.keyId, record.keyName));
    },
  };
}

/**
 * One labels object per key, made by `make` (with the detail of the key's first count, e.g. a
 * key's name) and kept: countedWhenScraped counts by the object. Past `max` keys, new keys share
 * `other`.
 */
function labelsKept<Key, Labels, Detail = undefined>(make: (key: Key, detail?: Detail) => Labels, max = Infinity, other?: Labels): (key: Key, detail?: Detail) => Labels {
  const kept = new Map<Key, Labels>();
  return (key, detail) => {
    let labels = kept.get(key);
    if (labels) return labels;
    if (kept.size >= max && other) return other;
    kept.set(key, (labels = make(key, detail)));
    return labels;
  };
}

/**
 * A counter whose counts are kept per label object and made samples when Prometheus scrapes:
 * prom-client's inc hashes its labels at every call, which every request would pay. Callers
 * pass one object per set of label values (kept in a bounded map), so a count is one Map update.
 */
function countedWhenScraped<Label extends string>(config: { name: string; help: string; labelNames: readonly Label[]; registers: Registry[] }) {
  const counts = new Map<Record<Label, string>, number>();
  new Counter({
    ...config,
    collect() {
      this.reset();
      for (const [labels, count] of counts) this.inc(labels, count);
    },
  });
  return { count: (labels: Record<Label, string>) => void counts.set(labels, (counts.get(labels) ?? 0) + 1) };
}
