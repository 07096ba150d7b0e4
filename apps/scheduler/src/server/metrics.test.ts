import { describe, expect, it } from 'vitest';
import { SchedulerMetrics, type UnschedulableCount } from './metrics.js';

const config = {
  disabledMetrics: [],
  showHiddenMetricsForVersion: '',
  showHiddenMetrics: false,
  allowMetricLabels: [],
};

function valueIn(text: string, series: string): number | undefined {
  const m = new RegExp(`^${series.replace(/[{}]/g, '\\$&')} (\\S+)$`, 'm').exec(text);
  return m ? Number(m[1]) : undefined;
}

describe('SchedulerMetrics', () => {
  it('reads scheduler_unschedulable_pods at scrape time, and a plugin no pod waits for drops to 0', async () => {
    const m = new SchedulerMetrics(config);
    let counts: UnschedulableCount[] = [
      { plugin: 'NodeResourcesFit', profile: 'default-scheduler', count: 2 },
    ];
    m.setUnschedulablePodsSource(() => counts);
    const series = 'scheduler_unschedulable_pods{plugin="NodeResourcesFit",profile="default-scheduler"}';
    expect(valueIn(await m.render(), series)).toBe(2);
    counts = [];
    expect(valueIn(await m.render(), series)).toBe(0);
  });

  it('reports the cache sizes, incoming pods and what preemption records', async () => {
    const m = new SchedulerMetrics(config);
    m.setCacheSizeSource(() => ({ nodes: 3, pods: 5, assumed_pods: 1 }));
    m.incomingPod('active', 'PodAdd');
    m.incomingPod('active', 'PodAdd');
    m.incomingPod('backoff', 'ScheduleAttemptFailure');
    m.preemption.attempt();
    m.preemption.victims(3);
    const text = await m.render();
    expect(valueIn(text, 'scheduler_scheduler_cache_size{type="nodes"}')).toBe(3);
    expect(valueIn(text, 'scheduler_scheduler_cache_size{type="pods"}')).toBe(5);
    expect(valueIn(text, 'scheduler_scheduler_cache_size{type="assumed_pods"}')).toBe(1);
    expect(valueIn(text, 'scheduler_queue_incoming_pods_total{queue="active",event="PodAdd"}')).toBe(2);
    expect(
      valueIn(text, 'scheduler_queue_incoming_pods_total{queue="backoff",event="ScheduleAttemptFailure"}'),
    ).toBe(1);
    expect(valueIn(text, 'scheduler_preemption_attempts_total')).toBe(1);
    expect(valueIn(text, 'scheduler_preemption_victims_bucket{le="4"}')).toBe(1);
    expect(valueIn(text, 'scheduler_preemption_victims_bucket{le="2"}')).toBe(0);
  });

  it('uses kube-scheduler buckets for the framework durations', async () => {
    const m = new SchedulerMetrics(config);
    m.framework.extensionPoint('PreFilter', 'Success', 'p').observe(0.00015);
    m.framework.plugin('NodeName', 'Filter', 'Success').observe(0.00001);
    const text = await m.render();
    const point = (le: string) =>
      `scheduler_framework_extension_point_duration_seconds_bucket{le="${le}",extension_point="PreFilter",status="Success",profile="p"}`;
    expect(valueIn(text, point('0.0001'))).toBe(0);
    expect(valueIn(text, point('0.0002'))).toBe(1);
    expect(valueIn(text, point('0.2048'))).toBe(1);
    expect(text).toContain(
      'scheduler_plugin_execution_duration_seconds_bucket{le="0.00001",plugin="NodeName",extension_point="Filter",status="Success"} 1',
    );
  });
});
