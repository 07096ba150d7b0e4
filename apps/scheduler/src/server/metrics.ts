import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { MetricsConfig } from '@keel/metrics';

/**
 * The scheduler's Prometheus metrics, named as kube-scheduler's so existing dashboards work:
 * queue depth per queue, scheduling attempts by result, and attempt latency. Metrics named in
 * --disabled-metrics are not registered at all.
 */
export class SchedulerMetrics {
  readonly registry = new Registry();
  readonly pendingPods: Gauge<'queue'>;
  readonly scheduleAttempts: Counter<'result' | 'profile'>;
  readonly attemptDuration: Histogram<'result' | 'profile'>;
  readonly e2eDuration: Histogram<'result' | 'profile'>;

  constructor(config: MetricsConfig) {
    const disabled = new Set(config.disabledMetrics);
    const registers = (name: string) => (disabled.has(name) ? [] : [this.registry]);
    const buckets = [
      0.001, 0.002, 0.004, 0.008, 0.016, 0.032, 0.064, 0.128, 0.256, 0.512, 1.024, 2.048, 4.096, 8.192,
      16.384,
    ];
    this.pendingPods = new Gauge({
      name: 'scheduler_pending_pods',
      help: 'Number of pending pods, by the queue type. "active" means number of pods in activeQ; "backoff" means number of pods in backoffQ; "unschedulable" means number of pods in unschedulablePods.',
      labelNames: ['queue'],
      registers: registers('scheduler_pending_pods'),
    });
    this.scheduleAttempts = new Counter({
      name: 'scheduler_schedule_attempts_total',
      help: "Number of attempts to schedule pods, by the result. 'unschedulable' means a pod could not be scheduled, while 'error' means an internal scheduler problem.",
      labelNames: ['result', 'profile'],
      registers: registers('scheduler_schedule_attempts_total'),
    });
    this.attemptDuration = new Histogram({
      name: 'scheduler_scheduling_attempt_duration_seconds',
      help: 'Scheduling attempt latency in seconds (scheduling algorithm + binding)',
      labelNames: ['result', 'profile'],
      buckets,
      registers: registers('scheduler_scheduling_attempt_duration_seconds'),
    });
    this.e2eDuration = new Histogram({
      name: 'scheduler_e2e_scheduling_duration_seconds',
      help: 'E2e scheduling latency in seconds (from the pod entering the queue until it is bound)',
      labelNames: ['result', 'profile'],
      buckets,
      registers: registers('scheduler_e2e_scheduling_duration_seconds'),
    });
    collectDefaultMetrics({ register: this.registry });
    for (const name of disabled) this.registry.removeSingleMetric(name);
  }

  render(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
