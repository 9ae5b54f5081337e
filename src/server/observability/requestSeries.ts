// Requests counted per route template and method: how many answered each status, and how long
// they took as a Prometheus histogram. A request costs two Map lookups and a few additions;
// prom-client's Counter and Histogram hash their label values at every call, about 0.75 us per
// request on the bench machine, which a get by id at ~20,000 req/s would notice. The series are
// turned into prom-client's samples only when Prometheus scrapes (./metrics.ts).
import { Histogram, type Registry } from "prom-client";

export interface RouteMethodSeries {
  route: string;
  method: string;
  /** Requests by status. */
  statuses: Map<number, number>;
  /** Requests per bucket: bucket i took at most bounds[i] seconds and more than bounds[i - 1]; the last one more than every bound. */
  buckets: number[];
  count: number;
  sumSeconds: number;
}

export class RequestSeries {
  private readonly byRoute = new Map<string, Map<string, RouteMethodSeries>>();

  /** Upper bounds of the histogram's buckets, in seconds, ascending. */
  constructor(readonly bounds: readonly number[]) {}

  add(route: string, method: string, status: number, seconds: number): void {
    let byMethod = this.byRoute.get(route);
    if (!byMethod) this.byRoute.set(route, (byMethod = new Map()));
    let series = byMethod.get(method);
    if (!series) {
      series = { route, method, statuses: new Map(), buckets: new Array<number>(this.bounds.length + 1).fill(0), count: 0, sumSeconds: 0 };
      byMethod.set(method, series);
    }
    series.statuses.set(status, (series.statuses.get(status) ?? 0) + 1);
    let bucket = 0;
    while (bucket < this.bounds.length && seconds > this.bounds[bucket]) bucket += 1;
    series.buckets[bucket] += 1;
    series.count += 1;
    series.sumSeconds += seconds;
  }

  *all(): IterableIterator<RouteMethodSeries> {
    for (const byMethod of this.byRoute.values()) yield* byMethod.values();
  }
}

type HistogramSamples = Awaited<ReturnType<Histogram["get"]>>;

/**
 * The series' durations as a prom-client Histogram, so that prom-client's registry renders them
 * (escaping, OpenMetrics) like its own: its samples are made from the series when scraped, in
 * the shape of prom-client's Histogram (cumulative `_bucket`s with `le`, `_sum`, `_count`).
 */
export class SeriesDurations extends Histogram<"route" | "method"> {
  constructor(
    private readonly series: RequestSeries,
    private readonly about: { name: string; help: string; registers: Registry[] },
  ) {
    super({ ...about, labelNames: ["route", "method"], buckets: [...series.bounds] });
  }

  override async get(): Promise<HistogramSamples> {
    const { name, help } = this.about;
    const { bounds } = this.series;
    const values: HistogramSamples["values"] = [];
    for (const each of this.series.all()) {
      const labels = { route: each.route, method: each.method };
      let cumulative = 0;
      for (let bucket = 0; bucket < bounds.length; bucket += 1) {
        cumulative += each.buckets[bucket];
        values.push({ metricName: `${name}_bucket`, labels: { ...labels, le: bounds[bucket] }, value: cumulative });
      }
      values.push({ metricName: `${name}_bucket`, labels: { ...labels, le: "+Inf" }, value: each.count });
      values.push({ metricName: `${name}_sum`, labels, value: each.sumSeconds });
      values.push({ metricName: `${name}_count`, labels, value: each.count });
    }
    // prom-client's type names the metric's type with an enum its runtime does not use.
    return { name, help, type: "histogram", values, aggregator: "sum" } as unknown as HistogramSamples;
  }

  /** What prom-client's registry asks a metric for when it renders the text format. */
  getForPromString(): Promise<HistogramSamples> {
    return this.get();
  }
}
