import { exponentialBuckets } from 'prom-client';
import {
  MetricsRegistry,
  type CounterMetric,
  type GaugeMetric,
  type HistogramMetric,
  type MetricsConfig,
} from '@keel/metrics';

/** kube's pending_pods queue labels; all four are always reported. */
export const PENDING_QUEUES = ['active', 'backoff', 'unschedulable', 'gated'] as const;
export type PendingQueue = (typeof PENDING_QUEUES)[number];

/** kube's schedule_attempts_total results. */
export type AttemptResult = 'scheduled' | 'unschedulable' | 'error';

/**
 * The scheduler's Prometheus metrics, named as kube-scheduler's so existing dashboards work:
 * queue depth per queue, scheduling attempts by result, and attempt latency, under the Metrics
 * flags (--disabled-metrics, --allow-metric-labels: see MetricsRegistry).
 */
export class SchedulerMetrics {
  readonly registry: MetricsRegistry;
  readonly pendingPods: GaugeMetric<'queue'>;
  readonly scheduleAttempts: CounterMetric<'result' | 'profile'>;
  readonly attemptDuration: HistogramMetric<'result' | 'profile'>;
  readonly e2eDuration: HistogramMetric<'result' | 'profile'>;
  readonly podSchedulingAttempts: HistogramMetric<never>;
  /** The synchronous part of a cycle (filter, score, select) for pods that found a node. */
  readonly algorithmDuration: HistogramMetric<never>;
  /** Read at every scrape: how many pods wait in each queue. */
  private pendingSource: (() => Readonly<Record<PendingQueue, number>>) | undefined;

  constructor(config: MetricsConfig) {
    const r = (this.registry = new MetricsRegistry(config));
    const buckets = [
      0.001, 0.002, 0.004, 0.008, 0.016, 0.032, 0.064, 0.128, 0.256, 0.512, 1.024, 2.048, 4.096, 8.192,
      16.384,
    ];
    this.pendingPods = r.gauge({
      name: 'scheduler_pending_pods',
      help: "Number of pending pods, by the queue type. 'active' means number of pods in activeQ; 'backoff' means number of pods in backoffQ; 'unschedulable' means number of pods in unschedulablePods that the scheduler attempted to schedule and failed; 'gated' is the number of unschedulable pods that the scheduler never attempted to schedule because they are gated.",
      labelNames: ['queue'],
      collect: () => {
        const counts = this.pendingSource?.();
        for (const queue of PENDING_QUEUES) this.pendingPods.set({ queue }, counts?.[queue] ?? 0);
      },
    });
    this.scheduleAttempts = r.counter({
      name: 'scheduler_schedule_attempts_total',
      help: "Number of attempts to schedule pods, by the result. 'unschedulable' means a pod could not be scheduled, while 'error' means an internal scheduler problem.",
      labelNames: ['result', 'profile'],
    });
    this.attemptDuration = r.histogram({
      name: 'scheduler_scheduling_attempt_duration_seconds',
      help: 'Scheduling attempt latency in seconds (scheduling algorithm + binding)',
      labelNames: ['result', 'profile'],
      buckets,
    });
    this.e2eDuration = r.histogram({
      name: 'scheduler_e2e_scheduling_duration_seconds',
      help: "E2e scheduling latency in seconds (from the pod's first scheduling attempt until it is bound)",
      labelNames: ['result', 'profile'],
      buckets,
    });
    this.podSchedulingAttempts = r.histogram({
      name: 'scheduler_pod_scheduling_attempts',
      help: 'Number of attempts to successfully schedule a pod.',
      buckets: [1, 2, 4, 8, 16],
    });
    this.algorithmDuration = r.histogram({
      name: 'scheduler_scheduling_algorithm_duration_seconds',
      help: 'Scheduling algorithm latency in seconds',
      buckets: exponentialBuckets(0.001, 2, 15),
    });
  }

  /** Where `scheduler_pending_pods` reads the queue sizes from at scrape time. */
  setPendingPodsSource(source: () => Readonly<Record<PendingQueue, number>>): void {
    this.pendingSource = source;
  }

  /**
   * One finished attempt (kube's PodScheduled / PodUnschedulable / PodScheduleError): the
   * attempt's latency (cycle plus binding); for a bound pod also the time since its first attempt
   * and how many attempts it took.
   */
  observeAttempt(
    result: AttemptResult,
    profile: string,
    attemptSeconds: number,
    scheduled?: { readonly e2eSeconds: number; readonly attempts: number },
  ): void {
    const labels = { result, profile };
    this.scheduleAttempts.inc(labels);
    this.attemptDuration.observe(labels, attemptSeconds);
    if (scheduled) {
      this.e2eDuration.observe(labels, scheduled.e2eSeconds);
      this.podSchedulingAttempts.observe({}, scheduled.attempts);
    }
  }

  render(): Promise<string> {
    return this.registry.render();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
