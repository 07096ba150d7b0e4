import { collectDefaultMetrics, Gauge, Registry, type Metric } from 'prom-client';
import { OwnCounter, OwnHistogram, type ExposedMetric } from './own-series.js';
import type { MetricsConfig } from './metrics-options.js';

export type Labels<L extends string> = Partial<Record<L, string>>;

/** What --allow-metric-labels puts in place of a value not on a label's allow-list (component-base's word). */
export const UNEXPECTED_LABEL_VALUE = 'unexpected';

/** One series of a counter, its labels fixed (kube's WithLabelValues). */
export interface CounterChild {
  inc(value?: number): void;
}
/** One series of a histogram, its labels fixed. */
export interface HistogramChild {
  observe(value: number): void;
}

export interface CounterMetric<L extends string> {
  inc(labels: Labels<L>, value?: number): void;
  /**
   * The series of `labels`, created now at 0. Hot paths keep the child: its labels are checked
   * against --allow-metric-labels once, not at every increment.
   */
  child(labels: Labels<L>): CounterChild;
}
export interface GaugeMetric<L extends string> {
  set(labels: Labels<L>, value: number): void;
  inc(labels: Labels<L>, value?: number): void;
  dec(labels: Labels<L>, value?: number): void;
}
export interface HistogramMetric<L extends string> {
  observe(labels: Labels<L>, value: number): void;
  /** The series of `labels`, created now with empty buckets; kept as a counter's child is. */
  child(labels: Labels<L>): HistogramChild;
}

interface MetricOpts<L extends string> {
  readonly name: string;
  readonly help: string;
  readonly labelNames?: readonly L[];
  /** Called at every scrape before the values are read (gauges that sample a source). */
  readonly collect?: () => void;
}

/** A disabled metric's series: a hot path that keeps one pays nothing for it. */
const IGNORED_COUNTER: CounterChild = { inc: () => undefined };
const IGNORED_HISTOGRAM: HistogramChild = { observe: () => undefined };

/**
 * A daemon's Prometheus registry under the Metrics flags: a metric named in --disabled-metrics is
 * never registered (its updates go nowhere), and a label with an --allow-metric-labels list keeps
 * only the listed values, every other value counted as "unexpected" so an unbounded label cannot
 * blow up the series count. Node's process metrics come along, as Go's do in the real daemons.
 */
export class MetricsRegistry {
  readonly registry = new Registry();
  private readonly disabled: ReadonlySet<string>;
  private readonly allowed = new Map<string, Map<string, ReadonlySet<string>>>();

  constructor(config: MetricsConfig) {
    this.disabled = new Set(config.disabledMetrics);
    for (const a of config.allowMetricLabels) {
      const byLabel = this.allowed.get(a.metricName) ?? new Map<string, ReadonlySet<string>>();
      byLabel.set(a.labelName, new Set(a.allowedValues));
      this.allowed.set(a.metricName, byLabel);
    }
    collectDefaultMetrics({ register: this.registry });
    for (const name of this.disabled) this.registry.removeSingleMetric(name);
  }

  counter<L extends string>(o: MetricOpts<L>): CounterMetric<L> {
    const m = new OwnCounter(o.name, o.help, o.labelNames ?? []);
    this.register(m);
    const fix = this.sanitizer<L>(o.name);
    return {
      inc: (labels, value = 1) => m.inc(fix(labels), value),
      child: (labels) => {
        if (this.disabled.has(o.name)) return IGNORED_COUNTER;
        return { inc: m.bind(fix(labels)) };
      },
    };
  }

  gauge<L extends string>(o: MetricOpts<L>): GaugeMetric<L> {
    const m = new Gauge({ ...this.base(o), ...(o.collect ? { collect: o.collect } : {}) });
    const fix = this.sanitizer<L>(o.name);
    return {
      set: (labels, value) => m.set(fix(labels), value),
      inc: (labels, value = 1) => m.inc(fix(labels), value),
      dec: (labels, value = 1) => m.dec(fix(labels), value),
    };
  }

  histogram<L extends string>(
    o: MetricOpts<L> & { readonly buckets: readonly number[] },
  ): HistogramMetric<L> {
    const m = new OwnHistogram(o.name, o.help, o.labelNames ?? [], o.buckets);
    this.register(m);
    const fix = this.sanitizer<L>(o.name);
    return {
      observe: (labels, value) => m.observe(fix(labels), value),
      child: (labels) => {
        if (this.disabled.has(o.name)) return IGNORED_HISTOGRAM;
        return { observe: m.bind(fix(labels)) };
      },
    };
  }

  /** The text exposition format, as GET /metrics answers. */
  render(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  private register(m: ExposedMetric): void {
    if (this.disabled.has(m.name)) return;
    // prom-client's Registry reads a metric through get()/getForPromString() only; ExposedMetric
    // is that contract, not prom-client's Metric class (whose update methods are not used here).
    this.registry.registerMetric(m as unknown as Metric);
  }

  private base<L extends string>(o: MetricOpts<L>) {
    return {
      name: o.name,
      help: o.help,
      labelNames: [...(o.labelNames ?? [])],
      registers: this.disabled.has(o.name) ? [] : [this.registry],
    };
  }

  private sanitizer<L extends string>(metric: string): (labels: Labels<L>) => Labels<L> {
    const byLabel = this.allowed.get(metric);
    if (!byLabel) return (labels) => labels;
    return (labels) => {
      const out: Labels<L> = { ...labels };
      for (const [label, values] of byLabel) {
        const v = out[label as L];
        if (v !== undefined && !values.has(v)) out[label as L] = UNEXPECTED_LABEL_VALUE;
      }
      return out;
    };
  }
}
