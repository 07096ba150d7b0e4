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
});
