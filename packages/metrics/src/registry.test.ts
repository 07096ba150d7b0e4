import { Counter, Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { MetricsRegistry, type MetricsConfig } from './index.js';

const config = (over: Partial<MetricsConfig> = {}): MetricsConfig => ({
  disabledMetrics: [],
  showHiddenMetricsForVersion: '',
  showHiddenMetrics: false,
  allowMetricLabels: [],
  ...over,
});

describe('MetricsRegistry', () => {
  it('registers Node process metrics and the metrics it is given', async () => {
    const r = new MetricsRegistry(config());
    r.counter({ name: 'x_total', help: 'x', labelNames: ['kind'] }).inc({ kind: 'a' }, 2);
    const text = await r.render();
    expect(text).toContain('x_total{kind="a"} 2');
    expect(text).toMatch(/^process_cpu_seconds_total /m);
  });

  it('--disabled-metrics: a disabled metric is never rendered, and its updates go nowhere', async () => {
    const r = new MetricsRegistry(config({ disabledMetrics: ['x_total', 'process_cpu_seconds_total'] }));
    r.counter({ name: 'x_total', help: 'x', labelNames: ['kind'] }).inc({ kind: 'a' });
    r.gauge({ name: 'y', help: 'y' }).set({}, 3);
    const text = await r.render();
    expect(text).not.toContain('x_total');
    expect(text).not.toContain('process_cpu_seconds_total');
    expect(text).toContain('y 3');
  });

  it('--allow-metric-labels: other values of a listed label count as "unexpected"; other labels and metrics untouched', async () => {
    const r = new MetricsRegistry(
      config({
        allowMetricLabels: [{ metricName: 'x_total', labelName: 'kind', allowedValues: ['a', 'b'] }],
      }),
    );
    const x = r.counter({ name: 'x_total', help: 'x', labelNames: ['kind', 'code'] });
    for (const kind of ['a', 'c', 'd']) x.inc({ kind, code: '200' });
    r.histogram({ name: 'z_seconds', help: 'z', labelNames: ['kind'], buckets: [1] }).observe(
      { kind: 'c' },
      0.5,
    );
    const text = await r.render();
    expect(text).toContain('x_total{kind="a",code="200"} 1');
    expect(text).toContain('x_total{kind="unexpected",code="200"} 2');
    expect(text).not.toContain('kind="c",code');
    expect(text).toContain('z_seconds_count{kind="c"} 1');
  });

  it('child(): the series exists at once, its labels checked against the allow-list once', async () => {
    const r = new MetricsRegistry(
      config({
        allowMetricLabels: [{ metricName: 'w_total', labelName: 'kind', allowedValues: ['a'] }],
      }),
    );
    const labels = { kind: 'b', code: '200' };
    const c = r.counter({ name: 'w_total', help: 'w', labelNames: ['kind', 'code'] }).child(labels);
    const h = r
      .histogram({ name: 'h_bytes', help: 'h', labelNames: ['kind'], buckets: [10, 100] })
      .child({ kind: 'b' });
    let text = await r.render();
    expect(text).toContain('w_total{kind="unexpected",code="200"} 0');
    expect(text).toContain('h_bytes_count{kind="b"} 0');
    // The child keeps its own copy: changing the caller's object changes no series.
    labels.kind = 'a';
    c.inc();
    c.inc(2);
    h.observe(50);
    text = await r.render();
    expect(text).toContain('w_total{kind="unexpected",code="200"} 3');
    expect(text).not.toContain('w_total{kind="a"');
    expect(text).toContain('h_bytes_bucket{le="10",kind="b"} 0');
    expect(text).toContain('h_bytes_bucket{le="100",kind="b"} 1');
  });

  it('child() of a disabled metric takes updates and renders nothing', async () => {
    const r = new MetricsRegistry(config({ disabledMetrics: ['w_total'] }));
    r.counter({ name: 'w_total', help: 'w' }).child({}).inc();
    expect(await r.render()).not.toContain('w_total');
  });
  it("renders counters and histograms byte for byte as prom-client's own, whatever the update path", async () => {
    const ours = new MetricsRegistry(config());
    const theirs = new Registry();
    const labelNames = ['verb', 'code', 'path'] as const;
    const c = ours.counter({ name: 'c_total', help: 'a "quoted" help\\n', labelNames: [...labelNames] });
    const pc = new Counter({
      name: 'c_total',
      help: 'a "quoted" help\\n',
      labelNames: [...labelNames],
      registers: [theirs],
    });
    const buckets = [0.005, 0.5, 1, 2.5];
    const h = ours.histogram({ name: 'h_seconds', help: 'h', labelNames: ['verb', 'code'], buckets });
    const ph = new Histogram({
      name: 'h_seconds',
      help: 'h',
      labelNames: ['verb', 'code'],
      buckets,
      registers: [theirs],
    });
    const odd = { verb: 'GET', code: '200', path: 'a"b\\c\nd' };
    c.inc(odd, 2);
    pc.inc(odd, 2);
    c.child({ verb: 'POST', code: '201' }).inc();
    pc.inc({ verb: 'POST', code: '201' });
    const child = h.child({ verb: 'POST', code: '201' });
    for (const v of [0, 0.005, 0.3, 2.5, 7]) {
      child.observe(v);
      ph.observe({ verb: 'POST', code: '201' }, v);
    }
    h.observe({ verb: 'GET' }, 1);
    ph.observe({ verb: 'GET' }, 1);
    const mine = (await ours.render())
      .split('\n\n')
      .map((b) => b.trimEnd())
      .filter((b) => /^# HELP (c_total|h_seconds) /.test(b));
    const expected = (await theirs.metrics()).trimEnd().split('\n\n');
    expect(mine).toEqual(expected);
    expect(() => c.inc({ verb: 'GET' }, -1)).toThrow('It is not possible to decrease a counter');
    expect(() => h.observe({ verb: 'GET' }, Number.NaN)).toThrow('Value is not a valid number');
    expect(() => c.inc({ other: 'x' } as never)).toThrow(
      'Added label "other" is not included in initial labelset',
    );
  });
});
