/**
 * Counters and histograms that keep their series in plain numbers and typed arrays, registered
 * with prom-client's Registry as metric objects of prom-client's own shape, so /metrics renders
 * them byte for byte as prom-client's Counter and Histogram would. Why: prom-client hashes the
 * label object at every update, even through a child from labels() (about 0.7 µs per
 * observation with eight labels, against a few ns here), and every request pays that several
 * times (apiserver_request_*, apiserver_flowcontrol_*).
 */
import type { Labels } from './registry.js';

/** One line of prom-client's exposition input (its setValuePair()). */
interface ValuePair {
  readonly value: number;
  readonly labels: Record<string, string | number>;
  readonly sharedLabels?: Record<string, string>;
  readonly metricName?: string;
}

/** What prom-client's Registry reads of a metric at each scrape. */
export interface ExposedMetric {
  readonly name: string;
  readonly help: string;
  readonly type: 'counter' | 'histogram';
  readonly aggregator: 'sum';
  get(): Promise<{ name: string; help: string; type: string; values: ValuePair[]; aggregator: string }>;
  getForPromString(): Promise<{
    name: string;
    help: string;
    type: string;
    values: ValuePair[];
    aggregator: string;
  }>;
}

/** The series of one metric by label values, each created once with a private copy of its labels. */
abstract class SeriesMap<S> {
  readonly aggregator = 'sum' as const;
  private readonly byKey = new Map<string, { readonly labels: Record<string, string>; readonly state: S }>();

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly labelNames: readonly string[],
  ) {}

  protected abstract create(): S;

  /** The state of the series of `labels`, created now when new (prom-client's validateLabel errors). */
  protected series(labels: Labels<string>): S {
    let key = '';
    for (const n of this.labelNames) key += `${labels[n] ?? '\u0001'}\u0000`;
    const found = this.byKey.get(key);
    if (found) return found.state;
    const copy: Record<string, string> = {};
    for (const [k, v] of Object.entries(labels)) {
      if (!this.labelNames.includes(k))
        throw new Error(
          `Added label "${k}" is not included in initial labelset: [ '${this.labelNames.join("', '")}' ]`,
        );
      if (v !== undefined) copy[k] = v;
    }
    const state = this.create();
    this.byKey.set(key, { labels: Object.freeze(copy), state });
    return state;
  }

  protected all(): IterableIterator<{ readonly labels: Record<string, string>; readonly state: S }> {
    return this.byKey.values();
  }
}

interface CounterState {
  value: number;
}

export class OwnCounter extends SeriesMap<CounterState> implements ExposedMetric {
  readonly type = 'counter' as const;

  protected create(): CounterState {
    return { value: 0 };
  }

  /** The series' updater; the series exists (at 0) from now on. */
  bind(labels: Labels<string>): (value?: number) => void {
    const s = this.series(labels);
    return (value = 1) => {
      if (!(value >= 0)) throw new Error('It is not possible to decrease a counter');
      s.value += value;
    };
  }

  inc(labels: Labels<string>, value = 1): void {
    if (!(value >= 0)) throw new Error('It is not possible to decrease a counter');
    this.series(labels).value += value;
  }

  getForPromString() {
    const values = [...this.all()].map((s) => ({ value: s.state.value, labels: s.labels }));
    return Promise.resolve({
      name: this.name,
      help: this.help,
      type: this.type,
      values,
      aggregator: this.aggregator,
    });
  }

  get() {
    return this.getForPromString();
  }
}

interface HistogramState {
  /** Per bucket (not cumulative), the last one +Inf. */
  readonly counts: Float64Array;
  sum: number;
  count: number;
}

export class OwnHistogram extends SeriesMap<HistogramState> implements ExposedMetric {
  readonly type = 'histogram' as const;
  private readonly bounds: Float64Array;

  constructor(name: string, help: string, labelNames: readonly string[], buckets: readonly number[]) {
    super(name, help, labelNames);
    // prom-client sorts the buckets and refuses none; so does this.
    this.bounds = Float64Array.from([...buckets].sort((a, b) => a - b));
  }

  protected create(): HistogramState {
    return { counts: new Float64Array(this.bounds.length + 1), sum: 0, count: 0 };
  }

  /** The series' observer; the series exists (empty) from now on. */
  bind(labels: Labels<string>): (value: number) => void {
    const s = this.series(labels);
    return (value) => this.add(s, value);
  }

  observe(labels: Labels<string>, value: number): void {
    this.add(this.series(labels), value);
  }

  private add(s: HistogramState, value: number): void {
    if (!Number.isFinite(value)) throw new TypeError(`Value is not a valid number: ${value}`);
    const b = this.bounds;
    let i = 0;
    while (i < b.length && value > (b[i] as number)) i++;
    // i is at most bounds.length, the +Inf slot: always inside counts.
    s.counts[i] = (s.counts[i] as number) + 1;
    s.sum += value;
    s.count++;
  }

  /** prom-client's layout: per series the cumulative buckets, +Inf, _sum and _count. */
  getForPromString() {
    const values: ValuePair[] = [];
    const bucket = `${this.name}_bucket`;
    for (const { labels, state } of this.all()) {
      let acc = 0;
      this.bounds.forEach((le, i) => {
        acc += state.counts[i] as number;
        values.push({ labels: { le }, sharedLabels: labels, value: acc, metricName: bucket });
      });
      values.push(
        { labels: { le: '+Inf' }, sharedLabels: labels, value: state.count, metricName: bucket },
        { labels: {}, sharedLabels: labels, value: state.sum, metricName: `${this.name}_sum` },
        { labels: {}, sharedLabels: labels, value: state.count, metricName: `${this.name}_count` },
      );
    }
    return Promise.resolve({
      name: this.name,
      help: this.help,
      type: this.type,
      values,
      aggregator: this.aggregator,
    });
  }

  /** getMetricsAsJSON's shape: the series' labels spread into every value's. */
  async get() {
    const data = await this.getForPromString();
    return {
      ...data,
      values: data.values.map((v) => ({ ...v, labels: { ...v.labels, ...v.sharedLabels } })),
    };
  }
}
